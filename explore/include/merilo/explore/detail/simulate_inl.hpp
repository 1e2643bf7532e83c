// merilo/explore/detail/simulate_inl.hpp — the random walks of `simulate`
// and the shrinking of the failing one.
//
// Walks run in blocks of `kWalkBlock`, in order: every worker takes walks of
// the current block, and after the block the lowest failing walk, if any,
// ends the run. So the walks counted, their steps and the violation depend
// on the seed only, never on the thread count.
//
// NOTE: included by simulate.hpp only.
#ifndef MERILO_EXPLORE_DETAIL_SIMULATE_INL_HPP
#define MERILO_EXPLORE_DETAIL_SIMULATE_INL_HPP

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <merilo/core/crash.hpp>
#include <merilo/core/hash.hpp>
#include <merilo/core/reentry.hpp>
#include <merilo/explore/detail/threads.hpp>
#include <merilo/explore/replay.hpp>
#include <merilo/explore/step.hpp>

namespace merilo::explore::detail {

/// The usage error for simulation options, or "".
[[nodiscard]] std::string check_simulate_options(const SimulateOptions& options, bool copyable);
/// Prints `r.summary()` with its time to `out` (nothing when null).
void log_simulation(std::FILE* out, const SimulateResult& r);

/// Walks per block (see the file comment).
inline constexpr std::size_t kWalkBlock = 256;

/// The first draw of walk `walk` under `seed`: a stream of its own.
[[nodiscard]] constexpr std::uint64_t walk_seed(std::uint64_t seed, std::size_t walk) noexcept {
  return core::mix64(seed ^ core::mix64(static_cast<std::uint64_t>(walk)));
}

/// One worker's system and what its walk needs.
template <System S>
class Walker {
 public:
  explicit Walker(S& sys) : sys_(&sys), stepper_(sys) {}

  [[nodiscard]] const std::string& error() const noexcept { return stepper_.error(); }

  /// Runs walk `walk`; the steps taken, and `out` set when a rule broke.
  std::size_t run(std::uint64_t seed, std::size_t walk, std::size_t max_depth, Violation& out) {
    trace_.clear();
    if (stepper_.start(out) == StepEnd::broke) return 0;
    core::SplitMix64 rng(walk_seed(seed, walk));
    for (std::size_t depth = 0; depth < max_depth; ++depth) {
      std::size_t n = 0;
      try {
        const std::size_t kinds = sys_->kinds();
        if (enabled_.size() < kinds) enabled_.resize(kinds);
        for (Kind k = 0; k < kinds; ++k) {
          enabled_[n] = k;
          n += static_cast<std::size_t>(sys_->enabled(k));
        }
        if (n == 0) {
          if (!sys_->settled()) {
            out = Violation{ViolationKind::deadlock, trace_, {}, std::string(kDeadlockDetail)};
          }
          return depth;
        }
      } catch (...) {
        out = Violation{ViolationKind::crash,
                        trace_,
                        {},
                        core::crash_detail("kinds/enabled/settled", std::current_exception())};
        return depth;
      }
      const Kind k = enabled_[static_cast<std::size_t>(rng.below(n))];
      if (stepper_.take(k, &trace_, out) == StepEnd::broke) return depth + 1;
    }
    return max_depth;
  }

  /// Shortens `v`'s trace: drops runs of steps, halving the run length, as
  /// long as following the rest from reset breaks the same rule; `v` gets
  /// the shortest trace found and the violation its replay reported.
  std::size_t shrink(Violation& v) {
    std::size_t replays = 0;
    for (std::size_t run = v.trace.size() / 2; run >= 1; run /= 2) {
      for (std::size_t at = 0; at + run <= v.trace.size();) {
        Trace candidate;
        candidate.reserve(v.trace.size() - run);
        candidate.insert(candidate.end(), v.trace.begin(),
                         v.trace.begin() + static_cast<std::ptrdiff_t>(at));
        candidate.insert(candidate.end(), v.trace.begin() + static_cast<std::ptrdiff_t>(at + run),
                         v.trace.end());
        Replayed r;
        (void)walk(
            stepper_, candidate, r, [](Kind) {}, [] {});
        ++replays;
        if (r.error.empty() && r.violation.kind == v.kind && r.violation.invariant == v.invariant) {
          v = std::move(r.violation);  // its trace ends where the rule broke
        } else {
          at += run;
        }
      }
    }
    return replays;
  }

 private:
  S* sys_;
  Stepper<S> stepper_;
  Trace trace_;
  std::vector<Kind> enabled_;
};

/// One block's outcome per walk.
struct WalkOutcome {
  std::size_t steps = 0;
  std::optional<Violation> violation;
};

template <System S>
SimulateResult run_simulation(S& sys, const SimulateOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  SimulateResult result;
  result.seed = options.seed;
  result.max_depth = options.max_depth;
  result.name = options.name;
  struct alignas(64) Copy {
    S sys;
  };
  std::vector<Copy> copies;
  std::vector<Walker<S>> walkers;
  walkers.emplace_back(sys);
  if (!walkers[0].error().empty()) {
    result.error = walkers[0].error();
    return result;
  }
  if constexpr (std::is_copy_constructible_v<S>) {
    copies.reserve(options.threads);
    for (unsigned t = 1; t < options.threads; ++t) copies.push_back(Copy{sys});
    for (Copy& c : copies) walkers.emplace_back(c.sys);
  }
  std::vector<WalkOutcome> block(kWalkBlock);
  for (std::size_t first = 0; first < options.walks && !result.violation.found();
       first += kWalkBlock) {
    const std::size_t n = std::min(kWalkBlock, options.walks - first);
    for (WalkOutcome& o : block) o = WalkOutcome{};
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> failed{n};  // the lowest failing walk of the block so far
    run_on_threads(std::min<std::size_t>(walkers.size(), n), [&](std::size_t t) {
      for (std::size_t i = next++; i < n && i < failed.load(); i = next++) {
        Violation v;
        block[i].steps = walkers[t].run(options.seed, first + i, options.max_depth, v);
        if (!v.found()) continue;
        block[i].violation = std::move(v);
        for (std::size_t f = failed.load(); i < f && !failed.compare_exchange_weak(f, i);) {
        }
      }
    });
    const std::size_t last = failed.load();
    for (std::size_t i = 0; i < n && i <= last; ++i) {
      ++result.walks;
      result.steps += block[i].steps;
      result.deepest = std::max(result.deepest, block[i].steps);
    }
    if (last < n) {
      result.violation = std::move(*block[last].violation);
      result.walk = first + last;
    }
  }
  if (result.violation.found()) {
    result.original_length = result.violation.trace.size();
    if (options.shrink) result.shrink_replays = walkers[0].shrink(result.violation);
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace merilo::explore::detail

namespace merilo::explore {

template <System S>
SimulateResult simulate(S& sys, const SimulateOptions& options) {
  detail::check_system<S>();
  SimulateResult result;
  if (core::inside_merilo()) {
    result.error = core::kReentryError;
    return result;
  }
  core::EntryGuard guard;
  result.error = detail::check_simulate_options(options, std::is_copy_constructible_v<S>);
  if (!result.error.empty()) return result;
  try {
    result = detail::run_simulation(sys, options);
  } catch (const std::exception& e) {
    result = SimulateResult{};
    result.error = std::string("merilo: internal error during the simulation: ") + e.what();
  } catch (...) {
    result = SimulateResult{};
    result.error = "merilo: internal error during the simulation";
  }
  if (!options.quiet) detail::log_simulation(options.log != nullptr ? options.log : stderr, result);
  return result;
}

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_DETAIL_SIMULATE_INL_HPP
