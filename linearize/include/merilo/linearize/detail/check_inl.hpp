// merilo/linearize/detail/check_inl.hpp — the short-history search behind
// check(): depth first over each thread's next call, with a memo of the
// (positions, model) states already ruled out.
#ifndef MERILO_LINEARIZE_DETAIL_CHECK_INL_HPP
#define MERILO_LINEARIZE_DETAIL_CHECK_INL_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <merilo/fsm/world.hpp>
#include <merilo/linearize/check.hpp>
#include <merilo/linearize/detail/entry.hpp>  // require_model_and_spec, crash_guarded
#include <merilo/linearize/detail/hash.hpp>

namespace merilo::linearize::detail {

/// Fixed, so hashes (and so the search) are the same across runs and builds.
inline constexpr std::uint64_t kMemoSeed = 0x6c696e6561726aULL;  // "linearj"

/// The set of (positions, model) states the short search has ruled out.
template <class M>
class StateMemo {
 public:
  explicit StateMemo(std::size_t threads) : threads_(threads) {}

  [[nodiscard]] bool contains(const std::vector<std::uint32_t>& positions, const M& model) {
    const std::uint64_t h = key_hash(positions, model);
    auto [first, last] = index_.equal_range(h);
    for (auto it = first; it != last; ++it) {
      if (same(it->second, positions, model)) return true;
    }
    return false;
  }

  void insert(const std::vector<std::uint32_t>& positions, const M& model) {
    const std::uint64_t h = key_hash(positions, model);
    index_.emplace(h, models_.size());
    positions_.insert(positions_.end(), positions.begin(), positions.end());
    models_.push_back(model);
  }

  [[nodiscard]] std::size_t size() const noexcept { return models_.size(); }

 private:
  std::uint64_t key_hash(const std::vector<std::uint32_t>& positions, const M& model) {
    const std::uint64_t seed =
        hash_bytes(positions.data(), positions.size() * sizeof(std::uint32_t), kMemoSeed);
    return hash_model(model, seed, scratch_).hash;
  }

  bool same(std::size_t entry, const std::vector<std::uint32_t>& positions, const M& model) const {
    const std::uint32_t* stored = positions_.data() + entry * threads_;
    for (std::size_t i = 0; i < threads_; ++i) {
      if (stored[i] != positions[i]) return false;
    }
    return models_[entry] == model;
  }

  std::size_t threads_;
  std::unordered_multimap<std::uint64_t, std::size_t> index_;
  std::vector<std::uint32_t> positions_;  // threads_ per entry
  std::vector<M> models_;
  ByteBuffer scratch_;
};

/// Why the histories are not a valid input, or "" when they are.
template <class C, class R>
std::string validate_histories(std::span<const History<C, R>> histories) {
  for (std::size_t h = 0; h < histories.size(); ++h) {
    const History<C, R>& calls = histories[h];
    if (calls.size() >= std::numeric_limits<std::uint32_t>::max()) {
      return "history " + std::to_string(h) + " has too many calls";
    }
    for (std::size_t i = 0; i < calls.size(); ++i) {
      const Call<C, R>& c = calls[i];
      const std::string where = "history " + std::to_string(h) + ", call " + std::to_string(i);
      if (c.returned_at < c.invoked_at) {
        return where + ": returned at " + std::to_string(c.returned_at) +
               ", before it was invoked at " + std::to_string(c.invoked_at);
      }
      if (i > 0 && c.invoked_at < calls[i - 1].returned_at) {
        return where + ": invoked at " + std::to_string(c.invoked_at) +
               ", before the thread's previous call returned at " +
               std::to_string(calls[i - 1].returned_at) + " (a thread makes one call at a time)";
      }
    }
  }
  return {};
}

template <class S, class M, class C, class R, class V>
class ShortSearch {
 public:
  ShortSearch(const S& spec, std::span<const History<C, R>> histories, std::uint64_t budget)
      : spec_(spec),
        histories_(histories),
        budget_(budget),
        positions_(histories.size(), 0),
        reach_(histories.size(), 0),
        memo_(histories.size()) {
    for (const auto& h : histories) total_ += h.size();
  }

