// fingerprint_table.cpp — growing and clearing the visited set's shards.
#include <algorithm>

#include <merilo/explore/detail/fingerprint_table.hpp>

namespace merilo::explore::detail {

namespace {
constexpr std::size_t kInitialBuckets = 4;
// Fill up to 9/10 of the slots; grow by half (so 60% full just after).
std::size_t limit_of(std::size_t buckets) { return buckets * FingerprintBucket::kSlots / 10 * 9; }
}  // namespace

FingerprintShard::FingerprintShard()
    : buckets_(kInitialBuckets), limit_(limit_of(kInitialBuckets)) {}

void FingerprintShard::grow() {
  std::vector<FingerprintBucket> old(buckets_.size() + buckets_.size() / 2);
  old.swap(buckets_);
  limit_ = limit_of(buckets_.size());
  size_ = 0;
  for (const FingerprintBucket& b : old) {
    for (const Fingerprint& fp : b.slot) {
      if (!is_empty(fp)) insert(fp);
    }
  }
}

void FingerprintShard::clear() noexcept {
  if (size_ == 0) return;
  std::fill(buckets_.begin(), buckets_.end(), FingerprintBucket{});
  size_ = 0;
}

std::size_t FingerprintTable::size() const noexcept {
  std::size_t n = 0;
  for (const Padded& s : shards_) n += s.shard.size();
  return n;
}

std::size_t FingerprintTable::memory_bytes() const noexcept {
  std::size_t n = 0;
  for (const Padded& s : shards_) n += s.shard.memory_bytes();
  return n;
}

}  // namespace merilo::explore::detail
