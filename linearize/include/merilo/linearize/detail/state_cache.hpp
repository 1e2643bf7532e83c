// merilo/linearize/detail/state_cache.hpp — the (placed set, model) states one part's
// search has visited, capped in memory.
#ifndef MERILO_LINEARIZE_DETAIL_STATE_CACHE_HPP
#define MERILO_LINEARIZE_DETAIL_STATE_CACHE_HPP

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <merilo/linearize/detail/hash.hpp>

namespace merilo::linearize::detail {

/// Does the model say how much memory it holds beyond sizeof(M)?
template <class M>
concept ReportsHeapBytes = requires(const M& model) {
  { model.heap_bytes() } -> std::convertible_to<std::size_t>;
};

/// The memory a copy of `model` holds beyond sizeof(M), as the cache counts
/// it: the model's own `heap_bytes()`, else the bytes that identify it.
template <class M>
[[nodiscard]] std::size_t held_bytes(const M& model, std::size_t identifying_bytes) {
  if constexpr (ReportsHeapBytes<M>) {
    return static_cast<std::size_t>(model.heap_bytes());
  } else {
    return identifying_bytes;
  }
}

/// The (placed set, model) states one part's search has visited.
///
/// A state is the position reached in each chain of completed operations
/// (see PartSearch), the bitset of pending operations (no response) placed
/// so far, and the model. The table hashes (positions, model) with XXH3 —
/// open addressing, exact comparison on a hash match — to a *group*, and
/// keeps in the group every pending set seen with that (positions, model):
/// a state is known when it was visited exactly, or when a state with the
/// same positions and model but fewer pending operations placed has already
/// failed (anything that works with more pending operations placed works
/// with fewer: the others can still go last, since a pending operation
/// never returns and every spec gives every command a next model).
///
/// NOTE: grouping matters with many pending operations (histories with
/// many timeouts): one (positions, model) then comes with hundreds of
/// pending sets, and a lookup compares positions and model once, then only
/// bitsets, instead of walking a probe cluster that compares all three per
/// entry.
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
    last_group_ = kNone;
    const std::uint64_t h = last_.hash | 1U;  // 0 marks an empty slot
    for (std::size_t slot = static_cast<std::size_t>(h) & mask_; hashes_[slot] != 0;
         slot = (slot + 1) & mask_) {
      if (hashes_[slot] != h || !same(groups_[slot], positions, model)) continue;
      last_group_ = groups_[slot];
      break;
    }
    if (last_group_ == kNone) return false;
    for (std::uint32_t b = first_[last_group_]; b != kNone; b = blocks_[b].next) {
      const Block& block = blocks_[b];
      const std::uint64_t* stored = sets_.data() + std::size_t{block.first} * pending_words_;
      for (std::uint32_t i = 0; i < block.used; ++i, stored += pending_words_) {
        bool equal = true;
        bool subset = true;
        for (std::size_t w = 0; w < pending_words_; ++w) {
          equal = equal && stored[w] == pending[w];
          subset = subset && (stored[w] & ~pending[w]) == 0;
        }
        if (equal || (subset && !on_stack_[ids_[block.first + i]])) return true;
      }
    }
    return false;
  }

  /// Remembers the state `known` was last asked about (same arguments) as
  /// on the search's current path; returns its entry, or kNone when memory
  /// is spent (the search then just does not remember it).
  std::uint32_t add(const std::vector<std::uint32_t>& positions,
                    const std::vector<std::uint64_t>& pending, const M& model) {
    std::size_t entry_bytes = 1;  // on_stack_
    std::uint32_t head = last_group_ == kNone ? kNone : first_[last_group_];
    const bool new_block = head == kNone || blocks_[head].used == blocks_[head].capacity;
    const std::uint32_t capacity =
        head == kNone ? 1 : std::min(2 * blocks_[head].capacity, kMaxBlock);
    if (new_block) {
      entry_bytes += sizeof(Block) +
                     capacity * (pending_words_ * sizeof(std::uint64_t) + sizeof(std::uint32_t));
    }
    if (last_group_ == kNone) {
      entry_bytes += chains_ * sizeof(std::uint32_t) + sizeof(M) + held_bytes(model, last_.bytes) +
                     2 * (sizeof(std::uint64_t) + sizeof(std::uint32_t)) + sizeof(std::uint32_t);
    }
    if (full_ || bytes_ + entry_bytes > max_bytes_) {
      full_ = true;
      return kNone;
    }
    bytes_ += entry_bytes;
    if (last_group_ == kNone) {
      const std::uint64_t h = last_.hash | 1U;
      std::size_t slot = static_cast<std::size_t>(h) & mask_;
      while (hashes_[slot] != 0) slot = (slot + 1) & mask_;
      last_group_ = static_cast<std::uint32_t>(models_.size());
      hashes_[slot] = h;
      groups_[slot] = last_group_;
      positions_.insert(positions_.end(), positions.begin(), positions.end());
      models_.push_back(model);
      first_.push_back(kNone);
      if (2 * models_.size() > hashes_.size()) grow(2 * hashes_.size());
    }
    if (new_block) {
      const auto slots = static_cast<std::uint32_t>(ids_.size());
      blocks_.push_back(Block{slots, capacity, 0, first_[last_group_]});
      head = static_cast<std::uint32_t>(blocks_.size() - 1);
      first_[last_group_] = head;
      ids_.resize(ids_.size() + capacity, kNone);
      sets_.resize(sets_.size() + std::size_t{capacity} * pending_words_, 0);
    }
    Block& block = blocks_[head];
    const std::uint32_t slot = block.first + block.used++;
    const auto entry = static_cast<std::uint32_t>(on_stack_.size());
    std::copy(pending.begin(), pending.end(),
              sets_.begin() + static_cast<std::ptrdiff_t>(std::size_t{slot} * pending_words_));
    ids_[slot] = entry;
    on_stack_.push_back(1);
    return entry;
  }

  /// The search left this state for good: it failed.
  void failed(std::uint32_t entry) {
    if (entry != kNone) on_stack_[entry] = 0;
  }

  [[nodiscard]] std::size_t size() const noexcept { return on_stack_.size(); }
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
  [[nodiscard]] bool full() const noexcept { return full_; }

 private:
  bool same(std::uint32_t group, const std::vector<std::uint32_t>& positions,
            const M& model) const {
    const std::uint32_t* stored = positions_.data() + std::size_t{group} * chains_;
    return std::equal(positions.begin(), positions.end(), stored) && models_[group] == model;
  }

  void grow(std::size_t slots) {
    std::vector<std::uint64_t> old_hashes = std::move(hashes_);
    std::vector<std::uint32_t> old_groups = std::move(groups_);
    hashes_.assign(slots, 0);
    groups_.assign(slots, 0);
    mask_ = slots - 1;
    for (std::size_t i = 0; i < old_hashes.size(); ++i) {
      if (old_hashes[i] == 0) continue;
      std::size_t slot = static_cast<std::size_t>(old_hashes[i]) & mask_;
      while (hashes_[slot] != 0) slot = (slot + 1) & mask_;
      hashes_[slot] = old_hashes[i];
      groups_[slot] = old_groups[i];
    }
  }

  std::size_t chains_;
  std::size_t pending_words_;
  std::size_t max_bytes_;
  std::size_t bytes_ = 0;
  bool full_ = false;
  std::size_t mask_ = 0;
  ModelHash last_;
  std::uint32_t last_group_ = kNone;   // the group `known` last found, or kNone
  std::vector<std::uint64_t> hashes_;  // per slot
  std::vector<std::uint32_t> groups_;  // per slot
  // Per group: positions (chains_ each), model, first entry.
  std::vector<std::uint32_t> positions_;
  std::vector<M> models_;
  std::vector<std::uint32_t> first_;  // its newest block
  // A group's pending sets sit in blocks of 1, 2, 4, ... kMaxBlock slots,
  // newest block first, so a lookup reads them in runs instead of chasing
  // entries scattered over the whole cache (that cost three quarters of
  // the time on histories with hundreds of timeouts).
  struct Block {
    std::uint32_t first;     // its first slot
    std::uint32_t capacity;  // slots
    std::uint32_t used;      // slots filled
    std::uint32_t next;      // the group's previous block, or kNone
  };
  static constexpr std::uint32_t kMaxBlock = 64;
  std::vector<Block> blocks_;
  std::vector<std::uint64_t> sets_;     // per slot: a pending set (pending_words_ each)
  std::vector<std::uint32_t> ids_;      // per slot: its entry
  std::vector<std::uint8_t> on_stack_;  // per entry: on the search's path
  ByteBuffer scratch_;
};

}  // namespace merilo::linearize::detail

#endif  // MERILO_LINEARIZE_DETAIL_STATE_CACHE_HPP
