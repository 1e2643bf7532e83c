// merilo/explore/detail/fingerprint_table.hpp — the explorer's visited set:
// 128-bit fingerprints in a compact, sharded open-addressing table.
//
// The table is cut into `kShards` shards by the top bits of a fingerprint,
// so that during a level's merge each thread inserts into its own shards
// without locks, and so that growing one shard copies only 1/64 of the
// table (the peak while growing stays close to the table itself). Each shard
// is an array of 64-byte buckets of four fingerprints, probed linearly
// bucket by bucket, filled up to 90% and grown by half when full: 16 bytes
// per slot at a load between 60% and 90%, 18–27 bytes per stored world
// (about 21 on average: the shards grow at different times).
// docs/design/fingerprints.md says why 128 bits, and what a collision costs.
//
// NOTE: `contains` may run on many threads at once while nothing inserts;
// `insert` into one shard needs exclusive access to that shard only.
#ifndef MERILO_EXPLORE_DETAIL_FINGERPRINT_TABLE_HPP
#define MERILO_EXPLORE_DETAIL_FINGERPRINT_TABLE_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <merilo/explore/detail/fingerprint.hpp>

namespace merilo::explore::detail {

/// The high word of the 128-bit product a * b from four 32-bit products, for
/// targets without a 128-bit integer (32-bit x86); a test compares it with
/// the 128-bit multiply where there is one.
[[nodiscard]] constexpr std::uint64_t mul_high_by_halves(std::uint64_t a,
                                                         std::uint64_t b) noexcept {
  const std::uint64_t a_lo = a & 0xffffffffU;
  const std::uint64_t a_hi = a >> 32U;
  const std::uint64_t b_lo = b & 0xffffffffU;
  const std::uint64_t b_hi = b >> 32U;
  const std::uint64_t lo_lo = a_lo * b_lo;
  const std::uint64_t hi_lo = a_hi * b_lo;
  const std::uint64_t lo_hi = a_lo * b_hi;
  // Bits 32 and up of the low half, with lo_hi whole: at most 2^64 - 1.
  const std::uint64_t cross = (lo_lo >> 32U) + (hi_lo & 0xffffffffU) + lo_hi;
  return a_hi * b_hi + (hi_lo >> 32U) + (cross >> 32U);
}

/// Four fingerprints: one cache line, the unit a probe reads.
struct alignas(64) FingerprintBucket {
  static constexpr std::size_t kSlots = 4;
  Fingerprint slot[kSlots];
};

/// A zeroed array of buckets. Arrays of 2 MiB and more are 2 MiB aligned
/// and asked to be backed by huge pages (Linux `madvise`), since every probe
/// lands on a random page: with 4 KiB pages each one is also a TLB miss,
/// which a prefetch does not hide.
class BucketArray {
 public:
  BucketArray() = default;
  explicit BucketArray(std::size_t n);
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t memory_bytes() const noexcept { return bytes_; }
  FingerprintBucket& operator[](std::size_t i) noexcept { return data_.get()[i]; }
  const FingerprintBucket& operator[](std::size_t i) const noexcept { return data_.get()[i]; }
  FingerprintBucket* begin() noexcept { return data_.get(); }
  FingerprintBucket* end() noexcept { return data_.get() + size_; }

 private:
  struct Free {
    void operator()(FingerprintBucket* p) const noexcept;
  };
  std::unique_ptr<FingerprintBucket, Free> data_;
  std::size_t size_ = 0;
  std::size_t bytes_ = 0;
};

/// One shard: a growable open-addressing set of fingerprints. Slot value
/// {0, 0} marks an empty slot; a real fingerprint {0, 0} is stored as
/// {0, 1}, which costs one more 2^-128 chance of a collision.
class FingerprintShard {
 public:
  /// A shard of `buckets` buckets to start with.
  explicit FingerprintShard(std::size_t buckets = 4);

  /// Whether `fp` is in the set.
  [[nodiscard]] bool contains(Fingerprint fp) const noexcept {
    fp = stored(fp);
    for (std::size_t b = home(fp);; b = next(b)) {
      for (const Fingerprint& s : buckets_[b].slot) {
        if (s == fp) return true;
        if (is_empty(s)) return false;
      }
    }
  }

