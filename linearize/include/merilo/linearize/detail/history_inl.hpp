// merilo/linearize/detail/history_inl.hpp — the driver behind
// check_history(): validation, partitioning, the shadowed-read shortcut,
// one PartSearch per part, and the search that explains a failure. The
// pieces are in value_tracker.hpp, shadowed_read.hpp, state_cache.hpp,
// allowance.hpp and part_search.hpp.
#ifndef MERILO_LINEARIZE_DETAIL_HISTORY_INL_HPP
#define MERILO_LINEARIZE_DETAIL_HISTORY_INL_HPP

#include <chrono>
#include <cstddef>
#include <exception>
#include <limits>
#include <map>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <merilo/fsm/world.hpp>
#include <merilo/linearize/detail/allowance.hpp>
#include <merilo/linearize/detail/entry.hpp>  // require_model_and_spec, crash_guarded
#include <merilo/linearize/detail/part_search.hpp>
#include <merilo/linearize/detail/shadowed_read.hpp>
#include <merilo/linearize/detail/value_tracker.hpp>
#include <merilo/linearize/history.hpp>

namespace merilo::linearize::detail {

/// Does the spec split histories by key?
template <class S, class C>
concept Partitioned = requires(const S& spec, const C& cmd) {
  { spec.partition(cmd) } -> std::convertible_to<std::string>;
};

/// Why the operations are not a valid input, or "".
template <class C, class R>
std::string validate_operations(std::span<const Operation<C, R>> operations) {
  if (operations.size() >= (std::size_t{1} << 31U)) return "too many operations";
  for (std::size_t i = 0; i < operations.size(); ++i) {
    const Operation<C, R>& o = operations[i];
    if (o.response && o.returned_at < o.invoked_at) {
      return "operation " + std::to_string(i) + ": returned at " + std::to_string(o.returned_at) +
             ", before it was invoked at " + std::to_string(o.invoked_at);
    }
  }
  return {};
}

template <class S, class M, class C, class R, class V>
class PartsCheck {
 public:
  using Search = PartSearch<S, M, C, R, V>;
  using Result = typename Search::Result;

  PartsCheck(const S& spec, const M& initial, std::span<const Operation<C, R>> operations,
             const HistoryOptions& options)
      : spec_(spec), initial_(initial), operations_(operations), options_(options) {
    allowance_.budget = options.budget;
    if (options.timeout.count() > 0) {
      allowance_.has_deadline = true;
      allowance_.deadline = std::chrono::steady_clock::now() + options.timeout;
    }
  }

  HistoryResult<V> run() {
    result_.error = validate_operations(operations_);
    if constexpr (!StepsOnCommand<S, M, C>) {
      if (result_.error.empty()) result_.error = unsteppable();
    }
    if (!result_.error.empty()) {
      result_.verdict = Verdict::usage_error;
      return std::move(result_);
    }
    split();
    std::optional<DeadEnd<V>> undecided;
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      std::optional<DeadEnd<V>> stuck;
      if constexpr (DeclaresOverwrites<S, M, C, R>) {
        if (refute_shadowed_read(p, undecided)) return finish_not_linearizable(p);
        if (allowance_.stop != SearchStop::none) continue;
      }
      Search search(spec_, operations_, searched(p), options_.cache_bytes);
      const Result outcome = search.run(initial_, allowance_);
      note_cache(search);
      if (outcome == Result::linearizable) {
        result_.orders.push_back(search.order());
        continue;
      }
      if (outcome == Result::stopped) {
        // Out of budget or time: later parts get nothing, but one of them
        // could not be shown linearizable either; keep the first.
        if (!undecided) {
          undecided = search.explain(initial_, true);
          undecided->partition = result_.partitions[p];
          undecided->part_size = parts_[p].size();
        }
        continue;
      }
      result_.explanation = search.explain(initial_, false);
      constexpr bool kPrunes = DeclaresValues<S, M, C, R> || DeclaresSequence<S, M, C, R>;
      result_.explanation.longest = !kPrunes;
      if constexpr (kPrunes) explain_lost_value(p);
      return finish_not_linearizable(p);
    }
    result_.evaluations = allowance_.evaluations;
    if (undecided) {
      result_.verdict = Verdict::undecided;
      result_.stop = allowance_.stop;
      result_.explanation = std::move(*undecided);
      result_.orders.clear();
    } else {
      result_.verdict = Verdict::linearizable;
    }
    return std::move(result_);
  }

