// set.hpp — a set of small integers shared by several threads, and an
// insert that checks membership and appends in two lock sections.
//
// `Set<Bug::none>` checks and appends under one critical section, so a
// value is held at most once. `Set<Bug::double_insert>` checks under its
// mutex, lets go, and appends under it again: two inserts of one value that
// both check before either appends both answer "inserted", and the value is
// held twice. No pause widens the window: the mutex is a
// merilo::sync::mutex, so under the parallel tester every lock and unlock
// is a scheduling point and the window is met by search.
//
// Example:
//
//   set::Set<> s;
//   s.insert(2);     // true
//   s.insert(2);     // false: already there
//   s.contains(2);   // true
//   s.size();        // 1
#ifndef MERILO_EXAMPLES_SET_SET_HPP
#define MERILO_EXAMPLES_SET_SET_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>  // std::lock_guard
#include <vector>

#include <merilo/sync/sync.hpp>

namespace set {

/// Seeded bugs, switched at compile time.
enum class Bug : std::uint8_t { none, double_insert };

/// A set of integers shared by several threads, kept as an unsorted vector.
template <Bug bug = Bug::none>
class Set {
 public:
  /// Adds `value` unless it is there; returns whether it added it.
  bool insert(std::int32_t value) {
    if constexpr (bug == Bug::double_insert) {
      {
        std::lock_guard lock(mu_);
        if (holds(value)) return false;
      }
      std::lock_guard lock(mu_);  // another insert of `value` may have come in between
      items_.push_back(value);
      return true;
    } else {
      std::lock_guard lock(mu_);
      if (holds(value)) return false;
      items_.push_back(value);
      return true;
    }
  }

  /// Whether `value` is in the set.
  [[nodiscard]] bool contains(std::int32_t value) const {
    std::lock_guard lock(mu_);
    return holds(value);
  }

  /// How many values the set holds (a value held twice counts twice).
  [[nodiscard]] std::size_t size() const {
    std::lock_guard lock(mu_);
    return items_.size();
  }

 private:
  [[nodiscard]] bool holds(std::int32_t value) const {
    return std::find(items_.begin(), items_.end(), value) != items_.end();
  }

  mutable merilo::sync::mutex mu_;
  std::vector<std::int32_t> items_;
};

}  // namespace set

#endif  // MERILO_EXAMPLES_SET_SET_HPP
