// merilo/linearize/detail/sequence_tracker.hpp — for models whose value is a
// sequence that calls read whole, replace or extend at its end (a key-value
// store with append): whether a placement leaves some completed read with a
// value it can never see again.
#ifndef MERILO_LINEARIZE_DETAIL_SEQUENCE_TRACKER_HPP
#define MERILO_LINEARIZE_DETAIL_SEQUENCE_TRACKER_HPP

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <ranges>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <merilo/linearize/history.hpp>

namespace merilo::linearize::detail {

/// The sequence type a spec declares (see `DeclaresSequence`).
template <class S, class M>
using sequence_t =
    std::remove_cvref_t<decltype(std::declval<const S&>().sequence_of(std::declval<const M&>()))>;

/// Does the spec declare its model's value as a sequence that calls read
/// whole, set or extend? (sequence_of / reads_sequence / sets_sequence /
/// extends_sequence; see the top of history.hpp.)
template <class S, class M, class C, class R>
concept DeclaresSequence = requires(const S& spec, const M& model, const C& cmd,
                                    const std::optional<R>& response) {
  requires std::copyable<sequence_t<S, M>>;
  requires std::totally_ordered<sequence_t<S, M>>;
  requires std::ranges::random_access_range<const sequence_t<S, M>>;
  requires std::ranges::sized_range<const sequence_t<S, M>>;
  requires std::equality_comparable<std::ranges::range_value_t<const sequence_t<S, M>>>;
  { spec.reads_sequence(cmd, response) } -> std::convertible_to<std::optional<sequence_t<S, M>>>;
  { spec.sets_sequence(cmd, response) } -> std::convertible_to<std::optional<sequence_t<S, M>>>;
  { spec.extends_sequence(cmd, response) } -> std::convertible_to<std::optional<sequence_t<S, M>>>;
};

/// Without a declared sequence there is nothing to track.
template <class S, class M, class C, class R, bool = DeclaresSequence<S, M, C, R>>
class SequenceTracker {
 public:
  SequenceTracker(const S&, std::span<const Operation<C, R>>, const std::vector<std::size_t>&) {}
  void place(std::uint32_t) {}
  void unplace(std::uint32_t) {}
  void spare(std::uint32_t) {}
  [[nodiscard]] bool dooms(const M&, std::uint32_t) const { return false; }
  [[nodiscard]] bool cannot_fit(const M&, std::uint32_t) const { return false; }
};

/// The rule. The value after a call is the one set (a put), the one before
/// extended (an append), or the one before (anything else); a completed
/// reader (a get) fits only when the value is exactly what it read. So a
/// reader of v not yet placed can still fit only if the current value s is
/// a prefix of v (only extensions follow until the next set), or some
/// setter not yet placed sets a prefix of v (it may go last before the
/// reader). A state where neither holds for some reader is dead. Only calls
/// that set or extend change s or use up a setter, so only they are checked.
///
/// With unique appended strings a get's value spells out which appends
/// precede it and in what order, so this refuses an append placed out of
/// that order at once, instead of after every order of the appends open
/// with it was tried.
///
/// Cost: each checked placement compares s with every distinct value of a
/// reader still to place (prefix compares, usually ending at the first
/// element or the length), so it suits the per-key parts of a partitioned
/// history, a few hundred operations each.
template <class S, class M, class C, class R>
class SequenceTracker<S, M, C, R, true> {
 public:
  using T = sequence_t<S, M>;
  static constexpr std::uint32_t kNone = 0xffffffffU;
  /// A value read with more setters of a prefix than this is never judged
  /// (always counted as reachable): it keeps the setup linear in the
  /// history (a put of "" is a prefix of every value).
  static constexpr std::size_t kMaxSupport = 64;

  SequenceTracker(const S& spec, std::span<const Operation<C, R>> all,
                  const std::vector<std::size_t>& ops)
      : spec_(spec), reads_(ops.size(), kNone), sets_(ops.size(), kNone), changes_(ops.size(), 0) {
    std::vector<std::optional<T>> reads(ops.size());
    std::vector<std::pair<T, std::uint32_t>> setters;  // (value set, op)
    for (std::size_t op = 0; op < ops.size(); ++op) {
      const Operation<C, R>& o = all[ops[op]];
      // Only a completed call has to be placed, so only it needs a value.
      if (o.response) reads[op] = spec.reads_sequence(o.command, o.response);
      if (reads[op]) values_.push_back(*reads[op]);
      if (std::optional<T> w = spec.sets_sequence(o.command, o.response)) {
        setters.emplace_back(std::move(*w), static_cast<std::uint32_t>(op));
        changes_[op] = 1;
      } else if (spec.extends_sequence(o.command, o.response)) {
        changes_[op] = 1;
      }
    }
    std::sort(values_.begin(), values_.end());
    values_.erase(std::unique(values_.begin(), values_.end()), values_.end());
    readers_left_.assign(values_.size(), 0);
    for (std::size_t op = 0; op < ops.size(); ++op) {
      if (!reads[op]) continue;
      reads_[op] = find(*reads[op]);
      ++readers_left_[reads_[op]];
    }
    link_setters(std::move(setters));
  }

  /// Never judges the value `op` reads (see PartSearch::spare_value_of).
  void spare(std::uint32_t op) { spared_ = reads_[op]; }

