// merilo/linearize/detail/state_cache.hpp — the (placed set, model) states one part's
// search has visited, capped in memory.
#ifndef MERILO_LINEARIZE_DETAIL_STATE_CACHE_HPP
#define MERILO_LINEARIZE_DETAIL_STATE_CACHE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <merilo/linearize/detail/hash.hpp>

namespace merilo::linearize::detail {

/// The (placed set, model) states one part's search has visited.
///
/// A state is the position reached in each chain of completed operations
/// (see PartSearch), the bitset of pending operations (no response) placed
/// so far, and the model. The table hashes (positions, model) with XXH3 —
/// open addressing, exact comparison on a hash match — and keeps, for one
/// (positions, model), every pending set seen with it: a state is known
/// when it was visited exactly, or when a state with the same positions and
/// model but fewer pending operations placed has already failed (anything
/// that works with more pending operations placed works with fewer: the
/// others can still go last, since a pending operation never returns and
/// every spec gives every command a next model).
template <class M>
class StateCache {
 public:
  static constexpr std::uint32_t kNone = 0xffffffffU;

  StateCache(std::size_t chains, std::size_t pending_words, std::size_t max_bytes)
      : chains_(chains), pending_words_(pending_words), max_bytes_(max_bytes) {
    grow(1024);
  }

  /// Is the state known (visited, or dominated by a failed one)?
  [[nodiscard]] bool known(const std::vector<std::uint32_t>& positions, std::uint64_t key_hash,
                           const std::vector<std::uint64_t>& pending, const M& model) {
    last_ = hash_model(model, key_hash, scratch_);
    const std::uint64_t h = last_.hash | 1U;  // 0 marks an empty slot
    for (std::size_t slot = static_cast<std::size_t>(h) & mask_; hashes_[slot] != 0;
         slot = (slot + 1) & mask_) {
      if (hashes_[slot] != h) continue;
      const std::uint32_t entry = entries_[slot];
      if (!same(entry, positions, model)) continue;
      const std::uint64_t* stored = pending_.data() + std::size_t{entry} * pending_words_;
      bool equal = true;
      bool subset = true;
      for (std::size_t w = 0; w < pending_words_; ++w) {
        equal = equal && stored[w] == pending[w];
        subset = subset && (stored[w] & ~pending[w]) == 0;
      }
      if (equal || (subset && !on_stack_[entry])) return true;
    }
    return false;
  }

  /// Remembers the state `known` was last asked about (same arguments) as
  /// on the search's current path; returns its entry, or kNone when memory
  /// is spent (the search then just does not remember it).
  std::uint32_t add(const std::vector<std::uint32_t>& positions,
                    const std::vector<std::uint64_t>& pending, const M& model) {
    const std::size_t entry_bytes =
        chains_ * sizeof(std::uint32_t) + pending_words_ * sizeof(std::uint64_t) + sizeof(M) +
        last_.bytes + 2 * (sizeof(std::uint64_t) + sizeof(std::uint32_t)) + 1;
    if (full_ || bytes_ + entry_bytes > max_bytes_) {
      full_ = true;
      return kNone;
    }
    bytes_ += entry_bytes;
    const std::uint64_t h = last_.hash | 1U;
    std::size_t slot = static_cast<std::size_t>(h) & mask_;
    while (hashes_[slot] != 0) slot = (slot + 1) & mask_;
    const auto entry = static_cast<std::uint32_t>(models_.size());
    hashes_[slot] = h;
    entries_[slot] = entry;
    positions_.insert(positions_.end(), positions.begin(), positions.end());
    pending_.insert(pending_.end(), pending.begin(), pending.end());
    models_.push_back(model);
    on_stack_.push_back(1);
    if (2 * models_.size() > hashes_.size()) grow(2 * hashes_.size());
    return entry;
  }

  /// The search left this state for good: it failed.
  void failed(std::uint32_t entry) {
    if (entry != kNone) on_stack_[entry] = 0;
  }

  [[nodiscard]] std::size_t size() const noexcept { return models_.size(); }
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
  [[nodiscard]] bool full() const noexcept { return full_; }

 private:
  bool same(std::uint32_t entry, const std::vector<std::uint32_t>& positions,
            const M& model) const {
    const std::uint32_t* stored = positions_.data() + std::size_t{entry} * chains_;
    return std::equal(positions.begin(), positions.end(), stored) && models_[entry] == model;
  }

  void grow(std::size_t slots) {
    std::vector<std::uint64_t> old_hashes = std::move(hashes_);
    std::vector<std::uint32_t> old_entries = std::move(entries_);
    hashes_.assign(slots, 0);
    entries_.assign(slots, 0);
    mask_ = slots - 1;
    for (std::size_t i = 0; i < old_hashes.size(); ++i) {
      if (old_hashes[i] == 0) continue;
      std::size_t slot = static_cast<std::size_t>(old_hashes[i]) & mask_;
      while (hashes_[slot] != 0) slot = (slot + 1) & mask_;
      hashes_[slot] = old_hashes[i];
      entries_[slot] = old_entries[i];
    }
  }

  std::size_t chains_;
  std::size_t pending_words_;
  std::size_t max_bytes_;
  std::size_t bytes_ = 0;
  bool full_ = false;
  std::size_t mask_ = 0;
  ModelHash last_;
  std::vector<std::uint64_t> hashes_;
  std::vector<std::uint32_t> entries_;
  std::vector<std::uint32_t> positions_;
  std::vector<std::uint64_t> pending_;
  std::vector<M> models_;
  std::vector<std::uint8_t> on_stack_;
  ByteBuffer scratch_;
};

}  // namespace merilo::linearize::detail

#endif  // MERILO_LINEARIZE_DETAIL_STATE_CACHE_HPP
