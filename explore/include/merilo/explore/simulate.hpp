// merilo/explore/simulate.hpp — seeded random walks, for spaces no search
// finishes.
//
// `simulate(sys, options)` runs `walks` random walks from `reset()`, each at
// most `max_depth` steps, taking one enabled kind at random at each step and
// checking every invariant in every world it reaches (and a deadlock where
// nothing is enabled and the system is not settled). It covers nothing
// exhaustively, but it goes deep at once: a bug fifty steps away that a
// breadth-first search would reach only after every shallower world is
// found in the first walk that takes a path to it.
//
// Walk `i` draws from a stream fixed by (`seed`, `i`) alone, so the same seed
// gives the same walks on every run and for every thread count, and the
// violation reported is the one of the lowest-numbered failing walk. Its
// trace is then shortened by replay: steps are dropped, in ever smaller
// runs, as long as the same rule still breaks when the rest is followed
// from `reset()`; the shortest such trace found is reported, replayable
// like an explorer's counterexample (`format`, `replay`, replay.hpp).
//
// Example:
//
//   merilo::explore::SimulateOptions options{.walks = 1'000, .max_depth = 60, .seed = 7};
//   merilo::explore::SimulateResult r = merilo::explore::simulate(sys, options);
//   if (r.violation.found()) std::puts(merilo::explore::format(sys, r.violation.trace).c_str());
//
// One summary line is logged per run, e.g.
//
//   merilo: twophase 8 RMs: simulate seed=7 walks=1000 max_depth=60 steps=51234 violation=invariant
//   walk=12 trace=41->9
//
// NOTE: a trace that passes is not evidence that a world is safe; only the
// explorer proves that. Nondeterminism is not looked for (each world is
// reached once).
#ifndef MERILO_EXPLORE_SIMULATE_HPP
#define MERILO_EXPLORE_SIMULATE_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include <merilo/explore/explore.hpp>  // kMaxThreads
#include <merilo/explore/system.hpp>
#include <merilo/explore/trace.hpp>
#include <merilo/explore/violation.hpp>

namespace merilo::explore {

/// Bounds and knobs of one simulation.
struct SimulateOptions {
  /// Random walks to run. Required: 0 is a usage error.
  std::size_t walks = 0;
  /// The most steps per walk. Required: 0 is a usage error.
  std::size_t max_depth = 0;
  /// Fixes every walk: walk `i` draws from a stream of (`seed`, `i`).
  std::uint64_t seed = 1;
  /// Worker threads sharing the walks, in [1, kMaxThreads]; the result does
  /// not depend on it. More than 1 needs a copy-constructible system.
  unsigned threads = 1;
  /// Shorten the failing walk's trace by replay before reporting it.
  bool shrink = true;
  /// No summary line.
  bool quiet = false;
  /// Where the summary line goes; nullptr means stderr.
  std::FILE* log = nullptr;
  /// A label for the summary line (`merilo: <name>: simulate ...`).
  std::string_view name = {};
};

/// What a simulation found.
struct SimulateResult {
  /// A usage error; when set, nothing ran.
  std::string error;
  /// Walks run: all of them, or up to and including the failing one.
  std::size_t walks = 0;
  /// Steps taken by those walks (shrinking not counted).
  std::uint64_t steps = 0;
  /// The most steps one of those walks took.
  std::size_t deepest = 0;
  /// The first violation (of the lowest-numbered failing walk), its trace
  /// shortened when `SimulateOptions::shrink` is set.
  Violation violation;
  /// The failing walk's number (0-based), when there is a violation.
  std::size_t walk = 0;
  /// The failing walk's steps before shrinking.
  std::size_t original_length = 0;
  /// Replays the shrinking tried.
  std::size_t shrink_replays = 0;
  /// `SimulateOptions::seed`, `max_depth` and `name`, for the summary.
  std::uint64_t seed = 0;
  std::size_t max_depth = 0;  ///< `SimulateOptions::max_depth`.
  std::string name;           ///< `SimulateOptions::name`.
  /// Wall time.
  double seconds = 0;

  /// No usage error and no violation.
  [[nodiscard]] bool ok() const noexcept { return error.empty() && !violation.found(); }
  /// The summary line shown in the header overview, without the time.
  [[nodiscard]] std::string summary() const;
};

/// Runs the random walks of `options` on `sys`. Never throws: usage errors
/// land in `SimulateResult::error`, broken rules in `violation`.
template <System S>
[[nodiscard]] SimulateResult simulate(S& sys, const SimulateOptions& options);

}  // namespace merilo::explore

#include <merilo/explore/detail/simulate_inl.hpp>

#endif  // MERILO_EXPLORE_SIMULATE_HPP