  void place(std::uint32_t op) {
    if (reads_[op] != kNone) --readers_left_[reads_[op]];
    if (sets_[op] != kNone) {
      for (std::uint32_t k = first_support_[sets_[op]]; k < first_support_[sets_[op] + 1]; ++k) {
        --support_left_[supported_[k]];
      }
    }
  }
  void unplace(std::uint32_t op) {
    if (reads_[op] != kNone) ++readers_left_[reads_[op]];
    if (sets_[op] != kNone) {
      for (std::uint32_t k = first_support_[sets_[op]]; k < first_support_[sets_[op] + 1]; ++k) {
        ++support_left_[supported_[k]];
      }
    }
  }

  /// After `op` (already counted as placed) left the model `after`: is
  /// some reader still to place left with a value it can never see?
  [[nodiscard]] bool dooms(const M& after, std::uint32_t op) const {
    if (changes_[op] == 0) return false;
    const T s = spec_.sequence_of(after);
    for (std::uint32_t v = 0; v < values_.size(); ++v) {
      if (readers_left_[v] == 0 || support_left_[v] > 0 || v == spared_) continue;
      if (!is_prefix(s, values_[v])) return true;
    }
    return false;
  }

  /// True when `op` reads a value other than the model's, so by the
  /// spec's contract its postcondition fails (the search then skips it).
  [[nodiscard]] bool cannot_fit(const M& model, std::uint32_t op) const {
    return reads_[op] != kNone && !(spec_.sequence_of(model) == values_[reads_[op]]);
  }

 private:
  static bool is_prefix(const T& s, const T& v) {
    const auto n = std::ranges::size(s);
    return n <= std::ranges::size(v) &&
           std::equal(std::ranges::begin(s), std::ranges::end(s), std::ranges::begin(v));
  }

  std::uint32_t find(const T& v) const {
    auto it = std::lower_bound(values_.begin(), values_.end(), v);
    return it == values_.end() || !(*it == v) ? kNone
                                              : static_cast<std::uint32_t>(it - values_.begin());
  }

  // Which read values each setter sets a prefix of. Setters sorted by the
  // value they set; for each read value v and each length L a setter has,
  // the setters of exactly v's first L elements are one equal range.
  void link_setters(std::vector<std::pair<T, std::uint32_t>> setters) {
    support_left_.assign(values_.size(), 0);
    std::sort(setters.begin(), setters.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::size_t> lengths;
    lengths.reserve(setters.size());
    for (const auto& s : setters) lengths.push_back(std::ranges::size(s.first));
    std::sort(lengths.begin(), lengths.end());
    lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
    std::vector<std::vector<std::uint32_t>> supports(setters.size());  // per setter: values
    std::vector<std::uint32_t> found;
    for (std::uint32_t v = 0; v < values_.size(); ++v) {
      const T& value = values_[v];
      const auto begin = std::ranges::begin(value);
      found.clear();
      for (const std::size_t length : lengths) {
        if (length > std::ranges::size(value)) break;
        const auto end = begin + static_cast<std::ptrdiff_t>(length);
        // Setters ordered against v's first `length` elements.
        auto before = [&](const std::pair<T, std::uint32_t>& s, int) {
          return std::lexicographical_compare(std::ranges::begin(s.first),
                                              std::ranges::end(s.first), begin, end);
        };
        auto after = [&](int, const std::pair<T, std::uint32_t>& s) {
          return std::lexicographical_compare(begin, end, std::ranges::begin(s.first),
                                              std::ranges::end(s.first));
        };
        auto lo = std::lower_bound(setters.begin(), setters.end(), 0, before);
        auto hi = std::upper_bound(lo, setters.end(), 0, after);
        for (auto it = lo; it != hi && found.size() <= kMaxSupport; ++it) {
          found.push_back(static_cast<std::uint32_t>(it - setters.begin()));
        }
      }
      if (found.size() > kMaxSupport) {
        support_left_[v] = 1;  // never judged: no setter ever takes it back
        continue;
      }
      for (const std::uint32_t s : found) supports[s].push_back(v);
      support_left_[v] = static_cast<std::uint32_t>(found.size());
    }
    first_support_.assign(setters.size() + 1, 0);
    for (std::size_t s = 0; s < setters.size(); ++s) {
      sets_[setters[s].second] = static_cast<std::uint32_t>(s);
      first_support_[s] = static_cast<std::uint32_t>(supported_.size());
      supported_.insert(supported_.end(), supports[s].begin(), supports[s].end());
    }
    first_support_[setters.size()] = static_cast<std::uint32_t>(supported_.size());
  }

  const S& spec_;
  std::vector<T> values_;                     // distinct read values, sorted; an id is an index
  std::vector<std::uint32_t> reads_;          // per op: the value id it reads, or kNone
  std::vector<std::uint32_t> sets_;           // per op: its setter index, or kNone
  std::vector<std::uint8_t> changes_;         // per op: it sets or extends
  std::vector<std::uint32_t> readers_left_;   // per value: completed readers not placed
  std::vector<std::uint32_t> support_left_;   // per value: setters of a prefix not placed
  std::vector<std::uint32_t> first_support_;  // per setter: its range in supported_
  std::vector<std::uint32_t> supported_;      // the values each setter sets a prefix of
  std::uint32_t spared_ = kNone;
};

}  // namespace merilo::linearize::detail

#endif  // MERILO_LINEARIZE_DETAIL_SEQUENCE_TRACKER_HPP
