// model.cpp — sync::model: runs a plain threaded test body once per
// execution under the controller, with a strategy choosing the executions,
// and turns the first failure into a report with a pin (model.hpp).
#include <merilo/sync/model.hpp>

#include <algorithm>  // std::count_if
#include <charconv>   // std::from_chars
#include <utility>    // std::move
#include <vector>     // choices

#include <fmt/core.h>

#include <merilo/core/hash.hpp>                 // core::mix64 derives per-execution seeds
#include <merilo/core/type_name.hpp>            // core::test_identifier names the pinned test
#include <merilo/sync/detail/controller.hpp>    // Controller
#include <merilo/sync/detail/dpor.hpp>          // Dpor
#include <merilo/sync/detail/memory_model.hpp>  // MemoryModel

#include "execution.hpp"
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
using detail::classify;
using detail::Execution;
using detail::Memory;
using detail::run_once;

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
  std::chrono::steady_clock::time_point until() const { return until_; }

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

ModelResult model(const ModelOptions& options, const std::function<void()>& body, const char* file,
                  unsigned line) {
  ModelResult result;
  result.search = options.search;
  result.file = file;
  result.line = line;
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
    if (result.failure) {
      result.failure->execution = 1;
      result.failure->found_by = "replay";
    }
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
      if (!result.failure && !result.complete && options.fuzz_executions > 0) {
        // The search stopped short: fuzz from where it can reach cheaply.
        result.failure = detail::fuzz_schedules(options, body, options.fuzz_executions,
                                                budget.until(), result.executions, memory);
      }
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
          f->found_by = "simpler search";
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

ModelResult model(const std::function<void()>& body, const char* file, unsigned line) {
  return model(ModelOptions{}, body, file, line);
}

std::string ModelResult::summary() const {
  if (!error.empty()) return error;
  std::string verdict;
  if (failure) {
    verdict = fmt::format(
        "FAILED ({}) at execution {} (found by the {}), {} preemption{}, {} weak choice{}",
        failure->tag, failure->execution, failure->found_by, failure->preemptions,
        failure->preemptions == 1 ? "" : "s", failure->weak_choices,
        failure->weak_choices == 1 ? "" : "s");
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
      file, line, core::test_identifier(body), line, failure->pin, body);
  return out;
}

}  // namespace merilo::sync
