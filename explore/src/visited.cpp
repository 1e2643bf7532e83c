// visited.cpp — the open-addressing fingerprint set and the parent links.
#include <algorithm>

#include <merilo/explore/detail/visited.hpp>

namespace merilo::explore::detail {

namespace {
constexpr std::size_t kInitialSlots = 1024;

Fingerprint stored(Fingerprint fp) noexcept {
  if (fp.lo == 0 && fp.hi == 0) fp.hi = 1;
  return fp;
}

bool empty(const Fingerprint& fp) noexcept { return fp.lo == 0 && fp.hi == 0; }
}  // namespace

FingerprintSet::FingerprintSet() : slots_(kInitialSlots) {}

bool FingerprintSet::contains(Fingerprint fp) const noexcept {
  fp = stored(fp);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = fp.lo & mask;; i = (i + 1) & mask) {
    if (slots_[i] == fp) return true;
    if (empty(slots_[i])) return false;
  }
}

bool FingerprintSet::insert(Fingerprint fp) {
  if ((size_ + 1) * 2 > slots_.size()) grow();
  fp = stored(fp);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = fp.lo & mask;; i = (i + 1) & mask) {
    if (slots_[i] == fp) return false;
    if (empty(slots_[i])) {
      slots_[i] = fp;
      ++size_;
      return true;
    }
  }
}

void FingerprintSet::grow() {
  std::vector<Fingerprint> old(slots_.size() * 2);
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Fingerprint& fp : old) {
    if (empty(fp)) continue;
    std::size_t i = fp.lo & mask;
    while (!empty(slots_[i])) i = (i + 1) & mask;
    slots_[i] = fp;
  }
}

void FingerprintSet::clear() noexcept {
  if (size_ == 0) return;
  std::fill(slots_.begin(), slots_.end(), Fingerprint{});
  size_ = 0;
}

std::size_t FingerprintSet::memory_bytes() const noexcept {
  return slots_.capacity() * sizeof(Fingerprint);
}

Trace ParentLinks::path(std::uint32_t id) const {
  Trace t;
  while (id != 0) {
    t.push_back(links_[id].kind);
    id = links_[id].parent;
  }
  std::reverse(t.begin(), t.end());
  return t;
}

}  // namespace merilo::explore::detail
