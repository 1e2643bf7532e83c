// merilo/explore/detail/guard.hpp — refuses re-entry from an adapter callback.
#ifndef MERILO_EXPLORE_DETAIL_GUARD_HPP
#define MERILO_EXPLORE_DETAIL_GUARD_HPP

namespace merilo::explore::detail {

/// Whether this thread is inside a merilo entry point (and so possibly inside
/// one of the adapter's callbacks).
[[nodiscard]] bool inside_merilo() noexcept;

/// Marks this thread as inside merilo for its lifetime. Entry points check
/// `inside_merilo()` first and return a usage error instead of recursing.
class EntryGuard {
 public:
  EntryGuard() noexcept;
  ~EntryGuard();
  EntryGuard(const EntryGuard&) = delete;
  EntryGuard& operator=(const EntryGuard&) = delete;

 private:
  bool was_inside_;
};

/// The usage error an entry point returns when called from a callback.
inline constexpr const char* kReentryError =
    "merilo: refused re-entry: a merilo entry point was called from inside an "
    "adapter callback (reset/apply/check/...); call it from the test instead";

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_GUARD_HPP
