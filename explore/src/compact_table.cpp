// compact_table.cpp — hash compaction's table: sizing it from the options,
// inserting, and the bound on the probability of a missed world.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include <merilo/explore/detail/compact_table.hpp>

namespace merilo::explore::detail {

namespace {
constexpr unsigned kMaxBits = 64;
// Slots for `max_states` worlds at a load just under 90%, plus a margin so
// that the fullest of 64 shards does not fill first.
std::size_t slots_for(std::size_t max_states) { return max_states + max_states / 8 + 64; }
}  // namespace

CompactShard::CompactShard(std::size_t slots, unsigned bits)
    : slots_(std::max<std::size_t>(slots, 2)),
      bits_(bits),
      mask_(bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1) {
  words_count_ = (slots_ * bits_ + 63) / 64 + 1;
  words_ = std::make_unique<std::uint64_t[]>(words_count_);  // zeroed: every slot empty
}

Inserted CompactShard::insert(const Fingerprint& fp, unsigned shard_bits) noexcept {
  const std::uint64_t v = value(fp, shard_bits);
  for (std::size_t s = home(fp);; s = next(s)) {
    const std::uint64_t here = get(s);
    if (here == v) return Inserted::seen;
    if (here != 0) continue;
    if (size_ + 1 >= slots_) return Inserted::full;  // keep one slot empty: probes end
    set(s, v);
    ++size_;
    return Inserted::fresh;
  }
}

CompactPlan compact_plan(unsigned bits, std::size_t bytes, std::size_t max_states) {
  CompactPlan plan;
  if (bits == 0 && bytes == 0) return plan;
  if (bits > kMaxBits) {
    plan.error = fmt::format(
        "merilo: ExploreOptions::compact_bits is {}, above the limit of {} bits per world", bits,
        kMaxBits);
    return plan;
  }
  if (bits != 0 && bytes == 0) {
    plan.bits = bits;
    plan.slots = slots_for(max_states);
    return plan;
  }
  const std::size_t budget_bits = bytes > SIZE_MAX / 8 ? SIZE_MAX : bytes * 8;
  if (bits != 0) {
    plan.bits = bits;
    plan.slots = budget_bits / bits;
    if (plan.slots < 2) {
      plan.error = fmt::format(
          "merilo: ExploreOptions::compact_bytes is {}, too small for a table of {}-bit slots",
          bytes, bits);
    }
    return plan;
  }
  const std::size_t slots = slots_for(max_states);
  const std::size_t fit = budget_bits / slots;
  if (fit == 0) {
    plan.error = fmt::format(
        "merilo: ExploreOptions::compact_bytes is {}, under one bit per slot for max_states {} "
        "({} slots); give at least {} bytes, or set compact_bits and let the table fill",
        bytes, max_states, slots, (slots + 7) / 8);
    return plan;
  }
  plan.bits = static_cast<unsigned>(std::min<std::size_t>(fit, kMaxBits));
  plan.slots = budget_bits / plan.bits;  // what the budget holds at that width
  return plan;
}

CompactTable::CompactTable(std::size_t slots, unsigned bits) : bits_(bits) {
  // 2^b shards of at least 2^16 slots each, b at most 6.
  while (shard_bits_ < FingerprintTable::kShardBits &&
         (slots >> (shard_bits_ + 1)) >= (1U << 16U)) {
    ++shard_bits_;
  }
  const std::size_t n = std::size_t{1} << shard_bits_;
  shards_.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    shards_.emplace_back(slots / n + (i < slots % n ? 1 : 0), bits);
}

std::size_t CompactTable::size() const noexcept {
  std::size_t n = 0;
  for (const CompactShard& s : shards_) n += s.size();
  return n;
}

std::size_t CompactTable::slots() const noexcept {
  std::size_t n = 0;
  for (const CompactShard& s : shards_) n += s.slots();
  return n;
}

std::size_t CompactTable::memory_bytes() const noexcept {
  std::size_t n = 0;
  for (const CompactShard& s : shards_) n += s.memory_bytes();
  return n;
}

double compact_miss_bound(std::size_t stored, std::size_t slots, unsigned bits) noexcept {
  if (stored == 0 || slots == 0) return 0;
  const auto n = static_cast<double>(stored);
  const double load =
      std::min(n / static_cast<double>(slots), 1.0 - 1.0 / static_cast<double>(slots));
  // Storing the i-th value compares it, on average, with about
  // ((1 - i/m)^-2 - 1) / 2 occupied slots (an unsuccessful search under
  // linear probing); summed over i < n that is n * load / (1 - load) / 2.
  const double comparisons = n * load / (1.0 - load) / 2.0;
  // Values are uniform on 1..2^k - 1 but for 1, which also takes the hashes
  // that came out 0: two values match with chance 2^-k + 2^(1-2k).
  const int k = static_cast<int>(bits);
  const double match = std::ldexp(1.0, -k) + std::ldexp(1.0, 1 - 2 * k);
  return std::min(comparisons * match, 1.0);
}

}  // namespace merilo::explore::detail
