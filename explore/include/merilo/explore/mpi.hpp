// merilo/explore/mpi.hpp — the breadth-first explorer on Open MPI ranks, for
// state spaces bigger than one machine's memory.
//
// `explore_mpi(sys, options)` is `explore(sys, options)` spread over every
// rank of MPI_COMM_WORLD: rank r owns the worlds whose fingerprint falls in
// a visited-set shard s with s % ranks == r, so each rank stores about
// 1/ranks of the visited set, the parent links and the frontier. Each level,
// every rank expands the frontier worlds it owns and sends each successor
// (its world, its parent and the kind taken) to the successor's owner, one
// exchange per slice of 65,536 frontier worlds; the owner keeps the first
// occurrence and checks the invariants. The levels stay in lock step, and
// the new worlds are numbered exactly as the in-process explorer numbers
// them, so the result — states, depth, tuples, the first violation and its
// trace — is the one `explore()` gives, for every rank count
// (docs/design/explorer-mpi.md says how).
//
// Example (run with `mpirun -np 4 ./program`):
//
//   int main(int argc, char** argv) {
//     merilo::explore::MpiSession session(argc, argv);
//     MySystem sys;
//     const merilo::explore::MpiResult r =
//         merilo::explore::explore_mpi(sys, {.max_states = 1'000'000'000});
//     return r.search.ok() ? 0 : 1;
//   }
//
// Rank 0 alone prints the progress and the summary line, which adds to the
// in-process line the ranks, each rank's peak memory and the bytes sent
// per transition:
//
// clang-format off
//   merilo: complete=true states=296448 depth=22 invariants=1 [no RM commits while another aborts] (15.58s, 19027 states/s, ranks=4, peak RSS/rank 22.7 MB max 22.4 MB mean, 6.7 B/transition sent)
// clang-format on
//
// `mpi_main(sys, options)` is the driver an example program calls: the
// search, and on rank 0 the violation with its readable trace.
//
// NOTE: the system must be `Restorable` with a trivially copyable world
// (worlds travel between ranks as bytes), and every rank must build the
// same system. Only `ExploreOptions::threads == 1` (one thread per rank:
// run more ranks instead), no `graph`, no `Mode::replay`, no hash
// compaction. A `Symmetric` system is reduced as `explore()` reduces it
// (each world is expanded and checked by the in-process explorer's code),
// and sometimes properties are reported as the in-process explorer reports
// them (depth, and a trace with `sometimes_traces`). The tuple
// check along other paths (a world showing two tuples) is not made across
// ranks; the sampled replay from reset is (docs/design/explorer-mpi.md).
// Every call is collective: every rank calls `explore_mpi` with the same
// options, between MPI_Init and MPI_Finalize (an `MpiSession`).
#ifndef MERILO_EXPLORE_MPI_HPP
#define MERILO_EXPLORE_MPI_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/system.hpp>

namespace merilo::explore {

/// MPI for the life of this object: initializes MPI (MPI_THREAD_FUNNELED)
/// unless it already is, and finalizes it on destruction if it initialized
/// it. Make one at the top of `main`.
class MpiSession {
 public:
  /// Initializes MPI with the program's arguments (mpirun's are removed).
  MpiSession(int& argc, char**& argv);
  /// Finalizes MPI if this session initialized it.
  ~MpiSession();
  /// One session per process: not copyable.
  MpiSession(const MpiSession&) = delete;
  /// One session per process: not assignable.
  MpiSession& operator=(const MpiSession&) = delete;
  /// This process's rank.
  [[nodiscard]] unsigned rank() const;
  /// The number of ranks.
  [[nodiscard]] unsigned ranks() const;

 private:
  bool owns_ = false;
};

/// The most ranks a distributed search uses: one per visited-set shard.
inline constexpr unsigned kMaxRanks = 64;

/// What a distributed search reached, the same on every rank.
struct MpiResult {
  /// Exactly what `explore()` reports for the same system and options
  /// (`memory_bytes` sums every rank's search data).
  ExploreResult search;
  /// Ranks that took part.
  unsigned ranks = 0;
  /// Each rank's peak resident set size, in bytes, in rank order.
  std::vector<std::size_t> peak_rss;
  /// Bytes sent from one rank to another, summed over the ranks.
  std::uint64_t bytes_sent = 0;
  /// Steps taken from frontier worlds (the search's transitions).
  std::uint64_t transitions = 0;

  /// Bytes sent per transition (0 before any transition).
  [[nodiscard]] double bytes_per_transition() const noexcept;
  /// The logged summary line: `search.summary()`, then the time, rate,
  /// ranks, peak memory per rank and bytes per transition.
  [[nodiscard]] std::string summary() const;
};

/// Explores `sys` breadth-first on every rank of MPI_COMM_WORLD. Collective.
/// Never throws: usage errors (MPI not initialized, more than `kMaxRanks`
/// ranks, unsupported options) land in `search.error` on every rank.
template <System S>
[[nodiscard]] MpiResult explore_mpi(S& sys, const ExploreOptions& options);

/// The driver of an MPI example program: runs `explore_mpi`, and on rank 0
/// prints the violation, if any, with its trace (`format`) to stderr.
/// Returns 0 when the search is `ok()`, 1 on a violation or an incomplete
/// required search, 2 on a usage error.
template <System S>
int mpi_main(S& sys, const ExploreOptions& options);

}  // namespace merilo::explore

#include <merilo/explore/detail/mpi_search_inl.hpp>

#endif  // MERILO_EXPLORE_MPI_HPP
