// merilo/explore/detail/mpi_search.hpp — the non-template parts of the
// distributed search: node ids across ranks, the successor order key, the
// index of a level's new worlds, agreeing on the first event of a level,
// and rebuilding paths by asking each parent's owner (src/mpi_search.cpp).
#ifndef MERILO_EXPLORE_DETAIL_MPI_SEARCH_HPP
#define MERILO_EXPLORE_DETAIL_MPI_SEARCH_HPP

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <merilo/explore/detail/fingerprint.hpp>
#include <merilo/explore/detail/parent_links.hpp>
#include <merilo/explore/system.hpp>
#include <merilo/explore/trace.hpp>
#include <merilo/explore/violation.hpp>

namespace merilo::explore::detail::mpi {

inline constexpr std::uint64_t kNone = ~std::uint64_t{0};

/// A stored world: the rank that owns it and its id there.
struct Node {
  std::uint32_t rank = 0;
  std::uint32_t local = 0;
  friend bool operator==(const Node&, const Node&) = default;
};

/// The order of a successor within a level: its parent's global id (the
/// in-process explorer's state id), then the kind taken. The in-process
/// explorer numbers a level's new worlds in exactly this order.
[[nodiscard]] constexpr std::uint64_t order_key(std::uint64_t parent_gid,
                                                std::uint32_t kind) noexcept {
  return parent_gid << 16U | kind;
}
/// The parent's global id in an order key.
[[nodiscard]] constexpr std::uint64_t parent_of_key(std::uint64_t key) noexcept {
  return key >> 16U;
}
/// The kind in an order key.
[[nodiscard]] constexpr std::uint32_t kind_of_key(std::uint64_t key) noexcept {
  return static_cast<std::uint32_t>(key & 0xFFFFU);
}

/// The position of each of a level's new worlds by fingerprint: open
/// addressing over indexes into `fps`, 8 bytes per world at half load.
class PendingIndex {
 public:
  explicit PendingIndex(const std::deque<Fingerprint>& fps) : fps_(&fps) {}
  /// The index of `fp`, or kNone.
  [[nodiscard]] std::uint64_t find(const Fingerprint& fp) const noexcept;
  /// Adds `fps[i]`, which is not there yet.
  void add(std::uint32_t i);
  /// Forgets every index, keeping nothing.
  void clear();
  /// Bytes of the slots.
  [[nodiscard]] std::size_t memory_bytes() const noexcept { return slots_.capacity() * 4; }

 private:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFU;
  [[nodiscard]] std::size_t home(const Fingerprint& fp) const noexcept {
    return static_cast<std::size_t>(fp.lo) & (slots_.size() - 1);
  }
  void place(std::uint32_t i);
  const std::deque<Fingerprint>* fps_;
  std::vector<std::uint32_t> slots_;
  std::size_t size_ = 0;
};

/// Something that ends a level: a frontier world's problem, a failed step,
/// a new world that breaks an invariant, or the bound.
struct Event {
  /// Smaller comes first; kNone when there is none. A frontier problem's
  /// order is its global id; a successor's is `order_key * 2 + 1`, the
  /// bound's `order_key * 2` (at the same key the bound comes first).
  std::uint64_t order = kNone;
  ViolationKind kind = ViolationKind::none;  // none: the bound
  bool stored = false;                       // a new world that is stored (a broken invariant)
  Node at;                 // the frontier world (its problem) or the step's parent
  std::uint32_t step = 0;  // the kind taken from `at`, for a successor
  std::string invariant;
  std::string detail;
  [[nodiscard]] bool found() const noexcept { return order != kNone; }
};

/// The event with the least order over every rank, on every rank.
/// Collective.
[[nodiscard]] Event agree(const Event& mine, std::uint64_t* sent);

/// The path from the initial world (`root`) to each node of `queries`,
/// asking each link's owner in turn, all queries of all ranks in one round
/// per step. A link stores `kind * ranks + parent rank` as its kind.
/// Collective; `queries` may differ between ranks.
[[nodiscard]] std::vector<Trace> paths(const ParentLinks& links, const std::vector<Node>& queries,
                                       Node root, unsigned ranks, std::uint64_t* sent);

/// Ends the MPI job after an internal error on this rank (the others would
/// wait forever): prints `what` to stderr and calls MPI_Abort.
[[noreturn]] void abort_job(const std::string& what);

}  // namespace merilo::explore::detail::mpi

#endif  // MERILO_EXPLORE_DETAIL_MPI_SEARCH_HPP
