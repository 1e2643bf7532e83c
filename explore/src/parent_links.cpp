// parent_links.cpp — the parent links' blocks, and paths back to the root.
#include <algorithm>

#include <merilo/explore/detail/parent_links.hpp>

namespace merilo::explore::detail {

ParentLinks::ParentLinks(std::size_t kinds)
    : kind_bytes_(kinds <= 0x100     ? 1
                  : kinds <= 0x10000 ? 2
                                     : 4) {}

void ParentLinks::add(std::uint32_t parent, std::size_t kind) {
  const std::size_t offset = size_ & (kBlock - 1);
  if (offset == 0) {
    blocks_.push_back(Block{std::make_unique_for_overwrite<std::uint32_t[]>(kBlock),
                            std::make_unique_for_overwrite<std::uint8_t[]>(kBlock * kind_bytes_)});
  }
  Block& b = blocks_.back();
  b.parent[offset] = parent;
  for (std::size_t i = 0; i < kind_bytes_; ++i) {
    b.kind[offset * kind_bytes_ + i] = static_cast<std::uint8_t>(kind >> (8 * i));
  }
  ++size_;
}

std::size_t ParentLinks::kind_at(std::size_t id) const noexcept {
  const std::uint8_t* at = &blocks_[id >> kBlockBits].kind[(id & (kBlock - 1)) * kind_bytes_];
  std::size_t k = 0;
  for (std::size_t i = kind_bytes_; i-- > 0;) k = k << 8 | at[i];
  return k;
}

Trace ParentLinks::path(std::uint32_t id) const {
  Trace t;
  while (id != 0) {
    t.push_back(kind_at(id));
    id = blocks_[id >> kBlockBits].parent[id & (kBlock - 1)];
  }
  std::reverse(t.begin(), t.end());
  return t;
}

std::size_t ParentLinks::memory_bytes() const noexcept {
  // Full blocks, and the pages of the last block written so far (a block is
  // allocated untouched, so its unwritten pages cost nothing).
  constexpr std::size_t kPage = 4096;
  const std::size_t per_link = sizeof(std::uint32_t) + kind_bytes_;
  if (blocks_.empty()) return 0;
  const std::size_t used = size_ - (blocks_.size() - 1) * kBlock;
  const auto pages = [](std::size_t bytes) { return (bytes + kPage - 1) / kPage * kPage; };
  return (blocks_.size() - 1) * kBlock * per_link + pages(used * sizeof(std::uint32_t)) +
         pages(used * kind_bytes_);
}

}  // namespace merilo::explore::detail
