// merilo/statem/detail/statem_inl.hpp — template bodies of statem.hpp: list
// generation (growing a list by threading the model), execution with crash
// capture, and the shrinking loop.
#ifndef MERILO_STATEM_DETAIL_STATEM_INL_HPP
#define MERILO_STATEM_DETAIL_STATEM_INL_HPP

#include <exception>  // std::current_exception: user crashes become violations

#include <merilo/core/reentry.hpp>

namespace merilo::statem {

namespace detail {

template <class S>
using model_t = typename S::model_type;
template <class S>
using command_t = typename S::command_type;
template <class S>
using sut_t = typename S::sut_type;

/// Runs `f`; an exception escaping it becomes a crash violation of
/// `callback` stored in `out`. Returns whether `f` completed.
template <class F>
bool guarded(std::string_view callback, MaybeViolation& out, F&& f) noexcept {
  try {
    f();
    return true;
  } catch (...) {
    try {
      out = crash(callback, std::current_exception());
    } catch (...) {  // the message itself could not be built
      out = Violation{std::string(kCrashTag), std::string(callback)};
    }
  }
  return false;
}

/// `cmd` through `core::describe`; a throwing describe prints a placeholder.
template <class Cmd>
std::string print(const Cmd& cmd) noexcept {
  try {
    return core::describe(cmd);
  } catch (...) {
    return "<describe threw>";
  }
}

/// The values of a list of trees.
template <class Cmd>
std::vector<Cmd> values(const std::vector<Tree<Cmd>>& trees) {
  std::vector<Cmd> out;
  out.reserve(trees.size());
  for (const Tree<Cmd>& t : trees) out.push_back(t.value());
  return out;
}

/// A drawn list: the trees of its commands, a crash that cut the draw, a
/// usage error (an invalid generator), and whether it came out starved.
template <class Cmd>
struct Grown {
  std::vector<Tree<Cmd>> trees;
  MaybeViolation crash;
  std::string error;
  bool starved = false;
};

/// Draws run `run`'s list: a length in [1, max_commands], then one command
/// at a time from `command(model)`, threading the model through
/// `next_model`. A rejected (or given-up) draw is retried; after
/// `kMaxConsecutiveRejections` in a row the list ends early.
template <class S>
Grown<command_t<S>> grow(S& spec, std::uint64_t seed, std::size_t run, std::size_t max_commands) {
  using Cmd = command_t<S>;
  Grown<Cmd> g;
  Rng rng{run_seed(seed, run)};
  const std::size_t length =
      1 + static_cast<std::size_t>(rng.below(static_cast<std::uint64_t>(max_commands)));
  std::optional<model_t<S>> model;
  if (!guarded("initial", g.crash, [&] { model.emplace(spec.initial()); })) return g;
  while (g.trees.size() < length) {
    bool accepted = false;
    for (std::size_t attempt = 0; attempt < kMaxConsecutiveRejections && !accepted; ++attempt) {
      std::optional<Tree<Cmd>> tree;
      std::string invalid;
      if (!guarded("command", g.crash, [&] {
            const Gen<Cmd> gen = spec.command(*model);
            if (!gen.error().empty()) {
              invalid = std::string(gen.error());
              return;
            }
            tree = gen(rng);
          })) {
        return g;
      }
      if (!invalid.empty()) {
        g.error = invalid_generator(invalid);
        return g;
      }
      if (!tree) continue;
      Admission admission = Admission::reject;
      MaybeViolation ignored;
      if (!guarded("precondition", ignored,
                   [&] { admission = spec.precondition(*model, tree->value()); })) {
        // Keep the command: executing the list reproduces this crash.
        g.trees.push_back(std::move(*tree));
        return g;
      }
      if (admission == Admission::reject) continue;
      g.trees.push_back(std::move(*tree));
      if (!guarded("next_model", ignored, [&] {
            model_t<S> next = spec.next_model(*model, g.trees.back().value());
            model.emplace(std::move(next));
          })) {
        return g;  // executing the list reproduces this crash too
      }
      accepted = true;
    }
    if (!accepted) {
      g.starved = g.trees.size() * 2 < length;
      break;
    }
  }
  return g;
}

/// Executes `list` once on a fresh system: preconditions, execute,
/// next_model, finish; teardown on every path where a system exists.
template <class S>
Execution execute_list(S& spec, const std::vector<command_t<S>>& list) {
  Execution out;
  std::optional<model_t<S>> model;
  if (!guarded("initial", out.violation, [&] { model.emplace(spec.initial()); })) {
    out.stage = FailureStage::setup;
    return out;
  }
  std::optional<sut_t<S>> sut;
  if (!guarded("new_sut", out.violation, [&] { sut.emplace(spec.new_sut()); })) {
    out.stage = FailureStage::setup;
    return out;
  }
  out.stage = FailureStage::command;
  for (std::size_t i = 0; i < list.size() && !out.violation; ++i) {
    out.step = i;
    const command_t<S>& cmd = list[i];
    Admission admission = Admission::reject;
    if (!guarded("precondition", out.violation,
                 [&] { admission = spec.precondition(*model, cmd); })) {
      break;
    }
    if (admission == Admission::reject) {
      out.violation = inadmissible(i, print(cmd));
      break;
    }
    if (!guarded("execute", out.violation,
                 [&] { out.violation = spec.execute(*sut, *model, cmd); }) ||
        out.violation) {
      break;
    }
    guarded("next_model", out.violation, [&] {
      model_t<S> next = spec.next_model(*model, cmd);
      model.emplace(std::move(next));
    });
  }
  if (!out.violation) {
    out.stage = FailureStage::finish;
    out.step = list.size();
    guarded("finish", out.violation, [&] { out.violation = spec.finish(*sut, *model); });
  }
  try {
    spec.teardown(*sut);
  } catch (...) {  // NOLINT(bugprone-empty-catch): a teardown crash is discarded by contract
  }
  return out;
}

/// Whether every command of `list` is admitted in the model the previous
/// ones lead to. A crash counts as admissible: executing the candidate
/// reproduces it as a `statem.crash` violation, judged like any other.
template <class S>
bool admissible(S& spec, const std::vector<command_t<S>>& list) noexcept {
  try {
    std::optional<model_t<S>> model;
    model.emplace(spec.initial());
    for (const command_t<S>& cmd : list) {
      if (spec.precondition(*model, cmd) == Admission::reject) return false;
      model_t<S> next = spec.next_model(*model, cmd);
      model.emplace(std::move(next));
    }
    return true;
  } catch (...) {
    return true;
  }
}

/// The greedy shrinking loop of one failing run.
template <class S>
class Shrinker {
 public:
  using Cmd = command_t<S>;

