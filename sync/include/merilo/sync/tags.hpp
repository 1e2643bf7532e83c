// merilo/sync/tags.hpp — the verdict tags of the scheduling runtime: what
// a controlled run reports of its own, whichever entry point ran it
// (`parallel::check`'s branches or `sync::model`'s threads).
#ifndef MERILO_SYNC_TAGS_HPP
#define MERILO_SYNC_TAGS_HPP

#include <string_view>  // the tags

namespace merilo::sync {

/// A thread unlocked a `sync` mutex that another thread holds.
inline constexpr std::string_view kUnlockNotOwnedTag = "sync.unlock_not_owned";
/// A thread unlocked a `sync` mutex that no thread holds (a second unlock).
inline constexpr std::string_view kDoubleUnlockTag = "sync.double_unlock";
/// A thread waited on a `sync` condition_variable without holding the lock
/// it passed.
inline constexpr std::string_view kWaitWithoutLockTag = "sync.wait_without_lock";
/// A `sync` mutex was destroyed while a thread held it.
inline constexpr std::string_view kDestroyedLockedTag = "sync.destroyed_locked";

/// A `sync::model` body or thread failed a `MERILO_SYNC_ASSERT`.
inline constexpr std::string_view kAssertionTag = "sync.assertion";
/// An exception escaped a `sync::model` body or one of its threads.
inline constexpr std::string_view kExceptionTag = "sync.exception";
/// Every unfinished thread of a controlled run was blocked.
inline constexpr std::string_view kDeadlockTag = "sync.deadlock";
/// A controlled run reached its step budget without every thread finishing.
inline constexpr std::string_view kLivelockTag = "sync.livelock";
/// The same schedule made the program take other steps: it depends on
/// something merilo does not control.
inline constexpr std::string_view kNondeterministicTag = "sync.nondeterministic";
/// A `sync::model` run started more threads than a controlled run can have.
inline constexpr std::string_view kTooManyThreadsTag = "sync.too_many_threads";
/// A `sync::thread` was destroyed while still joinable (std::terminate
/// would end a plain program there).
inline constexpr std::string_view kNotJoinedTag = "sync.not_joined";

}  // namespace merilo::sync

#endif  // MERILO_SYNC_TAGS_HPP
