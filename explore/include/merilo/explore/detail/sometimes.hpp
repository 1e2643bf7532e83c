// merilo/explore/detail/sometimes.hpp — a search's sometimes properties:
// the list read from the system, and which state first reached each.
//
// A search engine (the in-process explorer, or one spread over machines)
// uses the two parts the same way: `SometimesList::satisfied` on every new
// world, with the properties still open, while expanding; then
// `SometimesFirst::note` in the order it numbers states, so the first state
// noted for a property is the shallowest one and the same on every run.
#ifndef MERILO_EXPLORE_DETAIL_SOMETIMES_HPP
#define MERILO_EXPLORE_DETAIL_SOMETIMES_HPP

#include <bit>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <ranges>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <merilo/core/crash.hpp>
#include <merilo/explore/sometimes.hpp>
#include <merilo/explore/system.hpp>

namespace merilo::explore::detail {

/// The usage error for a sometimes list — an empty name, a name listed twice,
/// a null predicate, more than `kMaxSometimes` — or "" when it is fine.
/// `null[i]` says whether the predicate of `names[i]` is null.
[[nodiscard]] std::string sometimes_list_error(const std::vector<std::string>& names,
                                               const std::vector<bool>& null);

/// The class the sometimes predicates of `S` read: `S` or a base of it
/// (`S` itself when it lists none).
template <class S, bool = HasSometimes<S>>
struct sometimes_reader {
  using type = S;
};
template <class S>
struct sometimes_reader<S, true> {
  using type = typename sometimes_subject<std::remove_cvref_t<
      std::ranges::range_reference_t<decltype(std::declval<const S&>().sometimes())>>>::type;
};

/// The system's sometimes properties, read once (none when it has no
/// `sometimes()`). Shared read-only by every worker.
template <System S>
class SometimesList {
  using Subject = typename sometimes_reader<S>::type;

 public:
  /// Reads `sys.sometimes()`; a bad list, or an exception from it, is kept
  /// in `error()`.
  explicit SometimesList(const S& sys) {
    if constexpr (HasSometimes<S>) {
      try {
        std::vector<bool> null;
        for (auto&& item : sys.sometimes()) {
          const Sometimes<Subject> p = item;
          names_.emplace_back(p.name);
          null.push_back(p.holds == nullptr);
          holds_.push_back(p.holds);
        }
        error_ = sometimes_list_error(names_, null);
      } catch (...) {
        error_ = "merilo: " + core::crash_detail("sometimes()", std::current_exception());
      }
    } else {
      (void)sys;
    }
  }

  /// A usage error in the list, or "".
  [[nodiscard]] const std::string& error() const noexcept { return error_; }
  /// The properties' names, in the order `sometimes()` lists them.
  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  /// Every property, as a bit set (bit i is `names()[i]`).
  [[nodiscard]] std::uint64_t all() const noexcept {
    return names_.size() >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << names_.size()) - 1;
  }

  /// The properties of `open` that the world `sys` is in satisfies. An
  /// exception from a predicate propagates (the caller reports a crash).
  [[nodiscard]] std::uint64_t satisfied(const S& sys, std::uint64_t open) const {
    std::uint64_t out = 0;
    for (std::uint64_t rest = open; rest != 0; rest &= rest - 1) {
      const auto i = static_cast<std::size_t>(std::countr_zero(rest));
      if (holds_[i](sys)) out |= std::uint64_t{1} << i;
    }
    return out;
  }

 private:
  std::vector<std::string> names_;
  std::vector<typename Sometimes<Subject>::Predicate> holds_;
  std::string error_;
};

/// The first state (in numbering order) that satisfied each property.
class SometimesFirst {
 public:
  /// Tracks `count` properties.
  explicit SometimesFirst(std::size_t count) : first_(count) {}

  /// The properties no state has satisfied yet, as a bit set.
  [[nodiscard]] std::uint64_t open() const noexcept { return open_; }
  /// Starts with every one of `all` open.
  void open_all(std::uint64_t all) noexcept { open_ = all; }
  /// State `id`, at `depth` steps from the initial world, satisfies the
  /// properties of `mask`; the open ones among them are closed on it.
  void note(std::uint64_t mask, std::uint32_t id, std::size_t depth) {
    for (std::uint64_t hit = mask & open_; hit != 0; hit &= hit - 1) {
      first_[static_cast<std::size_t>(std::countr_zero(hit))] = First{true, id, depth};
    }
    open_ &= ~mask;
  }

  /// Where property `i` was first satisfied.
  struct First {
    bool reached = false;
    std::uint32_t id = 0;
    std::size_t depth = 0;
  };
  /// Property `i`'s first state.
  [[nodiscard]] const First& first(std::size_t i) const { return first_[i]; }

 private:
  std::vector<First> first_;
  std::uint64_t open_ = 0;
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_SOMETIMES_HPP
