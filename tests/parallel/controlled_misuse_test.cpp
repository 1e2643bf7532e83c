// controlled_misuse_test.cpp — the controlled scheduler on systems that use
// merilo::sync in ways it has to name rather than wait out: timed waits
// polled while another thread yields, atomic waits that deadlock, threads
// merilo does not control, a plain std::mutex held across a scheduling
// point, and sync::mutex misuse (unlock by a non-owner, a double unlock, a
// condition wait without the lock, a locked mutex destroyed).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include <merilo/parallel/parallel.hpp>
#include <merilo/sync/sync.hpp>

namespace {

namespace parallel = merilo::parallel;
namespace st = merilo::statem;
namespace msync = merilo::sync;

enum class Go : std::uint8_t { go };
[[nodiscard]] constexpr std::string_view name(Go) noexcept { return "go"; }

struct Nothing {
  std::int64_t unused = 0;
  friend bool operator==(const Nothing&, const Nothing&) = default;
};

/// A spec of one command, `go`, whose every response passes: the verdicts
/// these tests look at come from the scheduler, not from the model. `Sys`
/// has `std::int64_t go()`.
template <class Sys>
struct GoSpec {
  using model_type = Nothing;
  using command_type = Go;
  using response_type = std::int64_t;
  using sut_type = std::unique_ptr<Sys>;

  Nothing initial() const { return {}; }
  st::Gen<Go> command(const Nothing&) const { return st::element_of<Go>({Go::go}); }
  st::Admission precondition(const Nothing&, Go) const { return st::Admission::admit; }
  Nothing next_model(const Nothing& m, Go) const { return m; }
  sut_type new_sut() const { return std::make_unique<Sys>(); }
  std::int64_t run(sut_type& s, Go) const { return s->go(); }
  parallel::MaybeViolation postcondition(const Nothing&, Go, std::int64_t) const {
    return std::nullopt;
  }
  parallel::MaybeViolation finish(sut_type&) const { return std::nullopt; }
  void teardown(sut_type&) const {}
};

/// Two branches of one call each, no prefix, no shrinking.
parallel::CheckOptions two_calls(std::chrono::nanoseconds deadline = std::chrono::seconds(20)) {
  return {.seed = 1,
          .test_count = 1,
          .max_prefix = 0,
          .max_branch = 1,
          .max_shrinks = 0,
          .scheduler = parallel::Scheduler::preemption_bounded,
          .deadline = deadline};
}

std::string text_of(const parallel::CheckResult<Go, std::int64_t>& r) {
  if (!r.error.empty()) return "usage error: " + r.error;
  if (r.failure) return parallel::report(*r.failure);
  return "passed";
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// --- timed waits ---------------------------------------------------------

/// The first caller polls a stop flag with a 1 ms timed wait; the second
/// sets the flag (without notifying) and yields until the poller noticed.
struct Poller {
  msync::atomic<int> arrivals{0};
  msync::mutex mu;
  msync::condition_variable cv;
  msync::atomic<bool> stop{false};
  msync::atomic<bool> noticed{false};
  std::int64_t go() {
    if (arrivals.fetch_add(1) == 0) {
      std::unique_lock lock(mu);
      while (!stop.load()) (void)cv.wait_for(lock, std::chrono::milliseconds(1));
      noticed.store(true);
      return 0;
    }
    stop.store(true);
    while (!noticed.load()) msync::this_thread::yield();
    return 1;
  }
};

TEST(ControlledTime, ATimedPollerTimesOutWhileTheOnlyOtherThreadYields) {
  const auto r = parallel::check(GoSpec<Poller>{}, two_calls());
  EXPECT_TRUE(r.ok()) << text_of(r);
}

// --- atomic wait ---------------------------------------------------------

/// Both callers wait for a value nobody stores.
struct NeverStored {
  msync::atomic<int> flag{0};
  std::int64_t go() {
    flag.wait(0);
    return 0;
  }
};

TEST(ControlledAtomicWait, AnAtomicWaitDeadlockIsReportedAtOnceNotAtTheDeadline) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = parallel::check(GoSpec<NeverStored>{}, two_calls(std::chrono::seconds(20)));
  const double took = seconds_since(start);
  ASSERT_TRUE(r.failure.has_value()) << text_of(r);
  EXPECT_EQ(r.failure->violation.tag, parallel::kDeadlockTag) << text_of(r);
  EXPECT_NE(r.failure->violation.detail.find("atomic wait"), std::string::npos) << text_of(r);
  EXPECT_LT(took, 10.0) << "the deadlock waited for the deadline";
}

TEST(ControlledAtomicWait, AnAtomicWaitDeadlockInThePrefixIsADeadlockInThePrefix) {
  const GoSpec<NeverStored> spec;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    parallel::CheckOptions options = two_calls();
    options.seed = seed;
    options.max_prefix = 2;
    if (parallel::generate_case(spec, options, 0).drawn.prefix.empty()) continue;
    const auto start = std::chrono::steady_clock::now();
    const auto r = parallel::check(spec, options);
    const double took = seconds_since(start);
    ASSERT_TRUE(r.failure.has_value()) << text_of(r);
    EXPECT_EQ(r.failure->violation.tag, parallel::kDeadlockTag) << text_of(r);
    EXPECT_EQ(r.failure->evidence, parallel::Evidence::in_prefix) << text_of(r);
    EXPECT_NE(r.failure->violation.detail.find("prefix call 0 blocks"), std::string::npos)
        << text_of(r);
    EXPECT_LT(took, 10.0) << "the deadlock waited for the deadline";
    return;
  }
  FAIL() << "no seed of 1..20 draws a case with a prefix";
}