 private:
  // Why an operation without a response cannot be stepped by a spec whose
  // next_model needs one, or "".
  std::string unsteppable() const {
    for (std::size_t i = 0; i < operations_.size(); ++i) {
      if (!operations_[i].response) {
        return "operation " + std::to_string(i) +
               " has no response, and the spec's next_model needs one (give the spec a "
               "next_model(model, cmd) for calls whose response is unknown)";
      }
    }
    return {};
  }

  // Parts in the order their keys first appear.
  void split() {
    if constexpr (Partitioned<S, C>) {
      std::map<std::string, std::size_t> index;
      for (std::size_t i = 0; i < operations_.size(); ++i) {
        std::string key = spec_.partition(operations_[i].command);
        auto [it, fresh] = index.emplace(key, parts_.size());
        if (fresh) {
          parts_.emplace_back();
          result_.partitions.push_back(std::move(key));
        }
        parts_[it->second].push_back(i);
      }
    } else {
      parts_.emplace_back();
      result_.partitions.emplace_back();
      for (std::size_t i = 0; i < operations_.size(); ++i) parts_[0].push_back(i);
    }
  }

  // The operations of part `p` the search needs: all but those that never
  // returned and never change the model (a read that timed out, when the
  // spec declares read_only). Such an operation need not be placed, and
  // placing it changes nothing, so leaving it out changes no verdict; kept,
  // each would double the states the cache tells apart.
  std::vector<std::size_t> searched(std::size_t p) const {
    if constexpr (DeclaresReadOnly<S, C, R>) {
      std::vector<std::size_t> ops;
      ops.reserve(parts_[p].size());
      for (const std::size_t i : parts_[p]) {
        const Operation<C, R>& o = operations_[i];
        if (o.response || !spec_.read_only(o.command, o.response)) ops.push_back(i);
      }
      return ops;
    } else {
      return parts_[p];
    }
  }

  // A read the real-time order alone rules out: search just the few
  // operations that show it. True when they are refuted (the explanation
  // is then set); on running out of budget `undecided` is set. (Should
  // that search not refute them, the spec broke its contract; the full
  // search decides.)
  bool refute_shadowed_read(std::size_t p, std::optional<DeadEnd<V>>& undecided) {
    ShadowedRead shadowed = shadowed_read(spec_, initial_, operations_, parts_[p]);
    if (shadowed.proof.empty()) return false;
    Search small(spec_, operations_, std::move(shadowed.proof), options_.cache_bytes);
    const Result outcome = small.run(initial_, allowance_);
    if (outcome == Result::stopped) {
      if (!undecided) {
        undecided = small.explain(initial_, true);
        undecided->partition = result_.partitions[p];
        undecided->part_size = parts_[p].size();
      }
      return false;
    }
    if (outcome != Result::not_linearizable) return false;
    // Decided. The few operations of the proof explain it unless a walk of
    // the whole part finds where an order first gets stuck on that read.
    result_.explanation = small.explain(initial_, false);
    result_.explanation.longest = false;
    explain_shadowed_read(p, shadowed.read);
    return true;
  }

