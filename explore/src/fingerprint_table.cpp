// fingerprint_table.cpp — growing and clearing the visited set's shards.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <merilo/explore/detail/fingerprint_table.hpp>

namespace merilo::explore::detail {

namespace {
// Fill up to 9/10 of the slots; grow by half (so 60% full just after).
std::size_t limit_of(std::size_t buckets) { return buckets * FingerprintBucket::kSlots * 9 / 10; }
}  // namespace

BucketArray::BucketArray(std::size_t n) : size_(n) {
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  const std::size_t bytes = n * sizeof(FingerprintBucket);
  const std::size_t align = bytes >= kHuge ? kHuge : alignof(FingerprintBucket);
  bytes_ = (bytes + align - 1) / align * align;
  void* p = std::aligned_alloc(align, bytes_);
  if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (align == kHuge) (void)madvise(p, bytes_, MADV_HUGEPAGE);  // a hint; fine if refused
#endif
  std::memset(p, 0, bytes_);
  data_.reset(static_cast<FingerprintBucket*>(p));
}

void BucketArray::Free::operator()(FingerprintBucket* p) const noexcept { std::free(p); }

FingerprintShard::FingerprintShard(std::size_t buckets)
    : buckets_(std::max<std::size_t>(buckets, 4)), limit_(limit_of(buckets_.size())) {}

FingerprintTable::FingerprintTable() {
  shards_.reserve(kShards);
  for (std::size_t i = 0; i < kShards; ++i) shards_.push_back(Padded{FingerprintShard(4 + i / 4)});
}

void FingerprintShard::grow() {
  BucketArray old(buckets_.size() + buckets_.size() / 2);
  std::swap(old, buckets_);
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
  std::memset(static_cast<void*>(buckets_.begin()), 0, buckets_.size() * sizeof(FingerprintBucket));
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
