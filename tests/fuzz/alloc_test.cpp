// alloc_test.cpp — the fuzz hot path does not allocate: after a warm-up,
// running an input through a Runner, or through a whole Target's
// test_one_input, makes no heap allocation on any example's fuzz target.
//
// This executable replaces the global operator new and delete with
// counting versions; counting is on only between `Counting` guards.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

#include <gtest/gtest.h>

#include <merilo/fuzz/run.hpp>
#include <merilo/fuzz/target.hpp>

#include <mutex/system.hpp>
#include <quorum/system.hpp>
#include <relay/system.hpp>
#include <twophase/system.hpp>
#include <watchdog/system.hpp>

namespace {

bool g_counting = false;
std::size_t g_allocations = 0;

void* counted(std::size_t size) {
  if (g_counting) ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}

void* counted_aligned(std::size_t size, std::align_val_t align) {
  if (g_counting) ++g_allocations;
  const auto a = static_cast<std::size_t>(align);
  const std::size_t rounded = (size + a - 1) / a * a;
  if (void* p = std::aligned_alloc(a, rounded == 0 ? a : rounded)) return p;
  throw std::bad_alloc();
}

}  // namespace

// The replaceable global allocation functions (all forms that allocate).
void* operator new(std::size_t size) { return counted(size); }
void* operator new[](std::size_t size) { return counted(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return counted(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return counted(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t size, std::align_val_t a) { return counted_aligned(size, a); }
void* operator new[](std::size_t size, std::align_val_t a) { return counted_aligned(size, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace {

namespace fz = merilo::fuzz;

/// Counts the allocations made while it lives.
class Counting {
 public:
  Counting() {
    g_allocations = 0;
    g_counting = true;
  }
  ~Counting() { g_counting = false; }
  Counting(const Counting&) = delete;
  Counting& operator=(const Counting&) = delete;
  [[nodiscard]] std::size_t allocations() const { return g_allocations; }
};

using Inputs = std::vector<std::vector<std::uint8_t>>;

/// `count` inputs of 1..80 pseudo-random bytes from a fixed xorshift seed;
/// choices below 0x80 mostly name a kind, so runs go deep.
Inputs make_inputs(std::uint64_t seed, std::size_t count) {
  std::uint64_t x = seed;
  const auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  Inputs inputs(count);
  for (auto& in : inputs) {
    in.resize(static_cast<std::size_t>(1 + next() % 80));
    for (auto& b : in) b = static_cast<std::uint8_t>(next() % 0x90);
  }
  return inputs;
}

/// Warms a runner up on one set of inputs, then runs a fresh set and
/// expects no allocation on any of its steps. Returns the steps counted.
template <class S>
void expect_no_allocation_per_step(std::size_t max_depth) {
  S sys;
  fz::Runner<S> runner(sys, max_depth);
  for (const auto& in : make_inputs(0x9E3779B97F4A7C15ULL, 200)) (void)runner.run(in);
  const Inputs fresh = make_inputs(0x2545F4914F6CDD1DULL, 2000);
  std::size_t steps = 0;
  std::size_t clean = 0;
  std::size_t allocations = 0;
  {
    Counting counting;
    for (const auto& in : fresh) {
      const fz::Run& r = runner.run(in);
      steps += r.trace.size();
      clean += r.ok() ? 1U : 0U;
    }
    allocations = counting.allocations();
  }
  EXPECT_EQ(clean, fresh.size()) << "a fixed example broke a rule";
  EXPECT_GT(steps, fresh.size() * 4) << "the inputs should take many steps each";
  EXPECT_EQ(allocations, 0u) << "over " << steps << " steps of " << fresh.size() << " inputs";
}

/// The same through a whole target's `test_one_input`, as libFuzzer calls it.
template <class S>
void expect_target_does_not_allocate(std::size_t max_depth) {
  fz::Target<S> target(S{}, fz::TargetOptions{.name = "Alloc", .max_depth = max_depth});
  for (const auto& in : make_inputs(7, 200)) target.test_one_input(in.data(), in.size());
  const Inputs fresh = make_inputs(11, 2000);
  std::size_t allocations = 0;
  {
    Counting counting;
    for (const auto& in : fresh) target.test_one_input(in.data(), in.size());
    allocations = counting.allocations();
  }
  EXPECT_EQ(target.executions(), 2200u);
  EXPECT_EQ(allocations, 0u) << "over " << fresh.size() << " inputs";
}

TEST(FuzzAlloc, TheCountingAllocatorCountsWhatTheRunnerWouldAllocate) {
  // The check below must be able to fail: a copy of a run's trace is an
  // allocation it sees.
  mutex::System<> sys;
  fz::Runner<mutex::System<>> runner(sys, 48);
  const std::vector<std::uint8_t> in = {0x00, 8, 0, 0, 6, 0};
  (void)runner.run(in);
  std::size_t allocations = 0;
  {
    Counting counting;
    const fz::Run copy = runner.run(in);
    allocations = counting.allocations();
    EXPECT_FALSE(copy.trace.empty());
  }
  EXPECT_GE(allocations, 1u);
}

TEST(FuzzAlloc, TheMutexRunnerDoesNotAllocatePerStep) {
  expect_no_allocation_per_step<mutex::System<>>(48);
}

TEST(FuzzAlloc, TheTwoPhaseRunnerDoesNotAllocatePerStep) {
  expect_no_allocation_per_step<twophase::System<>>(40);
}

TEST(FuzzAlloc, TheWatchdogRunnerDoesNotAllocatePerStep) {
  expect_no_allocation_per_step<watchdog::System<>>(40);
}

TEST(FuzzAlloc, TheRelayRunnerDoesNotAllocatePerStep) {
  expect_no_allocation_per_step<relay::System<>>(64);
}

TEST(FuzzAlloc, TheQuorumRunnerDoesNotAllocatePerStep) {
  expect_no_allocation_per_step<quorum::System<quorum::Bug::none, 16>>(40);
}

TEST(FuzzAlloc, EveryExampleTargetRunsAnInputWithoutAllocating) {
  expect_target_does_not_allocate<mutex::System<>>(48);
  expect_target_does_not_allocate<twophase::System<>>(40);
  expect_target_does_not_allocate<watchdog::System<>>(40);
  expect_target_does_not_allocate<relay::System<>>(64);
  expect_target_does_not_allocate<quorum::System<quorum::Bug::none, 16>>(40);
}

}  // namespace