// --- threads merilo does not control ---------------------------------------

/// `go` touches an atomic, then a helper thread touches it too.
struct HelperAfter {
  msync::atomic<int> n{0};
  std::int64_t go() {
    (void)n.load();
    std::thread helper([this] { n.fetch_add(1); });
    helper.join();
    return 0;
  }
};

/// A helper thread touches the atomic first, then `go` does.
struct HelperFirst {
  msync::atomic<int> n{0};
  std::int64_t go() {
    std::thread helper([this] { n.fetch_add(1); });
    helper.join();
    return n.load();
  }
};

/// `go` locks a mutex and reads under it; a helper thread takes the same
/// mutex: with a branch switched out inside, the helper blocks in the real
/// mutex while its branch waits in join.
struct HelperLocks {
  msync::mutex m;
  msync::atomic<int> n{0};
  std::int64_t go() {
    {
      std::lock_guard g(m);
      (void)n.load();
    }
    std::thread helper([this] {
      std::lock_guard g(m);
      n.fetch_add(1);
    });
    helper.join();
    return 0;
  }
};

template <class Sys>
void expect_uncontrolled_thread_usage_error(const char* what) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = parallel::check(GoSpec<Sys>{}, two_calls(std::chrono::seconds(20)));
  const double took = seconds_since(start);
  ASSERT_FALSE(r.error.empty()) << what << ": " << text_of(r);
  EXPECT_NE(r.error.find("a thread merilo does not control"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("Scheduler::stress"), std::string::npos) << r.error;
  EXPECT_FALSE(r.failure.has_value()) << what;
  EXPECT_LT(took, 10.0) << what << ": waited for the deadline";
}

TEST(ControlledForeignThreads, AHelperThreadTouchingASyncObjectIsAUsageError) {
  expect_uncontrolled_thread_usage_error<HelperAfter>("helper after");
  expect_uncontrolled_thread_usage_error<HelperFirst>("helper first");
  expect_uncontrolled_thread_usage_error<HelperLocks>("helper locks");
}

TEST(ControlledForeignThreads, TheUsageErrorNamesTheOperationAndTheObject) {
  const auto r = parallel::check(GoSpec<HelperAfter>{}, two_calls());
  EXPECT_NE(r.error.find("atomic read-modify-write on object #1"), std::string::npos) << r.error;
}

TEST(ControlledForeignThreads, SyncTypesOnAnotherThreadOutsideAnyRunStayPlain) {
  // A controlled check and plain use of merilo::sync on another thread at
  // the same time: the plain use is no business of the check.
  msync::atomic<bool> done{false};
  std::thread other([&] {
    msync::mutex m;
    msync::atomic<int> x{0};
    while (!done.load()) {
      std::lock_guard g(m);
      x.fetch_add(1);
    }
  });
  struct Counter {
    msync::atomic<int> n{0};
    std::int64_t go() { return n.fetch_add(1); }
  };
  const auto r = parallel::check(GoSpec<Counter>{}, {.seed = 1, .test_count = 10});
  done.store(true);
  other.join();
  EXPECT_TRUE(r.ok()) << text_of(r);
}

/// A plain std::mutex around a merilo::sync atomic: a branch switched out
/// inside it holds the std::mutex while the other blocks in it.
struct StdLockAround {
  std::mutex m;
  msync::atomic<int> n{0};
  std::int64_t go() {
    const std::lock_guard g(m);
    return n.fetch_add(1);
  }
};

