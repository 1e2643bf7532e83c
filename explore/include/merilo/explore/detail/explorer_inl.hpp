// merilo/explore/detail/explorer_inl.hpp — the breadth-first explorer's body.
//
// Level-synchronous search. Each level's frontier is cut into fixed-size
// chunks; workers expand chunks (reading the visited set, never writing it)
// into per-chunk candidate lists. The merge then runs in two passes: every
// thread walks all candidates in chunk order and inserts those of its own
// table shards (so the first occurrence of each world, in an order that does
// not depend on the thread count, is the one marked new); then one pass in
// the same order gives the new worlds their ids. Ids, traces and the first
// violation are therefore the same for any number of threads. (On one
// thread the worker inserts as it expands, in that same order, and the
// insert pass is skipped.)
//
// The parts, one job per header: chunk.hpp (what a chunk's expansion
// produces), expander.hpp (a worker's expansion), threads.hpp (running a job
// on every worker), search.hpp (levels, slices, the two-pass merge) and
// log.hpp (progress and summary lines); frontier.hpp, parent_links.hpp and
// spill_file.hpp keep the queue and the links, in memory or on disk.
#ifndef MERILO_EXPLORE_DETAIL_EXPLORER_INL_HPP
#define MERILO_EXPLORE_DETAIL_EXPLORER_INL_HPP

#include <exception>
#include <string>
#include <type_traits>

#include <merilo/core/reentry.hpp>
#include <merilo/explore/detail/search.hpp>

namespace merilo::explore {

template <System S>
ExploreResult explore(S& sys, const ExploreOptions& options) {
  detail::check_system<S>();
  ExploreResult refused;
  if (core::inside_merilo()) {
    refused.error = core::kReentryError;
    return refused;
  }
  core::EntryGuard guard;
  constexpr bool kPlainWorld = std::is_trivially_copyable_v<world_t<S>>;
  refused.error =
      detail::check_options(options, Restorable<S>, std::is_copy_constructible_v<S>, true);
  if (refused.error.empty()) refused.error = detail::check_spilled_world(options, kPlainWorld);
  if (!refused.error.empty()) return refused;
  bool restore = false;
  // A spilling frontier writes worlds as bytes: automatic picks replay for
  // a world that is not trivially copyable.
  if constexpr (Restorable<S>) {
    restore = options.mode != Mode::replay && (options.frontier_bytes == 0 || kPlainWorld);
  }
  try {
    refused.error = detail::check_kinds(static_cast<std::size_t>(sys.kinds()));
    if (!refused.error.empty()) return refused;
    detail::Search<S> search(sys, options, restore);
    if (!search.error().empty()) {
      refused.error = search.error();
      return refused;
    }
    return search.run();
  } catch (const detail::SpillError& e) {
    refused.error = e.what();
  } catch (const std::exception& e) {
    refused.error = std::string("merilo: internal error during the search: ") + e.what();
  } catch (...) {
    refused.error = "merilo: internal error during the search";
  }
  return refused;
}

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_DETAIL_EXPLORER_INL_HPP
