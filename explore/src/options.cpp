// options.cpp — which explorer options can run: the usage errors for
// `ExploreOptions` that the search refuses before it starts.
#include <cstddef>
#include <string>

#include <fmt/format.h>

#include <merilo/explore/detail/compact_table.hpp>
#include <merilo/explore/detail/spill_file.hpp>
#include <merilo/explore/explore.hpp>

namespace merilo::explore::detail {

std::string check_kinds(std::size_t kinds) {
  if (kinds <= kMaxKinds) return {};
  return fmt::format(
      "merilo: the system's kinds() is {}, above the limit of {} step kinds (kMaxKinds)", kinds,
      kMaxKinds);
}

// The spill options: refused where the search keeps everything in memory
// (`spills` false: explore_mpi), and checked where it can spill.
std::string check_spill(const ExploreOptions& options, bool spills) {
  if (options.frontier_bytes == 0) {
    if (options.spill_dir.empty()) return {};
    return fmt::format(
        "merilo: ExploreOptions::spill_dir is '{}' but frontier_bytes is 0, so nothing would "
        "spill; set frontier_bytes (the most bytes of the queue kept in memory)",
        options.spill_dir);
  }
  if (!spills) {
    return "merilo: this search keeps its frontier in memory and refuses "
           "ExploreOptions::frontier_bytes and spill_dir";
  }
  return check_spill_directory(options.spill_dir);
}

std::string check_spilled_world(const ExploreOptions& options, bool trivially_copyable) {
  if (options.frontier_bytes == 0 || options.mode != Mode::restore || trivially_copyable) return {};
  return "merilo: ExploreOptions::frontier_bytes with Mode::restore writes the frontier's worlds "
         "to disk as bytes, but this system's world is not trivially copyable; use Mode::replay "
         "(or Mode::automatic, which picks it)";
}

std::string check_options(const ExploreOptions& options, bool restorable, bool copyable,
                          bool spills) {
  if (options.max_states == 0) {
    return "merilo: ExploreOptions::max_states is required (the most worlds the search may store); "
           "it has no default";
  }
  if (options.max_states > std::size_t{0xFFFFFFFE}) {
    return fmt::format("merilo: ExploreOptions::max_states is {}, above the limit of {} worlds",
                       options.max_states, std::size_t{0xFFFFFFFE});
  }
  if (options.mode == Mode::restore && !restorable) {
    return "merilo: ExploreOptions::mode is Mode::restore but the system has no restore(world) "
           "(see merilo::explore::Restorable)";
  }
  if (std::string e =
          compact_plan(options.compact_bits, options.compact_bytes, options.max_states).error;
      !e.empty()) {
    return e;
  }
  if (std::string e = check_spill(options, spills); !e.empty()) return e;
  if (options.threads == 0) return "merilo: ExploreOptions::threads must be at least 1";
  if (options.threads > kMaxThreads) {
    return fmt::format("merilo: ExploreOptions::threads is {}, above the limit of {} (kMaxThreads)",
                       options.threads, kMaxThreads);
  }
  if (options.threads > 1 && !copyable) {
    return fmt::format(
        "merilo: ExploreOptions::threads is {} but the system is not copy-constructible; "
        "each worker thread needs its own copy",
        options.threads);
  }
  return {};
}

}  // namespace merilo::explore::detail
