// model.cpp — sync::model: runs a plain threaded test body once per
// execution under the controller, with a strategy choosing the executions,
// and turns the first failure into a report with a pin (model.hpp).
#include <merilo/sync/model.hpp>

#include <algorithm>  // std::count_if
#include <charconv>   // std::from_chars
#include <exception>  // classifying a thread's failure
#include <memory>     // an execution's state
#include <typeinfo>   // an exception's type
#include <utility>    // std::move
#include <vector>     // choices

#include <fmt/core.h>

#include <merilo/core/hash.hpp>                 // core::mix64 derives per-execution seeds
#include <merilo/core/type_name.hpp>            // core::test_identifier names the pinned test
#include <merilo/sync/detail/controller.hpp>    // Controller
#include <merilo/sync/detail/dpor.hpp>          // Dpor
#include <merilo/sync/detail/memory_model.hpp>  // MemoryModel
#include <merilo/sync/detail/pool.hpp>          // the body runs on a pooled thread

#include "strategies.hpp"

namespace merilo::sync {

const char* search_name(Search search) noexcept {
  switch (search) {
    case Search::exhaustive:
      return "exhaustive";
    case Search::bounded:
      return "bounded";
    case Search::pct:
      return "pct";
    case Search::random:
      return "random";
  }
  return "?";
}

namespace {

using detail::Choice;
using detail::Controller;
using detail::RunStatus;
using detail::SyncOp;

/// One execution's state. Leaked when a thread of it is parked for good
/// (a livelock): such a thread still refers to it.
struct Run {
  Run(detail::Strategy& strategy, std::unique_ptr<detail::MemoryModel> m, std::size_t max_steps)
      : memory(std::move(m)), controller(strategy, memory.get(), max_steps) {}
  std::unique_ptr<detail::MemoryModel> memory;  // null: sequentially consistent atomics
  Controller controller;
  char finish = 0;  // the body's end token
};

/// What one execution did.
struct Execution {
  RunStatus status = RunStatus::running;
  std::exception_ptr failure;
  std::uint8_t failed_thread = 0;
  std::optional<detail::Misuse> misuse;
  std::string description;
  std::vector<Choice> trail;
  std::vector<detail::StepRecord> log;
  std::string memory;
  detail::PendingSteps left{};
  std::size_t threads = 0;
};

/// The memory model one search's executions share (its buffers keep their
/// capacity from one execution to the next).
struct Memory {
  std::unique_ptr<detail::MemoryModel> model;
};

/// Runs `body` once under `strategy`.
Execution run_once(detail::Strategy& strategy, const ModelOptions& options,
                   const std::function<void()>& body, Memory& memory) {
  if (options.memory_model && !memory.model) memory.model = std::make_unique<detail::MemoryModel>();
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
  e.left = c.pending_steps();
  e.threads = c.thread_count();
  if (abandoned) {
    (void)run.release();  // NOLINT(bugprone-unused-return-value): parked threads still use it
  } else {
    memory.model = std::move(run->memory);
  }
  return e;
}

/// The failure an execution shows, if any.
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
  std::string timeline;
  for (std::size_t i = 0; i < e.log.size(); ++i) {
    const detail::StepRecord& s = e.log[i];
    timeline += fmt::format("  {:>4}  thread {}  {}", i + 1, s.thread, detail::name(s.op));
    if (s.object != 0) timeline += fmt::format(" #{}", s.object);
    if (s.preemption) timeline += "   <- preemption";
    timeline += '\n';
  }
  f.timeline = std::move(timeline);
  f.memory = e.memory;
  return f;
}

/// The choices of pin `text`, or an error.
std::optional<std::vector<Choice>> parse_pin(std::string_view text, std::string& error) {
  if (text.substr(0, 3) != "m1:") {
    error = fmt::format(
        "merilo::sync::model: ModelOptions::replay is \"{}\", which is not a pin (a pin starts "
        "with \"m1:\", as a failure's ModelFailure::pin does)",
        text);
    return std::nullopt;
  }
  std::vector<Choice> out;
  text.remove_prefix(3);
  while (!text.empty()) {
    const std::size_t dot = text.find('.');
    std::string_view token = text.substr(0, dot);
    text = dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
    Choice c;
    if (!token.empty() && token.front() == 'v') {
      c.value = true;
      token.remove_prefix(1);
    }
    unsigned v = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (token.empty() || ec != std::errc{} || end != token.data() + token.size() ||
        v > (c.value ? 255U : detail::kMaxControlledThreads - 1)) {
      error = fmt::format(
          "merilo::sync::model: the pin in ModelOptions::replay has a bad choice \"{}\" (a thread "
          "0..{} or a value v0..v255, separated by dots)",
          token, detail::kMaxControlledThreads - 1);
      return std::nullopt;
    }
    c.index = static_cast<std::uint8_t>(v);
    out.push_back(c);
  }
  return out;
}

/// Why `options` cannot run, or empty.
std::string check_options(const ModelOptions& o) {
  if (o.max_executions == 0) return "merilo::sync::model: ModelOptions::max_executions is 0";
  if (o.max_steps == 0) return "merilo::sync::model: ModelOptions::max_steps is 0";
  if (o.search == Search::pct && (o.pct_depth == 0 || o.pct_depth > 16)) {
    return fmt::format("merilo::sync::model: ModelOptions::pct_depth is {}; it must be 1..16",
                       o.pct_depth);
  }
  if (o.search > Search::random) {
    return fmt::format("merilo::sync::model: ModelOptions::search is {}, which is not a Search",
                       static_cast<unsigned>(o.search));
  }
  return {};
}

/// Time and execution budget of one search.
class Budget {
 public:
  explicit Budget(const ModelOptions& o)
      : max_(o.max_executions),
        until_(o.budget.count() > 0 ? std::chrono::steady_clock::now() + o.budget
                                    : std::chrono::steady_clock::time_point::max()) {}
  bool spent(std::size_t executions) const {
    return executions >= max_ || std::chrono::steady_clock::now() >= until_;
  }

