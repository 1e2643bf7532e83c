// merilo/explore/detail/chunk.hpp — what expanding one chunk of the frontier
// produces (candidates, their rare extras, problems and failures), and the
// tuple bookkeeping the expansion and the merge share.
//
// NOTE: included by explorer_inl.hpp only, after explore.hpp has declared
// the options and result types it uses.
#ifndef MERILO_EXPLORE_DETAIL_CHUNK_HPP
#define MERILO_EXPLORE_DETAIL_CHUNK_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <merilo/explore/detail/fingerprint.hpp>
#include <merilo/explore/violation.hpp>

namespace merilo::explore::detail {

/// Frontier worlds expanded per work unit. Fixed, so that the chunks — and
/// therefore the result — do not depend on the thread count.
inline constexpr std::size_t kChunk = 64;

/// In restore mode the first worlds are all replayed from reset, so a small
/// system gets a full determinism check; after them, one in
/// `ExploreOptions::determinism_sample`. The same worlds check `tuple_key()`.
inline constexpr std::uint32_t kAlwaysReplayed = 1024;

/// The first (and so shortest) state id reached for each tuple.
using TupleIds = std::unordered_map<std::string, std::uint32_t>;

/// Hashes a fingerprint for an unordered map (it is a hash already).
struct FingerprintHash {
  std::size_t operator()(const Fingerprint& fp) const noexcept {
    return static_cast<std::size_t>(fp.lo ^ fp.hi);
  }
};
/// The tuples of the successors of sampled worlds (`tuple_sampled`), by
/// fingerprint: a world reached again along another path must show the
/// same tuple.
using SampledTuples = std::unordered_map<Fingerprint, std::string, FingerprintHash>;

/// The tuple of a successor of a sampled frontier world (`parent` is its
/// position in the frontier, `kind` the step taken).
struct SampledTuple {
  Fingerprint fp;
  std::uint32_t parent = 0;
  std::uint32_t kind = 0;
  std::string tuple;
};

/// Whether the successors of state `id` have their tuples kept in
/// `SampledTuples`: the first `kAlwaysReplayed` states, then one in 64, in
/// every mode (so the table stays small even when replay mode replays
/// every world).
[[nodiscard]] constexpr bool tuple_sampled(std::uint32_t id) noexcept {
  return id < kAlwaysReplayed || id % 64 == 0;
}

/// The violation detail of a tuple that differs for one world.
inline std::string tuple_mismatch(const std::string& before, const std::string& now,
                                  const char* how) {
  return "tuple() returned \"" + now + "\" for a world it showed as \"" + before + "\" " + how +
         " (same world, same fingerprint): tuple() must depend on world() only";
}
/// For systems with `tuple_key()`: the tuple of each key seen.
using TupleKeys = std::unordered_map<std::uint64_t, std::string>;

/// A problem of one frontier world itself: found while reaching or
/// expanding it, so its trace is the path to that world.
struct FrontierProblem {
  ViolationKind kind = ViolationKind::none;
  std::uint32_t index = 0;  // position in the frontier
  std::string detail;
};

/// A step from a frontier world that failed (apply error, mode change,
/// crash): the merge stops there, so only a chunk's first one matters.
struct StepFailure {
  std::size_t position = 0;  // candidates of the chunk before it
  std::uint32_t parent = 0;  // position in the frontier
  std::uint32_t kind = 0;
  ViolationKind problem = ViolationKind::none;
  std::string detail;
};

/// What only some candidates carry: a tuple the search has not stored yet,
/// or a broken invariant. Kept apart so the common candidate stays small.
struct CandidateExtra {
  std::string tuple;
  std::uint64_t key = 0;
  bool new_tuple = false;
  bool broke = false;
  std::string invariant;
  std::string detail;
  std::uint64_t reached = 0;  // the open sometimes properties it satisfies
};

inline constexpr std::uint32_t kNoExtra = 0xFFFFFFFF;
/// `Candidate::fresh` of a new world that a full compact table could not
/// store: the search stops there, as at `max_states`.
inline constexpr std::uint8_t kDidNotFit = 2;

/// A world one step beyond the frontier that this chunk had not seen:
/// 32 bytes. Its world, in restore mode, is in `ChunkResult::worlds`.
struct Candidate {
  Fingerprint fp;
  std::uint32_t parent = 0;  // position in the frontier
  std::uint32_t kind = 0;
  std::uint32_t extra = kNoExtra;  // index into ChunkResult::extras
  std::uint8_t fresh = 0;          // set by the merge: 1 first time stored, kDidNotFit
};

using Edges = std::set<TupleGraph::Edge>;

/// Cache-line aligned: neighbouring chunks are written by different
/// threads, and sharing a line between them costs more than the padding.
template <class W>
struct alignas(64) ChunkResult {
  std::vector<Candidate> candidates;
  std::vector<W> worlds;  // restore mode only: worlds[i] is candidates[i]'s
  std::vector<CandidateExtra> extras;
  Edges edges;                             // only when the caller asked for a graph
  std::optional<FrontierProblem> problem;  // the chunk's first frontier problem
  std::optional<StepFailure> failure;      // the chunk's first failed step
  std::string usage_error;                 // tuple_key() broke its contract
  std::vector<SampledTuple> sampled;       // successors of tuple_sampled worlds
  std::uint64_t steps = 0;

  CandidateExtra& extra_of(Candidate& c) {
    if (c.extra == kNoExtra) {
      c.extra = static_cast<std::uint32_t>(extras.size());
      extras.emplace_back();
    }
    return extras[c.extra];
  }
  /// Empties the result for the next slice, keeping the vectors' memory.
  void reset() noexcept {
    candidates.clear();
    worlds.clear();
    extras.clear();
    edges.clear();
    problem.reset();
    failure.reset();
    usage_error.clear();
    sampled.clear();
    steps = 0;
  }
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return candidates.capacity() * sizeof(Candidate) + worlds.capacity() * sizeof(W) +
           extras.capacity() * sizeof(CandidateExtra);
  }
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_CHUNK_HPP
