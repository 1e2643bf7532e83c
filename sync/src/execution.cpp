// execution.cpp — one execution of a `sync::model` body (execution.hpp).
#include "execution.hpp"

#include <algorithm>  // std::count_if
#include <chrono>     // polling a stuck execution
#include <thread>     // waiting for the run's threads to leave
#include <utility>    // std::move

#include <fmt/core.h>

#include <merilo/core/hash.hpp>         // core::mix64 hashes reads-from pairs
#include <merilo/sync/detail/pool.hpp>  // the body runs on a pooled thread

namespace merilo::sync::detail {

namespace {

/// One execution's state. Leaked when a thread of it is parked for good
/// (a livelock): such a thread still refers to it.
struct Run {
  Run(Strategy& strategy, std::unique_ptr<MemoryModel> m, std::size_t max_steps)
      : memory(std::move(m)), controller(strategy, memory.get(), max_steps) {}
  std::unique_ptr<MemoryModel> memory;  // null: sequentially consistent atomics
  Controller controller;
  char finish = 0;  // the body's end token
};

/// A hash of each reads-from pair of `m`'s execution: the store read (its
/// thread and position there; any initial value alike) and the load (its
/// thread and position).
std::vector<std::uint64_t> reads_from(const MemoryModel& m) {
  std::vector<std::uint64_t> out;
  for (std::size_t n = 0; n < m.thread_count(); ++n) {
    const auto t = static_cast<ThreadId>(n);
    if (!m.started().contains(t)) continue;
    const auto events = m.events(t);
    for (std::uint32_t i = 0; i < events.size(); ++i) {
      const Event& e = events[i];
      if (e.kind != EventKind::load && e.kind != EventKind::rmw &&
          e.kind != EventKind::cas_success && e.kind != EventKind::cas_failure) {
        continue;
      }
      // Events are named by thread and position, which a schedule does not
      // change; location ids and initial stores' positions follow the order
      // of first use, which it does.
      const bool initial = e.read_from.thread == kInitThread;
      std::uint64_t h = core::mix64((std::uint64_t{e.read_from.thread} << 32U) ^
                                    (initial ? 0U : e.read_from.index));
      h = core::mix64(h ^ (std::uint64_t{t} << 32U) ^ i);
      out.push_back(h);
    }
  }
  return out;
}

/// The reads-from edges of `m`'s execution between steps of `log`: (the
/// step of a load, the step of the store it read, or -1 for an initial value).
std::vector<std::pair<std::uint32_t, std::int64_t>> read_steps(const MemoryModel& m,
                                                               const std::vector<StepRecord>& log) {
  std::vector<std::pair<std::uint32_t, std::int64_t>> out;
  // (thread, event index + 1) -> step.
  std::vector<std::vector<std::int64_t>> step_of(m.thread_count());
  for (std::size_t i = 0; i < log.size(); ++i) {
    const StepRecord& s = log[i];
    if (s.event == 0 || s.thread >= step_of.size()) continue;
    auto& steps = step_of[s.thread];
    if (steps.size() < s.event) steps.resize(s.event, -1);
    steps[s.event - 1] = static_cast<std::int64_t>(i);
  }
  const auto find = [&](EventRef ev) -> std::int64_t {
    if (ev.thread >= step_of.size() || ev.index >= step_of[ev.thread].size()) return -1;
    return step_of[ev.thread][ev.index];
  };
  for (std::size_t t = 0; t < m.thread_count(); ++t) {
    if (!m.started().contains(static_cast<unsigned>(t))) continue;
    const auto events = m.events(static_cast<ThreadId>(t));
    for (std::uint32_t i = 0; i < events.size(); ++i) {
      const Event& e = events[i];
      if (e.read_store == 0) continue;
      const std::int64_t load = find(EventRef{static_cast<ThreadId>(t), i});
      if (load < 0) continue;
      const std::int64_t store = e.read_from.thread == kInitThread ? -1 : find(e.read_from);
      out.emplace_back(static_cast<std::uint32_t>(load), store);
    }
  }
  return out;
}

/// A hash of each step of `log`, as the (thread, point) coverage names it:
/// the thread, which of its steps this is (its k-th), the operation it
/// starts with, and whether another thread ran the step just before (the
/// thread was switched to here). See docs/design/plain-threads.md.
std::vector<std::uint64_t> points(const std::vector<StepRecord>& log) {
  std::vector<std::uint64_t> out;
  out.reserve(log.size());
  std::vector<std::uint32_t> steps;  // per thread, steps so far
  for (std::size_t i = 0; i < log.size(); ++i) {
    const StepRecord& s = log[i];
    if (steps.size() <= s.thread) steps.resize(std::size_t{s.thread} + 1, 0);
    const std::uint32_t k = steps[s.thread]++;
    const bool switched = i > 0 && log[i - 1].thread != s.thread;
    std::uint64_t h = core::mix64((std::uint64_t{s.thread} << 40U) ^ (std::uint64_t{k} << 8U) ^
                                  static_cast<std::uint64_t>(s.op));
    out.push_back(core::mix64(h ^ (switched ? 0x9e3779b97f4a7c15ULL : 0U)));
  }
  return out;
}

}  // namespace

Execution run_once(Strategy& strategy, const ModelOptions& options,
                   const std::function<void()>& body, Memory& memory) {
  // The model runs also when it is off: then it offers only the newest
  // store and the last place, which is a sequentially consistent
  // interleaving, and still records which store each load read (the
  // fuzzer's feedback).
  if (!memory.model) memory.model = std::make_unique<detail::MemoryModel>();
  memory.model->set_newest_only(!options.memory_model);
  auto run = std::make_unique<Run>(strategy, std::move(memory.model), options.max_steps);
  Run* r = run.get();
  const std::shared_ptr<detail::Job> job = detail::run_pooled([r, &body] {
    Controller& c = r->controller;
    c.enter(0);
    bool cancelled = false;
    try {
      body();
    } catch (const Cancelled&) {
      cancelled = true;
    } catch (...) {
      c.thread_failed(std::current_exception());
    }
    if (!cancelled) c.point(SyncOp::finish, &r->finish);
    c.leave(0);
  });
  bool abandoned = false;
  while (!job->wait_for(std::chrono::milliseconds(20))) {
    if (r->controller.stalled()) {
      abandoned = true;
      break;
    }
    r->controller.look_outside(std::chrono::steady_clock::now());
  }
  // The body has returned, but a thread it could not join (a cancelled
  // run: it was still unwinding) may still be using the run: wait until
  // every thread has left or is parked for good (then the run outlives it).
  std::size_t parked = 0;
  for (unsigned waits = 0; !abandoned && !r->controller.settled(parked); ++waits) {
    if (waits < 1000) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      r->controller.look_outside(std::chrono::steady_clock::now());
    }
  }
  if (parked > 0) abandoned = true;
  Controller& c = r->controller;
  Execution e;
  e.status = c.status();
  e.failure = c.failure();
  e.failed_thread = c.failed_thread();
  e.misuse = c.misuse();
  e.description = c.description();
  e.trail = c.trail();
  e.log = c.log();
  e.memory = c.format_memory();
  e.timeline = c.timeline();
  if (r->memory) e.reads_from = reads_from(*r->memory);
  e.points = points(e.log);
  e.decisions = c.decisions();
  if (r->memory) e.reads = read_steps(*r->memory, e.log);
  e.left = c.pending_steps();
  e.threads = c.thread_count();
  if (abandoned) {
    (void)run.release();  // NOLINT(bugprone-unused-return-value): parked threads still use it
  } else {
    memory.model = std::move(run->memory);
  }
  return e;
}