  // After the shadowed-read shortcut refuted part `p`: walks the whole part
  // until an order first gets stuck on `read` (an operation known never to
  // fit), keeping the lost-value rule for every value but the one `read`
  // needs, so the walk is as fast as the search and goes on to the read
  // instead of stopping where its value was lost. What is left of the
  // budget goes to it (no later part matters now); if it runs out, the
  // deeper of its dead ends and the proof's explains.
  void explain_shadowed_read(std::size_t p, std::size_t read) {
    Search walk(spec_, operations_, searched(p), options_.cache_bytes);
    walk.spare_value_of(read);
    walk.stop_at(read);
    explain_with(walk, false);
  }

  // After the search refuted part `p` with the lost-value or sequence rule, which cuts
  // orders short: searches it again without that rule, for the deepest
  // dead end over every order, the longest valid order. That search can
  // be far costlier than the one that decided, so it gets at most
  // kExplainFactor times the evaluations spent so far (and at least
  // kExplainFloor) of what is left; if it runs out, the deeper of its dead
  // ends and the first search's explains (real, but maybe not longest).
  void explain_lost_value(std::size_t p) {
    Search full(spec_, operations_, searched(p), options_.cache_bytes);
    full.without_value_pruning();
    explain_with(full, true, kExplainFactor * allowance_.evaluations + kExplainFloor);
  }
  static constexpr std::uint64_t kExplainFactor = 10;
  static constexpr std::uint64_t kExplainFloor = 100'000;

  void explain_with(Search& search, bool exhaustive,
                    std::uint64_t cap = std::numeric_limits<std::uint64_t>::max()) {
    Allowance rest = allowance_;
    rest.budget = rest.evaluations + std::min(cap, rest.budget - rest.evaluations);
    const Result outcome = search.run(initial_, rest);
    allowance_.evaluations = rest.evaluations;
    note_cache(search);
    if (outcome == Result::not_linearizable) {
      result_.explanation = search.explain(initial_, false);
      result_.explanation.longest = exhaustive;
    } else if (outcome == Result::stopped &&
               search.dead_end_depth() > result_.explanation.prefix.size()) {
      result_.explanation = search.explain(initial_, false);
      result_.explanation.longest = false;
    }
  }

  HistoryResult<V> finish_not_linearizable(std::size_t p) {
    result_.verdict = Verdict::not_linearizable;
    result_.orders.clear();
    result_.explanation.partition = result_.partitions[p];
    result_.explanation.part_size = parts_[p].size();
    // No order places every operation, so one that misses only one is longest.
    if (result_.explanation.prefix.size() + 1 >= parts_[p].size()) {
      result_.explanation.longest = true;
    }
    result_.evaluations = allowance_.evaluations;
    return std::move(result_);
  }

  void note_cache(const Search& search) {
    if (search.cache().size() > result_.cache_entries) {
      result_.cache_entries = search.cache().size();
      result_.cache_bytes = search.cache().bytes();
    }
    result_.cache_full = result_.cache_full || search.cache().full();
  }

  const S& spec_;
  const M& initial_;
  std::span<const Operation<C, R>> operations_;
  const HistoryOptions& options_;
  Allowance allowance_;
  std::vector<std::vector<std::size_t>> parts_;
  HistoryResult<V> result_;
};

}  // namespace merilo::linearize::detail

namespace merilo::linearize {

template <class S, class M, class C, class R>
auto check_history(const S& spec, const M& initial, std::span<const Operation<C, R>> operations,
                   const HistoryOptions& options) noexcept {
  detail::require_model_and_spec<S, M, C, R>();
  using V = violation_t<S, M, C, R>;
  return detail::crash_guarded<HistoryResult<V>>(
      [&] { return detail::PartsCheck<S, M, C, R, V>(spec, initial, operations, options).run(); });
}

template <class S, class M, class C, class R>
auto check_history(const S& spec, const M& initial, const std::vector<Operation<C, R>>& operations,
                   const HistoryOptions& options) noexcept {
  return check_history(spec, initial, std::span<const Operation<C, R>>(operations), options);
}

}  // namespace merilo::linearize

#endif  // MERILO_LINEARIZE_DETAIL_HISTORY_INL_HPP
