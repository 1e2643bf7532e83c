// merilo/explore/explore.hpp — exhaustive breadth-first search of a system.
//
// `explore(sys, options)` visits every world `sys` can reach from `reset()`,
// level by level, and stops at the first broken rule. Because the search is
// breadth-first, the trace it reports is a shortest one. It reports:
//
//   * invariant violations (a predicate of `invariants()` did not hold),
//   * deadlocks (no kind enabled and `settled()` false),
//   * apply errors and undeclared mode changes (`apply()` failed),
//   * nondeterminism (the same kinds from `reset()` reached another world),
//   * crashes (an exception escaped one of the adapter's operations).
//
// `ExploreOptions::max_states` is the one bound and has no default. Each search
// logs one summary line, ending with its time, rate and peak memory, e.g.
//
// clang-format off
//   merilo: complete=true states=38 depth=6 invariants=1 [no one passes without paying] (0.00s, 52000 states/s, 1700.2 B/state)
// clang-format on
//
// and a search that runs over a second logs a progress line every second
// (in place on a terminal, plain lines otherwise):
//
//   merilo: 12s states=1255810 depth=14 frontier=132608/228712 states/s=107729 memory=69.8 MB
//
// complete=true means every reachable world was checked; otherwise every
// world within `depth` steps of the initial one was.
//
// Example:
//
//   merilo::explore::ExploreOptions options{.max_states = 10'000, .require_complete = true};
//   merilo::explore::ExploreResult result = merilo::explore::explore(sys, options);
//   if (result.violation.found()) {
//     std::puts(merilo::explore::format(sys, result.violation.trace).c_str());  // replay.hpp
//   }
//
// How worlds are reached: in `Mode::replay` the explorer resets the system
// and applies the path to each world (always available, O(depth) per world,
// and every replay doubles as a determinism check). In `Mode::restore`,
// available when the system is `Restorable`, it keeps the frontier's worlds
// and puts the system straight into them (O(1) per world), replaying a
// sample of paths from `reset()` to keep checking determinism.
// `Mode::automatic` picks restore when it can.
//
// Adapters may also give `tuple_key()` (the tuple as an integer, so the
// tuple string is built once per tuple, not once per world) and `show()`
// (the world's data, printed beside the tuple in traces); see system.hpp.
//
// Symmetry: a `Symmetric` system's `canonical(world)` lets the search store
// one world per group of worlds that differ only by renaming replicas; the
// traces it reports stay concrete paths from `reset()` (docs/explore.md,
// "Symmetry"). Reachability: a system's `sometimes()` names conditions some
// reachable world must satisfy; a complete search that never met one fails
// (`ExploreResult::unreached()`, sometimes.hpp).
//
// Hash compaction: with `compact_bits` (or `compact_bytes`) each world is
// stored as a k-bit value in a table of fixed size, and the result bounds
// the chance that a world was missed (`miss_probability`); counterexamples
// are re-checked by replay before they are reported (docs/explore.md, "Hash
// compaction").
//
// A frontier on disk: with `frontier_bytes` the queue of worlds waiting to
// be expanded is written to a file per level past that many bytes, and
// the parent links to a file of their own, so memory holds the visited set
// and a bounded part of the rest (docs/explore.md, "A frontier on disk").
//
// NOTE: the result — states, depth, tuples, the first violation and its
// trace — is the same for every `threads` value and in both modes.
// With `threads > 1` the system must be copy-constructible: each worker
// thread explores with its own copy.
#ifndef MERILO_EXPLORE_EXPLORE_HPP
#define MERILO_EXPLORE_EXPLORE_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <merilo/explore/system.hpp>
#include <merilo/explore/trace.hpp>
#include <merilo/explore/violation.hpp>
#include <merilo/fsm/world.hpp>

namespace merilo::explore {

/// How the explorer reaches a world it stored.
enum class Mode : std::uint8_t {
  automatic,  ///< `restore` when the system is `Restorable`, else `replay`.
  replay,     ///< Reset and apply the path: O(depth) per world.
  restore,    ///< `restore(world)`: O(1) per world. Needs `Restorable`.
};

/// The control-state graph of a search: one node per tuple, one edge per
/// (tuple before, step description, tuple after) seen. Render it with
/// `to_dot()` and Graphviz (`dot -Tsvg`).
struct TupleGraph {
  /// One step between tuples: from `from`, by `label`, to `to`.
  struct Edge {
    /// The tuple before the step.
    std::string from;
    std::string label;  ///< `describe(k)` in the world the step was taken from.
    /// The tuple after the step.
    std::string to;
    /// Edges sort by from, label, to.
    friend auto operator<=>(const Edge&, const Edge&) = default;
  };
  std::vector<std::string> nodes;  ///< Sorted.
  std::vector<Edge> edges;         ///< Sorted, no duplicates.

