// merilo/core/reentry.hpp — refusing re-entry from a user callback.
//
// Every merilo entry point (explore, replay, fuzz::run, statem::check,
// parallel::check, ...) calls user code: an adapter's `apply`, a spec's
// `execute`. If that code calls a merilo entry point again, the inner call
// would share the outer one's system and corrupt it. So each entry point
// first asks `inside_merilo()` and, when it is true, returns
// `kReentryError` as a usage error instead of running; otherwise it holds an
// `EntryGuard` for as long as it runs.
//
// Example:
//
//   if (merilo::core::inside_merilo()) return Result{.error = merilo::core::kReentryError};
//   merilo::core::EntryGuard guard;
//   ... call user code ...
//
// NOTE: the flag is per thread. Worker threads that an entry point starts
// hold their own `EntryGuard`.
#ifndef MERILO_CORE_REENTRY_HPP
#define MERILO_CORE_REENTRY_HPP

namespace merilo::core {

/// Whether this thread is inside a merilo entry point (and so possibly inside
/// one of the user's callbacks).
[[nodiscard]] bool inside_merilo() noexcept;

/// Marks this thread as inside merilo for the guard's lifetime.
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
    "merilo: refused re-entry: a merilo entry point was called from inside a "
    "user callback (an adapter's reset/apply/check, a spec's execute, ...); "
    "call it from the test instead";

}  // namespace merilo::core

#endif  // MERILO_CORE_REENTRY_HPP