std::optional<ModelFailure> classify(const Execution& e, bool diverged) {
  ModelFailure f;
  if (e.failure) {
    const std::string who = e.failed_thread == 0 ? std::string("the body (thread 0)")
                                                 : fmt::format("thread {}", e.failed_thread);
    try {
      std::rethrow_exception(e.failure);
    } catch (const AssertionFailed& a) {
      f.tag = kAssertionTag;
      f.message = fmt::format("MERILO_SYNC_ASSERT({}) failed at {}:{} in {}", a.expression, a.file,
                              a.line, who);
    } catch (const std::exception& x) {
      f.tag = kExceptionTag;
      f.message = fmt::format("{} ended with an exception: {}", who, x.what());
    } catch (...) {
      f.tag = kExceptionTag;
      f.message = fmt::format("{} ended with an exception that is not a std::exception", who);
    }
  } else if (e.misuse) {
    f.tag = e.misuse->tag;
    f.message = e.misuse->detail;
  } else if (e.status == RunStatus::deadlock) {
    f.tag = kDeadlockTag;
    f.message = "deadlock: " + e.description;
  } else if (e.status == RunStatus::livelock) {
    f.tag = kLivelockTag;
    f.message = "livelock: " + e.description;
  } else if (diverged) {
    f.tag = kNondeterministicTag;
    f.message =
        "the same choices made the program take other steps: it depends on something merilo does "
        "not control (time, a random number, a plain variable shared without merilo::sync, a "
        "thread merilo did not start)";
  } else {
    return std::nullopt;
  }
  std::string pin = "m1:";
  for (std::size_t i = 0; i < e.trail.size(); ++i) {
    if (i > 0) pin += '.';
    pin += e.trail[i].value ? fmt::format("v{}", e.trail[i].index)
                            : fmt::format("{}", e.trail[i].index);
  }
  f.pin = std::move(pin);
  f.preemptions = static_cast<std::size_t>(
      std::count_if(e.log.begin(), e.log.end(), [](const auto& s) { return s.preemption; }));
  f.weak_choices = static_cast<std::size_t>(std::count_if(
      e.trail.begin(), e.trail.end(), [](const Choice& c) { return c.value && c.index != 0; }));
  f.timeline = e.timeline;
  f.memory = e.memory;
  return f;
}

}  // namespace merilo::sync::detail