 private:
  std::size_t max_;
  std::chrono::steady_clock::time_point until_;
};

/// A weak choice costs this many preemptions when `model` looks for the
/// simplest failure.
constexpr std::uint8_t kWeakChoiceCost = 2;

/// What a failure costs: preemptions plus weighted weak choices.
std::size_t cost_of(const ModelFailure& f) {
  return f.preemptions + kWeakChoiceCost * f.weak_choices;
}

/// The bounded search with bounds 0..`upto`, cheapest first (`weak_cost`:
/// what a weak choice costs), until a failure; `complete` when every
/// execution within `upto` ran.
std::optional<ModelFailure> bounded_search(const ModelOptions& options,
                                           const std::function<void()>& body, std::size_t upto,
                                           std::uint8_t weak_cost, const Budget& budget,
                                           std::size_t& executions, bool& complete,
                                           Memory& memory) {
  complete = false;
  for (std::size_t bound = 0; bound <= upto; ++bound) {
    detail::BoundedStrategy strategy(bound, weak_cost);
    while (strategy.begin()) {
      if (budget.spent(executions)) return std::nullopt;
      const Execution e = run_once(strategy, options, body, memory);
      ++executions;
      if (auto f = classify(e, strategy.diverged())) {
        f->execution = executions;
        return f;
      }
    }
  }
  complete = true;
  return std::nullopt;
}

}  // namespace

