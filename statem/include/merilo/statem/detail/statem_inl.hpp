// merilo/statem/detail/statem_inl.hpp — template bodies of statem.hpp: one
// run (draw, execute, shrink), rebuilding a list from a replay token, and
// the entry points.
#ifndef MERILO_STATEM_DETAIL_STATEM_INL_HPP
#define MERILO_STATEM_DETAIL_STATEM_INL_HPP

#include <merilo/core/reentry.hpp>
#include <merilo/statem/detail/execute_inl.hpp>
#include <merilo/statem/detail/shrink_inl.hpp>

namespace merilo::statem {

namespace detail {

/// Each command of `list`, described (what a replay token's check hashes).
template <class Cmd>
std::vector<std::string> described(const std::vector<Cmd>& list) {
  std::vector<std::string> out;
  out.reserve(list.size());
  for (const Cmd& c : list) out.push_back(core::describe(c));
  return out;
}

/// What one run did: a failure (shrunk), a usage error, or a pass.
template <class Cmd>
struct RunResult {
  std::optional<Failure<Cmd>> failure;
  std::string error;
  bool starved = false;
  std::size_t commands = 0;
};

/// The fields every failure of run `run` of `config` shares.
template <class Cmd>
Failure<Cmd> blank_failure(const CheckOptions& config, std::uint64_t seed, std::size_t run,
                           std::uint64_t size) {
  Failure<Cmd> f;
  f.seed = seed;
  f.run = run;
  f.test_count = config.test_count;
  f.max_commands = config.max_commands;
  f.max_shrinks = config.max_shrinks;
  f.shrink_retries = config.shrink_retries;
  f.size = size;
  return f;
}

/// Draws, executes and (on failure) shrinks run `run` of a check seeded
/// `seed`. `grown` is scratch space for the drawn list, reused across the
/// runs of one check; a passing run copies nothing out of it.
template <class S>
RunResult<command_t<S>> run_one(S& spec, const CheckOptions& config, std::uint64_t seed,
                                std::size_t run, Grown<command_t<S>>& grown) {
  using Cmd = command_t<S>;
  RunResult<Cmd> out;
  const std::uint64_t size = run_size(run, config.test_count);
  const std::size_t bound = run_length_bound(config.max_commands, size);
  grow_into(spec, seed, run, size, bound, grown);
  if (!grown.error.empty()) {
    out.error = std::move(grown.error);
    return out;
  }
  out.starved = grown.starved;
  out.commands = grown.trees.size();
  if (grown.crash) {  // cannot be re-executed: reported as drawn
    Failure<Cmd>& f = out.failure.emplace(blank_failure<Cmd>(config, seed, run, size));
    f.original = values(grown.trees);
    f.violation = f.original_violation = *grown.crash;
    f.shrunk = f.original;
    f.stage = f.original_stage = FailureStage::generation;
    f.step = f.original_step = f.original.size();
    return out;
  }
  Execution first = execute_trees(spec, grown.trees);
  if (!first.violation.has_value()) return out;
  Failure<Cmd>& f = out.failure.emplace(blank_failure<Cmd>(config, seed, run, size));
  f.original = values(grown.trees);
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
  f.replay_token = format_token(
      ReplayToken{seed, run, size, bound, shrinker.origins(), list_check(described(f.shrunk))});
  return out;
}

/// Rebuilds the shrunk list `text` names and executes it once (and the
/// run's original list, for the report). A failure is reported with
/// `replayed` set; a pass means the failure is gone.
template <class S>
RunResult<command_t<S>> replay_token(S& spec, const CheckOptions& config, std::string_view text) {
  using Cmd = command_t<S>;
  RunResult<Cmd> out;
  ReplayToken token;
  out.error = parse_token(text, config.max_commands, token);
  if (!out.error.empty()) return out;
  Grown<Cmd> grown = grow(spec, token.seed, token.run, token.size, token.bound);
  if (!grown.error.empty()) {
    out.error = std::move(grown.error);
    return out;
  }
  std::vector<Tree<Cmd>> trees;
  for (const Origin& o : token.items) {
    if (o.index >= grown.trees.size()) {
      out.error = token_mismatch(text, "a command index is past the end of the run's list");
      return out;
    }
    Tree<Cmd> tree = grown.trees[o.index];
    for (std::uint32_t q : o.path) {
      Seq<Tree<Cmd>> kids = tree.children();
      std::optional<Tree<Cmd>> child;
      for (std::uint32_t k = 0; k <= q; ++k) {
        child = kids.next();
        if (!child) break;
      }
      if (!child) {
        out.error = token_mismatch(text, "a child index is past the end of a shrink tree");
        return out;
      }
      tree = std::move(*child);
    }
    trees.push_back(std::move(tree));
  }
  Failure<Cmd>& f =
      out.failure.emplace(blank_failure<Cmd>(config, token.seed, token.run, token.size));
  f.original = values(grown.trees);
  f.shrunk = values(trees);
  if (list_check(described(f.shrunk)) != token.check) {
    out.failure.reset();
    out.error = token_mismatch(
        text,
        "the list it rebuilds is not the one it was made from (its check differs; a cut or "
        "edited token, or a spec whose commands changed)");
    return out;
  }
  out.commands = f.shrunk.size();
  Execution shrunk = execute_list(spec, f.shrunk);
  if (!shrunk.violation) {
    out.failure.reset();
    return out;
  }
  Execution original = execute_list(spec, f.original);
  f.violation = std::move(shrunk.violation).value();
  f.stage = shrunk.stage;
  f.step = shrunk.step;
  f.original_violation = original.violation.value_or(Violation{"", "(the original list passed)"});
  f.original_stage = original.stage;
  f.original_step = original.step;
  f.replayed = true;
  f.replay_token = std::string(text);
  return out;
}

/// The usage error that stops an entry point before it runs, or "".
inline std::string refuse_reentry() { return core::inside_merilo() ? core::kReentryError : ""; }

}  // namespace detail

template <class S>
requires Spec<std::remove_cvref_t<S>> CheckResult<command_t<S>> check(S&& spec,
                                                                      const CheckOptions& config) {
  CheckResult<command_t<S>> r;
  r.error = detail::refuse_reentry();
  if (!r.error.empty()) return r;
  core::EntryGuard guard;
  const detail::Environment env = detail::environment();
  r.error = env.error;
  if (!r.error.empty()) return r;
  const std::string& token = env.replay.empty() ? config.replay : env.replay;
  if (!token.empty()) {
    auto outcome = detail::replay_token(spec, config, token);
    r.error = std::move(outcome.error);
    r.runs = r.error.empty() ? 1 : 0;
    r.commands_run = outcome.commands;
    r.failure = std::move(outcome.failure);
    return r;
  }
  CheckOptions seeded = config;
  if (env.seed) seeded.seed = env.seed;
  r.error = detail::validate(seeded, true);
  if (!r.error.empty()) return r;
  detail::Grown<command_t<S>> scratch;
  for (std::size_t run = 0; run < seeded.test_count; ++run) {
    auto outcome = detail::run_one(spec, seeded, *seeded.seed, run, scratch);
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
requires Spec<std::remove_cvref_t<S>> CheckResult<command_t<S>> check_run(
    S&& spec, const CheckOptions& config, std::size_t run) {
  CheckResult<command_t<S>> r;
  r.error = detail::refuse_reentry();
  if (!r.error.empty()) return r;
  core::EntryGuard guard;
  r.error = detail::validate(config, false);
  if (!r.error.empty()) return r;
  detail::Grown<command_t<S>> scratch;
  auto outcome = detail::run_one(spec, config, *config.seed, run, scratch);
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
requires Spec<std::remove_cvref_t<S>> Commands<command_t<S>> commands(S&& spec,
                                                                      const CheckOptions& config,
                                                                      std::size_t run) {
  Commands<command_t<S>> c;
  c.error = detail::refuse_reentry();
  if (!c.error.empty()) return c;
  core::EntryGuard guard;
  c.error = detail::validate(config, false);
  if (!c.error.empty()) return c;
  const std::uint64_t size = run_size(run, config.test_count);
  auto grown =
      detail::grow(spec, *config.seed, run, size, run_length_bound(config.max_commands, size));
  if (!grown.error.empty()) {
    c.error = std::move(grown.error);
    return c;
  }
  c.list = detail::values(grown.trees);
  c.generation_crash = std::move(grown.crash);
  return c;
}

template <class S>
requires Spec<std::remove_cvref_t<S>> Execution replay(S&& spec,
                                                       const std::vector<command_t<S>>& list) {
  Execution e;
  e.error = detail::refuse_reentry();
  if (!e.error.empty()) return e;
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
