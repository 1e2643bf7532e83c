// merilo/explore/detail/visited.hpp — the explorer's visited set and parent links.
#ifndef MERILO_EXPLORE_DETAIL_VISITED_HPP
#define MERILO_EXPLORE_DETAIL_VISITED_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include <merilo/explore/detail/fingerprint.hpp>
#include <merilo/explore/trace.hpp>

namespace merilo::explore::detail {

/// An open-addressing (linear probing) set of fingerprints, kept at most half
/// full. Slot value {0, 0} marks an empty slot; a real fingerprint of {0, 0}
/// is stored as {0, 1}, which costs one 2^-128 collision.
///
/// NOTE: `contains` may run on many threads at once while nothing inserts;
/// `insert` needs exclusive access.
class FingerprintSet {
 public:
  FingerprintSet();
  [[nodiscard]] bool contains(Fingerprint fp) const noexcept;
  /// True when `fp` was not there before.
  bool insert(Fingerprint fp);
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t memory_bytes() const noexcept;
  /// Empties the set, keeping its slots.
  void clear() noexcept;

 private:
  void grow();
  std::vector<Fingerprint> slots_;
  std::size_t size_ = 0;
};

/// How a stored world was first reached: from world `parent` by `kind`.
struct ParentLink {
  std::uint32_t parent;
  std::uint32_t kind;
};

/// Parent links indexed by state id; id 0 is the initial world.
class ParentLinks {
 public:
  void add(std::uint32_t parent, std::uint32_t kind) { links_.push_back({parent, kind}); }
  void add_root() { links_.push_back({0, 0}); }
  /// The kinds from the initial world to state `id`.
  [[nodiscard]] Trace path(std::uint32_t id) const;
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return links_.capacity() * sizeof(ParentLink);
  }

 private:
  std::vector<ParentLink> links_;
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_VISITED_HPP