ModelResult model(const ModelOptions& options, const std::function<void()>& body,
                  std::source_location where) {
  ModelResult result;
  result.search = options.search;
  result.where = where;
  result.name = options.name;
  result.error = check_options(options);
  if (!result.error.empty()) return result;
  if (!body) {
    result.error = "merilo::sync::model: the body is an empty std::function";
    return result;
  }
  if (!options.replay.empty()) {
    Memory memory;
    const auto choices = parse_pin(options.replay, result.error);
    if (!choices) return result;
    detail::ReplayStrategy strategy(*choices);
    const Execution e = run_once(strategy, options, body, memory);
    result.executions = 1;
    result.failure = classify(e, strategy.diverged());
    if (result.failure) result.failure->execution = 1;
    return result;
  }
  const Budget budget(options);
  Memory memory;
  switch (options.search) {
    case Search::exhaustive: {
      detail::Dpor dpor(options.max_executions);
      detail::DporStrategy strategy(dpor);
      while (!budget.spent(result.executions) && dpor.begin()) {
        const Execution e = run_once(strategy, options, body, memory);
        dpor.end(e.left);
        ++result.executions;
        if ((result.failure = classify(e, dpor.diverged()))) {
          result.failure->execution = result.executions;
          break;
        }
      }
      result.complete = !result.failure && dpor.complete();
      result.sleep_blocked = dpor.sleep_blocked();
      if (result.failure && options.simplest && cost_of(*result.failure) > 0) {
        // The reduction's first failure need not be the simplest: look for
        // a cheaper one, cheapest first.
        const ModelOptions more = [&] {
          ModelOptions o = options;
          o.max_executions = result.executions + options.max_executions;
          return o;
        }();
        const Budget second(more);
        bool complete = false;
        if (auto f = bounded_search(options, body, cost_of(*result.failure) - 1, kWeakChoiceCost,
                                    second, result.executions, complete, memory)) {
          result.failure = std::move(f);
        }
      }
      break;
    }
    case Search::bounded: {
      bool complete = false;
      result.failure = bounded_search(options, body, options.preemptions, 0, budget,
                                      result.executions, complete, memory);
      result.complete = complete;
      break;
    }
    case Search::pct:
    case Search::random: {
      std::size_t length = 32;
      for (std::uint64_t i = 0; !budget.spent(result.executions); ++i) {
        const std::uint64_t seed = core::mix64(options.seed + i);
        Execution e;
        if (options.search == Search::pct) {
          detail::PctStrategy strategy(seed, options.pct_depth, length);
          e = run_once(strategy, options, body, memory);
          length = std::max<std::size_t>(strategy.decisions(), 1);
        } else {
          detail::RandomStrategy strategy(seed);
          e = run_once(strategy, options, body, memory);
        }
        ++result.executions;
        if ((result.failure = classify(e, false))) {
          result.failure->execution = result.executions;
          break;
        }
      }
      break;
    }
  }
  return result;
}

ModelResult model(const std::function<void()>& body, std::source_location where) {
  return model(ModelOptions{}, body, where);
}

std::string ModelResult::summary() const {
  if (!error.empty()) return error;
  std::string verdict;
  if (failure) {
    verdict =
        fmt::format("FAILED ({}) at execution {}, {} preemption{}", failure->tag,
                    failure->execution, failure->preemptions, failure->preemptions == 1 ? "" : "s");
  } else {
    verdict = complete ? "passed, every execution checked" : "passed (not every execution)";
  }
  return fmt::format("merilo::sync::model{}: {} search, {} execution{}{}: {}",
                     name.empty() ? std::string() : " " + name, search_name(search), executions,
                     executions == 1 ? "" : "s",
                     sleep_blocked > 0 ? fmt::format(" ({} cut short by sleep sets)", sleep_blocked)
                                       : std::string(),
                     verdict);
}

std::string ModelResult::report() const {
  std::string out = summary() + "\n";
  if (!failure) return out;
  out += fmt::format("\n{}\n\nSchedule ({} steps):\n{}", failure->message,
                     std::count(failure->timeline.begin(), failure->timeline.end(), '\n'),
                     failure->timeline);
  if (!failure->memory.empty()) {
    out += fmt::format("\nAtomics (which store each load read):\n{}", failure->memory);
  }
  const std::string body = name.empty() ? std::string("body") : name;
  out += fmt::format(
      "\nPinned test ({}:{}), replaying this execution:\n\n"
      "  TEST(PinnedModel, {}Line{}) {{\n"
      "    merilo::sync::ModelOptions options;\n"
      "    options.replay = \"{}\";\n"
      "    const merilo::sync::ModelResult r = merilo::sync::model(options, {});\n"
      "    EXPECT_TRUE(r.passed()) << r.report();\n"
      "  }}\n",
      where.file_name(), where.line(), core::test_identifier(body), where.line(), failure->pin,
      body);
  return out;
}

}  // namespace merilo::sync