  CheckResult<V> run(const M& initial) {
    CheckResult<V> result;
    frames_.push_back(Frame{initial, 0});
    while (!frames_.empty()) {
      if (order_.size() == total_) {
        result.verdict = Verdict::linearizable;
        result.order = order_;
        return finish(std::move(result));
      }
      if (order_.size() > longest_.size()) catch_up(longest_, longest_low_);
      switch (step()) {
        case Move::descended:
          break;
        case Move::out_of_budget:
          result.verdict = Verdict::undecided;
          result.stop = SearchStop::budget;
          result.explanation.prefix = std::move(longest_);
          return finish(std::move(result));
        case Move::dead_end:
          backtrack();
          break;
      }
    }
    result.verdict = Verdict::not_linearizable;
    result.explanation = std::move(deepest_);
    result.explanation.unplaceable = unplaceable(result.explanation);
    return finish(std::move(result));
  }

 private:
  struct Frame {
    M model;
    std::size_t next_try = 0;  // the next thread whose call to try here
  };
  enum class Move : std::uint8_t { descended, dead_end, out_of_budget };

  // Makes `copy` equal to order_. It already agrees with order_ on its
  // first `low` calls (order_ has not shrunk below that since the last
  // catch-up), so only the rest is copied: over a search, the copying costs
  // no more than the pushes, and time stays proportional to evaluations.
  void catch_up(std::vector<CallRef>& copy, std::size_t& low) const {
    copy.resize(std::min({low, copy.size(), order_.size()}));
    copy.insert(copy.end(), order_.begin() + static_cast<std::ptrdiff_t>(copy.size()),
                order_.end());
    low = order_.size();
  }

  CheckResult<V> finish(CheckResult<V> result) const {
    result.evaluations = evaluations_;
    result.cache_entries = memo_.size();
    return result;
  }

  const Call<C, R>& head(std::size_t thread) const {
    return histories_[thread][positions_[thread]];
  }
  bool done(std::size_t thread) const { return positions_[thread] >= histories_[thread].size(); }

  // The call that must go before `thread`'s next call: among the other
  // threads' next calls, the earliest one that returned strictly before it
  // was invoked. Later calls of a thread return later still, so heads suffice.
  std::optional<CallRef> overtaken(std::size_t thread) const {
    const std::int64_t invoked = head(thread).invoked_at;
    std::optional<CallRef> by;
    std::int64_t earliest = invoked;
    for (std::size_t j = 0; j < histories_.size(); ++j) {
      if (j == thread || done(j)) continue;
      if (head(j).returned_at < earliest) {
        earliest = head(j).returned_at;
        by = CallRef{j, positions_[j]};
      }
    }
    return by;
  }

  // Tries the frame's remaining candidates; descends into the first that
  // fits and leads to a state not yet ruled out.
  Move step() {
    Frame& frame = frames_.back();
    while (frame.next_try < histories_.size()) {
      const std::size_t thread = frame.next_try++;
      if (done(thread) || overtaken(thread)) continue;
      if (evaluations_ >= budget_) {
        --frame.next_try;
        return Move::out_of_budget;
      }
      ++evaluations_;
      const Call<C, R>& call = head(thread);
      if (spec_.postcondition(frame.model, call.command, call.response)) continue;
      M next = advance(spec_, frame.model, call.command, call.response, thread);
      ++positions_[thread];
      reach_[thread] = std::max(reach_[thread], positions_[thread]);
      if (memo_.contains(positions_, next)) {
        --positions_[thread];
        continue;
      }
      order_.push_back(CallRef{thread, positions_[thread] - 1});
      frames_.push_back(Frame{std::move(next), 0});
      return Move::descended;
    }
    return Move::dead_end;
  }

