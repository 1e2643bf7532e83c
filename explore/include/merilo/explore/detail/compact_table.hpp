// merilo/explore/detail/compact_table.hpp — the visited set of hash
// compaction: k-bit compact fingerprints packed side by side in a table of
// fixed size, probed linearly slot by slot.
//
// A world's 128-bit fingerprint picks its shard (top bits of the high word),
// its home slot (the low word, scaled onto the shard) and its compact value
// (the next k bits of the high word, so value and home are independent).
// Only the value is stored, in k bits: two worlds whose values meet on a
// probe sequence count as one, and the second is never explored. That is
// the price of k bits per world; `miss_probability` bounds it
// (docs/design/hash-compaction.md). The table never grows — growing would
// need the home bits that were thrown away — so its size is fixed when the
// search starts, and an insert into a shard with one free slot left says
// `full`.
//
// NOTE: `contains` may run on many threads at once while nothing inserts;
// `insert` into one shard needs exclusive access to that shard only.
#ifndef MERILO_EXPLORE_DETAIL_COMPACT_TABLE_HPP
#define MERILO_EXPLORE_DETAIL_COMPACT_TABLE_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <merilo/explore/detail/fingerprint.hpp>
#include <merilo/explore/detail/fingerprint_table.hpp>

namespace merilo::explore::detail {

/// What an insert into the visited set did.
enum class Inserted : std::uint8_t {
  seen,   ///< The world (or, compacted, one with its value) was there.
  fresh,  ///< Stored now.
  full,   ///< Not stored: the compact table's shard has no room left.
};

/// One shard of a compact table: `slots` values of `bits` bits each.
class CompactShard {
 public:
  CompactShard(std::size_t slots, unsigned bits);

  /// Whether a world with `fp`'s value is on its probe sequence.
  [[nodiscard]] bool contains(const Fingerprint& fp, unsigned shard_bits) const noexcept {
    const std::uint64_t v = value(fp, shard_bits);
    for (std::size_t s = home(fp);; s = next(s)) {
      const std::uint64_t here = get(s);
      if (here == v) return true;
      if (here == 0) return false;
    }
  }
  /// Stores `fp`'s value unless it is on its probe sequence already.
  Inserted insert(const Fingerprint& fp, unsigned shard_bits) noexcept;
  /// Asks the CPU to load the word of `fp`'s home slot.
  void prefetch(const Fingerprint& fp) const noexcept {
    __builtin_prefetch(&words_[home(fp) * bits_ / 64]);
  }
  /// Values stored.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// Slots of the shard.
  [[nodiscard]] std::size_t slots() const noexcept { return slots_; }
  /// Bytes of the packed slots.
  [[nodiscard]] std::size_t memory_bytes() const noexcept { return words_count_ * 8; }

 private:
  // The compact value: k bits of the fingerprint that neither the shard
  // (top bits of hi) nor the home slot (lo, scaled) is taken from; 0 marks
  // an empty slot, so a value 0 is stored as 1.
  [[nodiscard]] std::uint64_t value(const Fingerprint& fp, unsigned shard_bits) const noexcept {
    const std::uint64_t low = shard_bits == 0 ? 0 : fp.lo & ((std::uint64_t{1} << shard_bits) - 1);
    const std::uint64_t v = ((fp.hi << shard_bits) | low) >> (64 - bits_);
    return v == 0 ? 1 : v;
  }
  [[nodiscard]] std::size_t home(const Fingerprint& fp) const noexcept {
#ifdef __SIZEOF_INT128__
    __extension__ using Wide = unsigned __int128;
    return static_cast<std::size_t>((static_cast<Wide>(fp.lo) * slots_) >> 64U);
#else
    return static_cast<std::size_t>(mul_high_by_halves(fp.lo, slots_));
#endif
  }
  [[nodiscard]] std::size_t next(std::size_t s) const noexcept {
    return s + 1 == slots_ ? 0 : s + 1;
  }
  [[nodiscard]] std::uint64_t get(std::size_t s) const noexcept {
    const std::size_t bit = s * bits_;
    const std::size_t w = bit / 64;
    const unsigned shift = static_cast<unsigned>(bit % 64);
    std::uint64_t v = words_[w] >> shift;
    if (shift + bits_ > 64) v |= words_[w + 1] << (64 - shift);
    return v & mask_;
  }
  void set(std::size_t s, std::uint64_t v) noexcept {
    const std::size_t bit = s * bits_;
    const std::size_t w = bit / 64;
    const unsigned shift = static_cast<unsigned>(bit % 64);
    words_[w] = (words_[w] & ~(mask_ << shift)) | (v << shift);
    if (shift + bits_ > 64) {
      const unsigned rest = 64 - shift;
      words_[w + 1] = (words_[w + 1] & ~(mask_ >> rest)) | (v >> rest);
    }
  }

