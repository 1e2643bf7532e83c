// reentry.cpp — the per-thread "inside merilo" flag behind re-entry refusal.
#include <merilo/core/reentry.hpp>

namespace merilo::core {

namespace {
thread_local bool inside = false;
}  // namespace

bool inside_merilo() noexcept { return inside; }

EntryGuard::EntryGuard() noexcept : was_inside_(inside) { inside = true; }

EntryGuard::~EntryGuard() { inside = was_inside_; }

}  // namespace merilo::core