  // The first of the dead end's next calls that no valid order placed: the
  // search walked every order, and it places a call (`reach_` passes it)
  // whenever some valid order does, so a call it never placed fits none.
  // One the model refused goes before one only overtaken, which is held
  // back by a call that itself cannot be placed.
  std::optional<CallRef> unplaceable(const Explanation<V>& dead_end) const {
    std::optional<CallRef> held_back;
    for (const NextCall<V>& n : dead_end.next) {
      if (n.call.index < reach_[n.call.history]) continue;
      if (n.why != Blocked::overtaken) return n.call;
      if (!held_back) held_back = n.call;
    }
    return held_back;
  }

  void backtrack() {
    if (!have_deepest_ || order_.size() > deepest_.prefix.size()) record_dead_end();
    memo_.insert(positions_, frames_.back().model);
    frames_.pop_back();
    if (!order_.empty()) {
      --positions_[order_.back().history];
      order_.pop_back();
      longest_low_ = std::min(longest_low_, order_.size());
      deepest_low_ = std::min(deepest_low_, order_.size());
    }
  }

  // Says, for each unfinished thread, why its next call cannot go here.
  // These evaluations explain; they are not part of the search's budget.
  void record_dead_end() {
    have_deepest_ = true;
    catch_up(deepest_.prefix, deepest_low_);
    deepest_.next.clear();
    const M& model = frames_.back().model;
    for (std::size_t thread = 0; thread < histories_.size(); ++thread) {
      if (done(thread)) continue;
      NextCall<V> entry;
      entry.call = CallRef{thread, positions_[thread]};
      if (auto by = overtaken(thread)) {
        entry.why = Blocked::overtaken;
        entry.overtaken_by = *by;
      } else if (auto violation =
                     spec_.postcondition(model, head(thread).command, head(thread).response)) {
        entry.why = Blocked::violated;
        entry.violation = std::move(*violation);
      } else {
        entry.why = Blocked::explored;
      }
      deepest_.next.push_back(std::move(entry));
    }
  }

  const S& spec_;
  std::span<const History<C, R>> histories_;
  std::uint64_t budget_;
  std::size_t total_ = 0;
  std::uint64_t evaluations_ = 0;
  std::vector<std::uint32_t> positions_;
  std::vector<std::uint32_t> reach_;  // per thread: calls some valid order placed
  std::vector<CallRef> order_;
  std::vector<CallRef> longest_;
  std::size_t longest_low_ = 0;  // longest_ and order_ agree below this
  std::size_t deepest_low_ = 0;  // deepest_.prefix and order_ agree below this
  std::vector<Frame> frames_;
  StateMemo<M> memo_;
  Explanation<V> deepest_;
  bool have_deepest_ = false;
};

}  // namespace merilo::linearize::detail

namespace merilo::linearize {

template <class S, class M, class C, class R>
auto check(const S& spec, const M& initial, std::span<const History<C, R>> histories,
           std::uint64_t budget) noexcept {
  detail::require_model_and_spec<S, M, C, R>();
  using V = violation_t<S, M, C, R>;
  return detail::crash_guarded<CheckResult<V>>([&] {
    CheckResult<V> result;
    result.error = detail::validate_histories(histories);
    if (!result.error.empty()) {
      result.verdict = Verdict::usage_error;
      return result;
    }
    detail::ShortSearch<S, M, C, R, V> search(spec, histories, budget);
    return search.run(initial);
  });
}

template <class S, class M, class C, class R>
auto check(const S& spec, const M& initial, const std::vector<History<C, R>>& histories,
           std::uint64_t budget) noexcept {
  return check(spec, initial, std::span<const History<C, R>>(histories), budget);
}

}  // namespace merilo::linearize

#endif  // MERILO_LINEARIZE_DETAIL_CHECK_INL_HPP