  /// Adds `fp`; true when it was not there before.
  bool insert(Fingerprint fp) {
    if (size_ >= limit_) grow();
    fp = stored(fp);
    for (std::size_t b = home(fp);; b = next(b)) {
      for (Fingerprint& s : buckets_[b].slot) {
        if (s == fp) return false;
        if (is_empty(s)) {
          s = fp;
          ++size_;
          return true;
        }
      }
    }
  }

  /// Asks the CPU to load the bucket `fp` would be probed from first.
  void prefetch(const Fingerprint& fp) const noexcept {
    __builtin_prefetch(&buckets_[home(stored(fp))]);
  }

  /// Fingerprints stored.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// Bytes of the bucket array.
  [[nodiscard]] std::size_t memory_bytes() const noexcept { return buckets_.memory_bytes(); }
  /// Empties the set, keeping its buckets.
  void clear() noexcept;

 private:
  static Fingerprint stored(Fingerprint fp) noexcept {
    if (fp.lo == 0 && fp.hi == 0) fp.hi = 1;
    return fp;
  }
  static bool is_empty(const Fingerprint& fp) noexcept { return fp.lo == 0 && fp.hi == 0; }
  // The first bucket probed: the low word scaled onto [0, buckets) by a
  // multiply-shift, so any bucket count works (growth by half, not doubling).
  [[nodiscard]] std::size_t home(const Fingerprint& fp) const noexcept {
    return static_cast<std::size_t>(mul_high(fp.lo, buckets_.size()));
  }
  static std::uint64_t mul_high(std::uint64_t a, std::uint64_t b) noexcept {
#ifdef __SIZEOF_INT128__
    __extension__ using Wide = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<Wide>(a) * b) >> 64U);
#else
    return mul_high_by_halves(a, b);
#endif
  }
  [[nodiscard]] std::size_t next(std::size_t b) const noexcept {
    return b + 1 == buckets_.size() ? 0 : b + 1;
  }
  void grow();

  BucketArray buckets_;
  std::size_t size_ = 0;
  std::size_t limit_ = 0;  // grow before storing more than this
};

/// The visited set: `kShards` shards chosen by the top bits of a fingerprint.
class FingerprintTable {
 public:
  static constexpr unsigned kShardBits = 6;
  static constexpr std::size_t kShards = std::size_t{1} << kShardBits;

  /// Shards that start at different sizes (4 to 19 buckets), so that they
  /// grow at different times and the table's load stays near its average
  /// (75%) instead of swinging between 60% and 90% all at once.
  FingerprintTable();

  /// The shard `fp` belongs to.
  [[nodiscard]] static std::size_t shard_of(const Fingerprint& fp) noexcept {
    return static_cast<std::size_t>(fp.hi >> (64 - kShardBits));
  }
  /// Whether `fp` is in the set.
  [[nodiscard]] bool contains(const Fingerprint& fp) const noexcept {
    return shards_[shard_of(fp)].contains(fp);
  }
  /// Asks the CPU to load the bucket `fp` would be probed from first.
  void prefetch(const Fingerprint& fp) const noexcept { shards_[shard_of(fp)].shard.prefetch(fp); }
  /// Adds `fp`; true when it was not there before. Exclusive access to its
  /// shard only.
  bool insert(const Fingerprint& fp) { return shards_[shard_of(fp)].shard.insert(fp); }
  /// Shard `i`, to insert into from the thread that owns it.
  FingerprintShard& shard(std::size_t i) noexcept { return shards_[i].shard; }
  /// Fingerprints stored.
  [[nodiscard]] std::size_t size() const noexcept;
  /// Bytes of every shard's buckets.
  [[nodiscard]] std::size_t memory_bytes() const noexcept;

 private:
  // Each shard on its own cache line: two threads update neighbouring ones.
  struct alignas(64) Padded {
    FingerprintShard shard;
    [[nodiscard]] bool contains(const Fingerprint& fp) const noexcept { return shard.contains(fp); }
  };
  std::vector<Padded> shards_;
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_FINGERPRINT_TABLE_HPP
