// merilo/linearize/detail/value_tracker.hpp — which declared value each call needs and
// writes, and whether a placement loses a value a completed call still needs.
#ifndef MERILO_LINEARIZE_DETAIL_VALUE_TRACKER_HPP
#define MERILO_LINEARIZE_DETAIL_VALUE_TRACKER_HPP

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <merilo/linearize/history.hpp>

namespace merilo::linearize::detail {

/// Does the spec say which value of the model each call reads and writes?
/// (value_of / reads_value / writes_value; see the top of history.hpp.)
template <class S, class M, class C, class R>
concept DeclaresValues = requires(const S& spec, const M& model, const C& cmd,
                                  const std::optional<R>& response) {
  requires std::totally_ordered<std::remove_cvref_t<decltype(spec.value_of(model))>>;
  requires std::copyable<std::remove_cvref_t<decltype(spec.value_of(model))>>;
  {
    spec.reads_value(cmd, response)
    } -> std::convertible_to<std::optional<std::remove_cvref_t<decltype(spec.value_of(model))>>>;
  {
    spec.writes_value(cmd, response)
    } -> std::convertible_to<std::optional<std::remove_cvref_t<decltype(spec.value_of(model))>>>;
};

/// Without declared values there is nothing to track: no call is ever
/// found doomed.
template <class S, class M, class C, class R, bool = DeclaresValues<S, M, C, R>>
class ValueTracker {
 public:
  ValueTracker(const S&, std::span<const Operation<C, R>>, const std::vector<std::size_t>&) {}
  void place(std::uint32_t) {}
  void spare(std::uint32_t) {}
  void unplace(std::uint32_t) {}
  [[nodiscard]] bool dooms(const M&, const M&, std::uint32_t) const { return false; }
  [[nodiscard]] bool cannot_fit(const M&, std::uint32_t) { return false; }
  static constexpr std::uint32_t kNone = 0xffffffffU;
};

/// Counts, per declared value, the unplaced completed calls that need it
/// and the unplaced calls that may still write it. A state whose model
/// holds b is dead when some value x != b is *lost*: a completed call still
/// needs x and no unplaced call can write it, so the model never holds x
/// again and that call can never be placed. The search keeps "no value but
/// the current one is lost" true on its path; a placement breaks it only by
/// moving the model off a lost value or by using up the last writer of a
/// value it did not leave behind, which is all `dooms` checks.
template <class S, class M, class C, class R>
class ValueTracker<S, M, C, R, true> {
 public:
  using T =
      std::remove_cvref_t<decltype(std::declval<const S&>().value_of(std::declval<const M&>()))>;
  static constexpr std::uint32_t kNone = 0xffffffffU;

  ValueTracker(const S& spec, std::span<const Operation<C, R>> all,
               const std::vector<std::size_t>& ops)
      : spec_(spec), needs_(ops.size(), kNone), writes_(ops.size(), kNone) {
    // Values get dense ids by sorting (cheaper than a map per history).
    std::vector<std::optional<T>> needs(ops.size());
    std::vector<std::optional<T>> writes(ops.size());
    for (std::size_t op = 0; op < ops.size(); ++op) {
      const Operation<C, R>& o = all[ops[op]];
      // Only a completed call has to be placed, so only it needs a value.
      if (o.response) needs[op] = spec.reads_value(o.command, o.response);
      writes[op] = spec.writes_value(o.command, o.response);
      if (needs[op]) values_.push_back(*needs[op]);
      if (writes[op]) values_.push_back(*writes[op]);
    }
    std::sort(values_.begin(), values_.end());
    values_.erase(std::unique(values_.begin(), values_.end()), values_.end());
    needers_left_.assign(values_.size(), 0);
    writers_left_.assign(values_.size(), 0);
    for (std::size_t op = 0; op < ops.size(); ++op) {
      if (needs[op]) {
        needs_[op] = find(*needs[op]);
        ++needers_left_[needs_[op]];
      }
      if (writes[op]) {
        writes_[op] = find(*writes[op]);
        ++writers_left_[writes_[op]];
      }
    }
  }
  /// Never calls the value `op` needs lost (see PartSearch::spare_value_of).
  void spare(std::uint32_t op) { spared_ = needs_[op]; }
  void place(std::uint32_t op) {
    if (needs_[op] != kNone) --needers_left_[needs_[op]];
    if (writes_[op] != kNone) --writers_left_[writes_[op]];
  }
  void unplace(std::uint32_t op) {
    if (needs_[op] != kNone) ++needers_left_[needs_[op]];
    if (writes_[op] != kNone) ++writers_left_[writes_[op]];
  }
  /// After `op` (already counted as placed) moved the model from `before`
  /// to `after`: did it lose a value other than the new one?
  [[nodiscard]] bool dooms(const M& before, const M& after, std::uint32_t op) const {
    if (needers_left_.empty()) return false;
    const std::uint32_t b = find(spec_.value_of(after));
    if (writes_[op] != kNone && writes_[op] != b && lost(writes_[op])) return true;
    const std::uint32_t a = find(spec_.value_of(before));
    return a != b && a != kNone && lost(a);
  }
  /// True when `op` needs a value other than the model's, so by the spec's
  /// contract its postcondition fails: the search skips evaluating it
  /// (a violation is often a formatted string; this is most of the cost).
  [[nodiscard]] bool cannot_fit(const M& model, std::uint32_t op) {
    if (needs_[op] == kNone) return false;
    T v = spec_.value_of(model);
    if (!last_value_ || !(v == *last_value_)) {
      last_id_ = find(v);
      last_value_ = std::move(v);
    }
    return last_id_ != needs_[op];
  }

 private:
  std::uint32_t find(const T& v) const {
    auto it = std::lower_bound(values_.begin(), values_.end(), v);
    return it == values_.end() || !(*it == v) ? kNone
                                              : static_cast<std::uint32_t>(it - values_.begin());
  }
  bool lost(std::uint32_t v) const {
    return v != spared_ && needers_left_[v] > 0 && writers_left_[v] == 0;
  }

  const S& spec_;
  std::vector<T> values_;              // sorted; a value's id is its index
  std::vector<std::uint32_t> needs_;   // per op: the value it needs, or kNone
  std::vector<std::uint32_t> writes_;  // per op: the value it may write, or kNone
  std::optional<T> last_value_;        // cannot_fit's memo of the last value looked up
  std::uint32_t last_id_ = kNone;
  std::uint32_t spared_ = kNone;  // a value never counted as lost
  std::vector<std::uint32_t> needers_left_;
  std::vector<std::uint32_t> writers_left_;
};

}  // namespace merilo::linearize::detail

#endif  // MERILO_LINEARIZE_DETAIL_VALUE_TRACKER_HPP