  Shrinker(S& spec, const CheckConfig& config, std::vector<Tree<Cmd>> trees, Violation violation,
           FailureStage stage, std::size_t step)
      : spec_(spec),
        config_(config),
        current_(std::move(trees)),
        tag_(violation.tag),
        violation_(std::move(violation)),
        stage_(stage),
        step_(step) {}

  void run() {
    if (current_.empty()) return;
    if (attempt({}) == Try::stop) return;  // the whole list, once
    while (round()) {
    }
  }

  const std::vector<Tree<Cmd>>& current() const { return current_; }
  const Violation& violation() const { return violation_; }
  FailureStage stage() const { return stage_; }
  std::size_t step() const { return step_; }
  std::size_t shrinks() const { return accepted_; }
  std::size_t executions() const { return executions_; }
  std::size_t dropped() const { return inadmissible_; }
  ShrinkEnd end() const { return bound_hit_ ? ShrinkEnd::bound_hit : ShrinkEnd::converged; }

 private:
  enum class Try : std::uint8_t { accepted, rejected, stop };

  /// One round; true when a candidate was accepted (another round follows).
  bool round() {
    const std::size_t n = current_.size();
    for (std::size_t chunk = n / 2; chunk >= 1; chunk /= 2) {
      for (std::size_t offset = 0; offset + chunk <= n; ++offset) {
        std::vector<Tree<Cmd>> candidate;
        candidate.reserve(n - chunk);
        for (std::size_t i = 0; i < n; ++i) {
          if (i < offset || i >= offset + chunk) candidate.push_back(current_[i]);
        }
        const Try t = attempt(std::move(candidate));
        if (t != Try::rejected) return t == Try::accepted;
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      Seq<Tree<Cmd>> kids = current_[i].children();
      for (;;) {
        std::optional<Tree<Cmd>> child;
        try {
          child = kids.next();
        } catch (...) {  // a throwing map/filter ends this command's shrinks
          child.reset();
        }
        if (!child) break;
        std::vector<Tree<Cmd>> candidate = current_;
        candidate[i] = std::move(*child);
        const Try t = attempt(std::move(candidate));
        if (t != Try::rejected) return t == Try::accepted;
      }
    }
    return false;
  }

  /// Tries one candidate: dropped if inadmissible, else executed up to
  /// 1 + shrink_retries times; accepted on the first same-tag failure.
  Try attempt(std::vector<Tree<Cmd>> candidate) {
    const std::vector<Cmd> list = values(candidate);
    if (!admissible(spec_, list)) {
      if (++inadmissible_ >= kMaxInadmissible) return stop();
      return Try::rejected;
    }
    for (std::size_t a = 0; a <= config_.shrink_retries; ++a) {
      if (executions_ >= config_.max_shrinks) return stop();
      if (config_.shrink_stop) {
        ShrinkStop answer = ShrinkStop::stop_shrinking;
        try {
          answer = config_.shrink_stop();
        } catch (...) {  // a throwing predicate stops shrinking
          answer = ShrinkStop::stop_shrinking;
        }
        if (answer == ShrinkStop::stop_shrinking) return stop();
      }
      ++executions_;
      Execution e = execute_list(spec_, list);
      if (e.violation.has_value() && e.violation.value().tag == tag_) {
        current_ = std::move(candidate);
        violation_ = std::move(e.violation).value();
        stage_ = e.stage;
        step_ = e.step;
        ++accepted_;
        return Try::accepted;
      }
    }
    return Try::rejected;
  }

  Try stop() {
    bound_hit_ = true;
    return Try::stop;
  }

  S& spec_;
  const CheckConfig& config_;
  std::vector<Tree<Cmd>> current_;
  std::string tag_;
  Violation violation_;  // of current_
  FailureStage stage_;
  std::size_t step_;
  std::size_t accepted_ = 0;
  std::size_t executions_ = 0;
  std::size_t inadmissible_ = 0;
  bool bound_hit_ = false;
};

/// What one run did: a failure (shrunk), a usage error, or a pass.
template <class Cmd>
struct RunOutcome {
  std::optional<Failure<Cmd>> failure;
  std::string error;
  bool starved = false;
  std::size_t commands = 0;
};

/// Draws, executes and (on failure) shrinks run `run`.
template <class S>
RunOutcome<command_t<S>> run_one(S& spec, const CheckConfig& config, std::size_t run) {
  using Cmd = command_t<S>;
  RunOutcome<Cmd> out;
  Grown<Cmd> grown = grow(spec, *config.seed, run, config.max_commands);
  if (!grown.error.empty()) {
    out.error = std::move(grown.error);
    return out;
  }
  out.starved = grown.starved;
  out.commands = grown.trees.size();
  Failure<Cmd>& f = out.failure.emplace();
  f.seed = *config.seed;
  f.run = run;
  f.max_commands = config.max_commands;
  f.max_shrinks = config.max_shrinks;
  f.shrink_retries = config.shrink_retries;
  f.original = values(grown.trees);
  if (grown.crash) {  // cannot be re-executed: reported as drawn
    f.violation = f.original_violation = *grown.crash;
    f.shrunk = f.original;
    f.stage = f.original_stage = FailureStage::generation;
    f.step = f.original_step = f.original.size();
    return out;
  }
  Execution first = execute_list(spec, f.original);
  if (!first.violation.has_value()) {
    out.failure.reset();
    return out;
  }
  f.original_violation = std::move(first.violation).value();
  f.original_stage = first.stage;
  f.original_step = first.step;
  Shrinker<S> shrinker(spec, config, std::move(grown.trees), f.original_violation, first.stage,
                       first.step);
  shrinker.run();
  f.shrunk = values(shrinker.current());
  f.violation = shrinker.violation();
  f.stage = shrinker.stage();
  f.step = shrinker.step();
  f.shrinks = shrinker.shrinks();
  f.candidates = shrinker.executions();
  f.inadmissible = shrinker.dropped();
  f.end = shrinker.end();
  return out;
}

}  // namespace detail

template <class S>
requires Spec<std::remove_cvref_t<S>> CheckResult<typename std::remove_cvref_t<S>::command_type>
check(S&& spec, const CheckConfig& config) {
  CheckResult<typename std::remove_cvref_t<S>::command_type> r;
  if (core::inside_merilo()) {
    r.error = core::kReentryError;
    return r;
  }
  core::EntryGuard guard;
  r.error = detail::validate(config, true);
  if (!r.error.empty()) return r;
  for (std::size_t run = 0; run < config.test_count; ++run) {
    auto outcome = detail::run_one(spec, config, run);
    if (!outcome.error.empty()) {
      r.error = std::move(outcome.error);
      return r;
    }
    r.runs = run + 1;
    r.commands_run += outcome.commands;
    if (outcome.starved) ++r.starved;
    if (outcome.failure) {
      r.failure = std::move(outcome.failure);
      return r;
    }
  }
  if (r.starved * 2 > r.runs) r.unhealthy = detail::unhealthy(r.starved, r.runs);
  return r;
}

template <class S>
requires Spec<std::remove_cvref_t<S>> CheckResult<typename std::remove_cvref_t<S>::command_type>
check_run(S&& spec, const CheckConfig& config, std::size_t run) {
  CheckResult<typename std::remove_cvref_t<S>::command_type> r;
  if (core::inside_merilo()) {
    r.error = core::kReentryError;
    return r;
  }
  core::EntryGuard guard;
  r.error = detail::validate(config, false);
  if (!r.error.empty()) return r;
  auto outcome = detail::run_one(spec, config, run);
  if (!outcome.error.empty()) {
    r.error = std::move(outcome.error);
    return r;
  }
  r.runs = 1;
  r.commands_run = outcome.commands;
  r.starved = outcome.starved ? 1 : 0;
  r.failure = std::move(outcome.failure);
  return r;
}

template <class S>
requires Spec<std::remove_cvref_t<S>> Commands<typename std::remove_cvref_t<S>::command_type>
commands(S&& spec, const CheckConfig& config, std::size_t run) {
  Commands<typename std::remove_cvref_t<S>::command_type> c;
  if (core::inside_merilo()) {
    c.error = core::kReentryError;
    return c;
  }
  core::EntryGuard guard;
  c.error = detail::validate(config, false);
  if (!c.error.empty()) return c;
  auto grown = detail::grow(spec, *config.seed, run, config.max_commands);
  if (!grown.error.empty()) {
    c.error = std::move(grown.error);
    return c;
  }
  c.list = detail::values(grown.trees);
  c.generation_crash = std::move(grown.crash);
  return c;
}

template <class S>
requires Spec<std::remove_cvref_t<S>> Execution
replay(S&& spec, const std::vector<typename std::remove_cvref_t<S>::command_type>& list) {
  if (core::inside_merilo()) {
    Execution e;
    e.error = core::kReentryError;
    return e;
  }
  core::EntryGuard guard;
  return detail::execute_list(spec, list);
}

template <class Cmd>
std::string report(const Failure<Cmd>& failure) {
  std::vector<std::string> original;
  std::vector<std::string> shrunk;
  original.reserve(failure.original.size());
  shrunk.reserve(failure.shrunk.size());
  for (const Cmd& c : failure.original) original.push_back(detail::print(c));
  for (const Cmd& c : failure.shrunk) shrunk.push_back(detail::print(c));
  return detail::render_report(failure, original, shrunk);
}

}  // namespace merilo::statem

#endif  // MERILO_STATEM_DETAIL_STATEM_INL_HPP
