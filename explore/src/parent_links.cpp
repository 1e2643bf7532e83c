// parent_links.cpp — the parent links' blocks, written to a spill file when
// asked, and paths back to the root.
#include <algorithm>
#include <cstring>

#include <merilo/explore/detail/parent_links.hpp>

namespace merilo::explore::detail {

ParentLinks::ParentLinks(std::size_t kinds)
    : kind_bytes_(kinds <= 0x100     ? 1
                  : kinds <= 0x10000 ? 2
                                     : 4) {}

void ParentLinks::spill(std::unique_ptr<SpillFile> file, std::size_t block_bits) {
  file_ = std::move(file);
  block_bits_ = std::clamp(block_bits, kMinBlockBits, kMaxBlockBits);
  block_ = std::size_t{1} << block_bits_;
}

// On disk a block is its links as records of a 4-byte parent and the kind bytes,
// so one read fetches a whole link.
void ParentLinks::write_out(Block& b) {
  const std::size_t record = sizeof(std::uint32_t) + kind_bytes_;
  std::vector<std::uint8_t>& bytes = out_;  // kept: see Frontier::take_buffer
  bytes.resize(block_ * record);
  for (std::size_t i = 0; i < block_; ++i) {
    std::memcpy(&bytes[i * record], &b.parent[i], sizeof(std::uint32_t));
    std::memcpy(&bytes[i * record + sizeof(std::uint32_t)], &b.kind[i * kind_bytes_], kind_bytes_);
  }
  file_->append(bytes.data(), bytes.size());
  b = Block{};
  ++written_blocks_;
}

void ParentLinks::add(std::uint32_t parent, std::size_t kind) {
  const std::size_t offset = size_ & (block_ - 1);
  if (offset == 0) {
    if (file_ && !blocks_.empty()) write_out(blocks_.back());
    blocks_.push_back(Block{std::make_unique_for_overwrite<std::uint32_t[]>(block_),
                            std::make_unique_for_overwrite<std::uint8_t[]>(block_ * kind_bytes_)});
  }
  Block& b = blocks_.back();
  b.parent[offset] = parent;
  for (std::size_t i = 0; i < kind_bytes_; ++i) {
    b.kind[offset * kind_bytes_ + i] = static_cast<std::uint8_t>(kind >> (8 * i));
  }
  ++size_;
}

std::pair<std::uint32_t, std::size_t> ParentLinks::link(std::uint32_t id) const {
  const Block& b = blocks_[id >> block_bits_];
  const std::size_t offset = id & (block_ - 1);
  std::uint8_t kind[4] = {};
  std::uint32_t parent = 0;
  if (b.parent != nullptr) {
    parent = b.parent[offset];
    std::memcpy(kind, &b.kind[offset * kind_bytes_], kind_bytes_);
  } else {
    const std::size_t record = sizeof(std::uint32_t) + kind_bytes_;
    std::uint8_t bytes[sizeof(std::uint32_t) + 4];
    file_->read(std::uint64_t{id} * record, bytes, record);
    std::memcpy(&parent, bytes, sizeof(std::uint32_t));
    std::memcpy(kind, bytes + sizeof(std::uint32_t), kind_bytes_);
  }
  std::size_t k = 0;
  for (std::size_t i = kind_bytes_; i-- > 0;) k = k << 8 | kind[i];
  return {parent, k};
}

Trace ParentLinks::path(std::uint32_t id) const {
  Trace t;
  while (id != 0) {
    const auto [parent, kind] = link(id);
    t.push_back(kind);
    id = parent;
  }
  std::reverse(t.begin(), t.end());
  return t;
}

std::size_t ParentLinks::memory_bytes() const noexcept {
  // Full blocks still in memory, and the pages of the last block written so
  // far (a block is allocated untouched, so its unwritten pages cost nothing).
  constexpr std::size_t kPage = 4096;
  const std::size_t per_link = sizeof(std::uint32_t) + kind_bytes_;
  if (blocks_.empty()) return 0;
  const std::size_t used = size_ - (blocks_.size() - 1) * block_;
  const auto pages = [](std::size_t bytes) { return (bytes + kPage - 1) / kPage * kPage; };
  return out_.capacity() + (blocks_.size() - 1 - written_blocks_) * block_ * per_link +
         pages(used * sizeof(std::uint32_t)) + pages(used * kind_bytes_);
}

}  // namespace merilo::explore::detail