  /// Graphviz DOT text for the graph, named `name`.
  [[nodiscard]] std::string to_dot(std::string_view name = "merilo") const;
};

/// The most worker threads a search accepts (`ExploreOptions::threads`);
/// each holds its own copy of the system.
inline constexpr unsigned kMaxThreads = 256;
/// The most step kinds a system may have (`kinds()`): every world tries
/// every kind, and a trace stores a kind in at most two bytes per step.
inline constexpr std::size_t kMaxKinds = 65'536;

/// Bounds and knobs of one search.
struct ExploreOptions {
  /// The most worlds the search stores. Required: 0 (the default) is a usage
  /// error, so that every search states its own bound.
  std::size_t max_states = 0;
  /// Stopping at `max_states` is a failure of the search (`ok()` is false).
  bool require_complete = false;
  /// How worlds are reached; see the header overview.
  Mode mode = Mode::automatic;
  /// Worker threads expanding each level, in [1, kMaxThreads]; 1 explores
  /// on the calling thread.
  unsigned threads = 1;
  /// In restore mode, the first 1024 worlds and then every
  /// `determinism_sample`-th one are also reached by replay from `reset()`
  /// and compared. 1 replays every world; 0 never replays.
  std::size_t determinism_sample = 64;
  /// No summary line and no progress.
  bool quiet = false;
  /// Where the summary and progress lines go; nullptr means stderr.
  std::FILE* log = nullptr;
  /// A label for the summary line (`merilo: <name>: complete=...`), e.g. to
  /// tell a fixed variant from a seeded bug; empty leaves it out.
  std::string_view name = {};
  /// Also keep a shortest trace to each sometimes property reached
  /// (`SometimesReport::trace`).
  bool sometimes_traces = false;
  /// Hash compaction: store each world as a compact fingerprint of this many
  /// bits (1..64) instead of its 128-bit fingerprint, in a table of fixed
  /// size; worlds whose compact fingerprints meet count as one, so a world
  /// may be missed (`ExploreResult::miss_probability` bounds the chance).
  /// 0 with `compact_bytes` 0 is the exact mode; 0 with `compact_bytes` set
  /// derives the bits from the budget.
  unsigned compact_bits = 0;
  /// Hash compaction: bytes for the compact table. With `compact_bits` the
  /// table has as many slots as fit and the search stops when it is full;
  /// alone, the table gets slots for `max_states` worlds (at a load under
  /// 90%) and as many bits per slot as the budget allows, up to 64. 0 with
  /// `compact_bits` set sizes the table for `max_states`.
  std::size_t compact_bytes = 0;
  /// A frontier that spills to disk: the most bytes of the queue (the next
  /// level's worlds) kept in memory. Past it the level is written to a file
  /// of its own in `spill_dir` and read back slice by slice, in order, when
  /// it is expanded; the parent links go to a file too, in blocks of about
  /// this size. Memory then holds the visited set, two buffers of this size
  /// (the level being written and the one being read), one slice (65,536
  /// worlds) of the level being expanded and one block of links. The result
  /// is the same as in memory. 0 (the default) keeps it all in memory.
  /// Needs a trivially copyable world in restore mode (`Mode::automatic`
  /// picks replay otherwise).
  std::size_t frontier_bytes = 0;
  /// Where spill files go; empty means the system's temporary directory
  /// (`TMPDIR`, else /tmp). The files are unlinked as soon as they are
  /// created, so none is left behind however the search ends. Only with
  /// `frontier_bytes`.
  std::string spill_dir = {};
  /// When set, the search also fills this graph. It costs a `tuple()` and a
  /// `describe()` call per step taken, so leave it off for big searches.
  TupleGraph* graph = nullptr;
};

/// What a search found of one sometimes property (sometimes.hpp).
struct SometimesReport {
  /// The property's name, as `sometimes()` lists it.
  std::string name;
  /// Some stored world satisfied it.
  bool reached = false;
  /// When reached: the fewest steps from the initial world to a world that
  /// satisfies it.
  std::size_t depth = 0;
  /// When reached and `ExploreOptions::sometimes_traces` was set: a
  /// shortest trace from `reset()` to such a world.
  Trace trace;
};

/// What a search reached.
struct ExploreResult {
  /// A usage error ("max_states is required", re-entry, a bad invariant
  /// list, an unusable `spill_dir`, ...), or a spill file that could not
  /// be written or read (a full disk). When set, every other field is
  /// empty.
  std::string error;
  /// Every reachable world was checked.
  bool complete = false;
  /// Worlds stored.
  std::size_t states = 0;
  /// Every world within this many steps of the initial one was checked.
  std::size_t depth = 0;
  /// Steps applied, replays included.
  std::uint64_t steps = 0;
  /// Control-state tuples reached, sorted.
  std::vector<std::string> tuples;
  /// `tuple_traces[i]` is a shortest trace to a world whose tuple is
  /// `tuples[i]`.
  std::vector<Trace> tuple_traces;
  /// The invariant names the system declared.
  std::vector<std::string> invariants;
  /// The first violation, if any.
  Violation violation;
  /// The system's sometimes properties, in the order it lists them.
  std::vector<SometimesReport> sometimes;
  /// Worlds were stored by their `canonical()` form (the system is
  /// `Symmetric`): `states` counts groups of symmetric worlds.
  bool symmetry = false;
  /// Hash compaction: the bits of each compact fingerprint; 0 in the exact
  /// mode.
  unsigned compact_bits = 0;
  /// Hash compaction: the slots of the compact table.
  std::size_t compact_slots = 0;
  /// Hash compaction: the search stopped because the compact table was full
  /// (`complete` is false).
  bool compact_full = false;
  /// Hash compaction: an upper bound on the probability that some world
  /// reachable within `depth` was never explored because its compact
  /// fingerprint met a stored one on its probe sequence
  /// (docs/design/hash-compaction.md). 0 in the exact mode.
  double miss_probability = 0;
  /// Hash compaction: the search found a counterexample that did not break
  /// the same rule when followed again from reset, so it was not reported
  /// (and the search counts as incomplete). Never expected; a guard.
  bool unconfirmed_counterexample = false;
  /// Peak bytes of the search's own data: the visited set, the parent
  /// links, the current and next frontier (with their worlds in restore
  /// mode) and one slice's candidates. Not the system, its copies, the
  /// tuples or the graph.
  std::size_t memory_bytes = 0;
  /// With `frontier_bytes`: the peak bytes on disk (the parent links' file
  /// and the files of the level being expanded and the next one); 0 when
  /// nothing spilled.
  std::uint64_t spilled_bytes = 0;
  /// Wall time of the search.
  double seconds = 0;
  /// Whether the caller asked for a complete search.
  bool require_complete = false;
  /// `ExploreOptions::name`.
  std::string name;