  std::unique_ptr<std::uint64_t[]> words_;
  std::size_t words_count_ = 0;
  std::size_t slots_;
  std::size_t size_ = 0;
  unsigned bits_;
  std::uint64_t mask_;
};

/// The size of a compact table, or why there is none: what
/// `compact_plan` makes of `ExploreOptions::compact_bits`,
/// `compact_bytes` and `max_states`.
struct CompactPlan {
  unsigned bits = 0;      ///< 0: exact mode.
  std::size_t slots = 0;  ///< Slots of the whole table.
  std::string error;      ///< A usage error, or "".
};

/// The table for `bits` (0: derive from `bytes`) and `bytes` (0: size for
/// `max_states` at a load under 90%); bits 0 and bytes 0 is the exact mode.
[[nodiscard]] CompactPlan compact_plan(unsigned bits, std::size_t bytes, std::size_t max_states);

/// The compact visited set: 2^b shards (b up to 6, fewer for small tables
/// so that no shard fills long before the others).
class CompactTable {
 public:
  CompactTable(std::size_t slots, unsigned bits);

  /// Shards of the table.
  [[nodiscard]] std::size_t shards() const noexcept { return shards_.size(); }
  /// The shard `fp` belongs to.
  [[nodiscard]] std::size_t shard_of(const Fingerprint& fp) const noexcept {
    return shard_bits_ == 0 ? 0 : static_cast<std::size_t>(fp.hi >> (64 - shard_bits_));
  }
  [[nodiscard]] bool contains(const Fingerprint& fp) const noexcept {
    return shards_[shard_of(fp)].contains(fp, shard_bits_);
  }
  /// Stores `fp`'s value into shard `s` (its own); exclusive access to it.
  Inserted insert_in(std::size_t s, const Fingerprint& fp) noexcept {
    return shards_[s].insert(fp, shard_bits_);
  }
  void prefetch(const Fingerprint& fp) const noexcept { shards_[shard_of(fp)].prefetch(fp); }
  /// Values stored.
  [[nodiscard]] std::size_t size() const noexcept;
  /// Slots of every shard.
  [[nodiscard]] std::size_t slots() const noexcept;
  [[nodiscard]] unsigned bits() const noexcept { return bits_; }
  [[nodiscard]] std::size_t memory_bytes() const noexcept;

 private:
  std::vector<CompactShard> shards_;
  unsigned shard_bits_ = 0;
  unsigned bits_;
};

/// The probability bound for one linearly probed table of `slots` slots
/// holding `stored` values of `bits` bits: the expected number of
/// comparisons with occupied slots made while storing them, times the
/// chance that two values are equal. Clamped to [0, 1].
[[nodiscard]] double compact_miss_bound(std::size_t stored, std::size_t slots,
                                        unsigned bits) noexcept;

/// The explorer's visited set: the exact 128-bit table, or, with hash
/// compaction, a compact one. One branch per call on which it is.
class VisitedSet {
 public:
  /// The exact set; `compact(plan)` switches to a compact one.
  VisitedSet() = default;
  /// Uses a compact table of `plan.slots` slots of `plan.bits` bits.
  void compact(const CompactPlan& plan) {
    compact_ = std::make_unique<CompactTable>(plan.slots, plan.bits);
  }
  [[nodiscard]] const CompactTable* compact_table() const noexcept { return compact_.get(); }

  [[nodiscard]] bool contains(const Fingerprint& fp) const noexcept {
    return compact_ ? compact_->contains(fp) : exact_.contains(fp);
  }
  void prefetch(const Fingerprint& fp) const noexcept {
    if (compact_) {
      compact_->prefetch(fp);
    } else {
      exact_.prefetch(fp);
    }
  }
  /// Shards, each with one writer during the merge.
  [[nodiscard]] std::size_t shards() const noexcept {
    return compact_ ? compact_->shards() : FingerprintTable::kShards;
  }
  [[nodiscard]] std::size_t shard_of(const Fingerprint& fp) const noexcept {
    return compact_ ? compact_->shard_of(fp) : FingerprintTable::shard_of(fp);
  }
  /// Inserts `fp` into its shard `s`; exclusive access to that shard.
  Inserted insert_in(std::size_t s, const Fingerprint& fp) {
    if (compact_) return compact_->insert_in(s, fp);
    return exact_.shard(s).insert(fp) ? Inserted::fresh : Inserted::seen;
  }
  Inserted insert(const Fingerprint& fp) { return insert_in(shard_of(fp), fp); }
  [[nodiscard]] std::size_t size() const noexcept {
    return compact_ ? compact_->size() : exact_.size();
  }
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return compact_ ? compact_->memory_bytes() : exact_.memory_bytes();
  }

 private:
  FingerprintTable exact_;
  std::unique_ptr<CompactTable> compact_;
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_COMPACT_TABLE_HPP