TEST(ControlledForeignLocks, AStdMutexHeldAcrossASchedulingPointIsAUsageErrorNotATimeout) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = parallel::check(GoSpec<StdLockAround>{}, two_calls(std::chrono::seconds(20)));
  const double took = seconds_since(start);
  ASSERT_FALSE(r.error.empty()) << text_of(r);
  EXPECT_NE(r.error.find("a lock merilo does not control"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(") held by branch "), std::string::npos) << r.error;
  EXPECT_LT(took, 10.0) << "waited for the deadline";
}

TEST(ControlledForeignLocks, AStdMutexNotHeldAcrossAPointPasses) {
  struct Inside {
    std::mutex m;
    msync::atomic<int> n{0};
    std::int64_t go() {
      const int seen = n.fetch_add(1);
      const std::lock_guard g(m);  // no merilo::sync operation while held
      return seen;
    }
  };
  const auto r = parallel::check(GoSpec<Inside>{}, {.seed = 1, .test_count = 10});
  EXPECT_TRUE(r.ok()) << text_of(r);
}

// --- sync::mutex misuse ----------------------------------------------------

/// The first caller locks and waits; the second unlocks the mutex it does
/// not hold, then lets the first go on.
struct UnlockByOther {
  msync::atomic<int> arrivals{0};
  msync::mutex m;
  msync::atomic<bool> locked{false};
  msync::atomic<bool> done{false};
  std::int64_t go() {
    if (arrivals.fetch_add(1) == 0) {
      m.lock();
      locked.store(true);
      while (!done.load()) msync::this_thread::yield();
      m.unlock();
      return 0;
    }
    while (!locked.load()) msync::this_thread::yield();
    m.unlock();
    done.store(true);
    return 1;
  }
};

struct DoubleUnlock {
  msync::mutex m;
  std::int64_t go() {
    m.lock();
    m.unlock();
    m.unlock();
    return 0;
  }
};

struct WaitWithoutLock {
  msync::mutex m;
  msync::condition_variable cv;
  std::int64_t go() {
    std::unique_lock<msync::mutex> lock(m, std::defer_lock);
    (void)cv.wait_for(lock, std::chrono::milliseconds(1));
    return 0;
  }
};

struct DestroyLocked {
  std::int64_t go() {
    const auto m = std::make_unique<msync::mutex>();
    m->lock();
    return 0;  // destroyed while locked
  }
};

template <class Sys>
parallel::CheckResult<Go, std::int64_t> misuse_check() {
  return parallel::check(GoSpec<Sys>{}, two_calls());
}

TEST(ControlledMisuse, AnUnlockByAThreadThatDoesNotHoldTheMutexIsNamed) {
  const auto r = misuse_check<UnlockByOther>();
  ASSERT_TRUE(r.failure.has_value()) << text_of(r);
  EXPECT_EQ(r.failure->violation.tag, parallel::kUnlockNotOwnedTag) << text_of(r);
  EXPECT_NE(r.failure->violation.detail.find("branch 1 unlocks mutex #"), std::string::npos)
      << text_of(r);
  EXPECT_NE(r.failure->violation.detail.find("held by branch 0"), std::string::npos) << text_of(r);
}

TEST(ControlledMisuse, ADoubleUnlockIsNamed) {
  const auto r = misuse_check<DoubleUnlock>();
  ASSERT_TRUE(r.failure.has_value()) << text_of(r);
  EXPECT_EQ(r.failure->violation.tag, parallel::kDoubleUnlockTag) << text_of(r);
  EXPECT_NE(r.failure->violation.detail.find("branch 0 unlocks mutex #1, which no thread holds"),
            std::string::npos)
      << text_of(r);
}

TEST(ControlledMisuse, AConditionWaitWithoutTheLockIsNamed) {
  const auto r = misuse_check<WaitWithoutLock>();
  ASSERT_TRUE(r.failure.has_value()) << text_of(r);
  EXPECT_EQ(r.failure->violation.tag, parallel::kWaitWithoutLockTag) << text_of(r);
  EXPECT_NE(r.failure->violation.detail.find("branch 0 waits on condition_variable #"),
            std::string::npos)
      << text_of(r);
}

TEST(ControlledMisuse, ALockedMutexDestroyedIsNamed) {
  const auto r = misuse_check<DestroyLocked>();
  ASSERT_TRUE(r.failure.has_value()) << text_of(r);
  EXPECT_EQ(r.failure->violation.tag, parallel::kDestroyedLockedTag) << text_of(r);
  EXPECT_NE(r.failure->violation.detail.find("branch 0 destroys mutex #1 while held by branch 0"),
            std::string::npos)
      << text_of(r);
}

}  // namespace