  /// The sometimes properties a complete search never reached; empty when
  /// the search was not complete (a deeper world might still reach them).
  [[nodiscard]] std::vector<std::string> unreached() const {
    std::vector<std::string> names;
    if (!complete) return names;
    for (const SometimesReport& p : sometimes) {
      if (!p.reached) names.push_back(p.name);
    }
    return names;
  }
  /// No usage error, no violation, complete if completeness was required,
  /// and no sometimes property left unreached by a complete search.
  [[nodiscard]] bool ok() const noexcept {
    if (!error.empty() || violation.found() || (!complete && require_complete)) return false;
    for (const SometimesReport& p : sometimes) {
      if (complete && !p.reached) return false;
    }
    return true;
  }
  /// The one summary line, e.g.
  /// `merilo: complete=true states=38 depth=6 invariants=1 [no free pass]`,
  /// then `symmetry=canonical` for a symmetric search, each sometimes
  /// property with the depth it was reached at (`sometimes=[paid: depth 2,
  /// refund: never]`, or `not reached within the bound` when the search was
  /// not complete), and `unreached=[refund]` when a complete search missed
  /// one, and with hash compaction `compaction=<k>bit slots=<m>
  /// miss<=<bound>` (and `table=full` when it filled):
  /// the logged line without its time, rate and memory, so it is the same
  /// on every run.
  [[nodiscard]] std::string summary() const;
};

/// Explores `sys` breadth-first within `options`. Never throws: usage errors
/// land in `ExploreResult::error`, broken rules in `ExploreResult::violation`. A world
/// that is not an `fsm::World`, or an `invariants()` that does not list
/// `Invariant<S>` values, is a compile error that says so.
template <System S>
[[nodiscard]] ExploreResult explore(S& sys, const ExploreOptions& options);

}  // namespace merilo::explore

#include <merilo/explore/detail/explorer_inl.hpp>

#endif  // MERILO_EXPLORE_EXPLORE_HPP
