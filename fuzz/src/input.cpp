// input.cpp — reading and writing the fuzz input format (input.hpp).
#include <merilo/fuzz/input.hpp>

#include <algorithm>
#include <string>

namespace merilo::fuzz {

Input::Input(std::span<const std::uint8_t> bytes, std::size_t kinds) noexcept
    : bytes_(bytes), mask_(std::min(bytes.size(), mask_bytes(kinds))), pos_(mask_) {}

bool Input::masked(explore::Kind k) const noexcept {
  const std::size_t byte = k / 8;
  if (byte >= mask_) return false;
  const unsigned bits = bytes_[byte];
  return ((bits >> (k % 8)) & 1U) != 0;
}

bool Input::next(std::uint64_t& value) noexcept {
  std::uint64_t v = 0;
  unsigned shift = 0;
  for (std::size_t i = pos_; i < bytes_.size(); ++i) {
    const std::uint8_t b = bytes_[i];
    if (shift < 64) v |= static_cast<std::uint64_t>(b & 0x7FU) << shift;
    shift += 7;
    if ((b & 0x80U) == 0) {
      pos_ = i + 1;
      value = v;
      return true;
    }
  }
  pos_ = bytes_.size();  // a varint cut off by the end is dropped
  return false;
}

explore::Kind choose(std::uint64_t value, std::span<const explore::Kind> candidates) noexcept {
  // Candidates are sorted, so a binary search finds a named kind.
  if (std::binary_search(candidates.begin(), candidates.end(), value)) {
    return static_cast<explore::Kind>(value);
  }
  return candidates[static_cast<std::size_t>(value % candidates.size())];
}

void append_varint(std::vector<std::uint8_t>& out, std::uint64_t value) {
  while (value >= 0x80U) {
    out.push_back(static_cast<std::uint8_t>(value | 0x80U));
    value >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(value));
}

FuzzBytes to_fuzz_bytes(std::size_t kinds, const explore::Trace& trace) {
  FuzzBytes out;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (trace[i] >= kinds) {
      out.error = "merilo: to_fuzz_bytes: step " + std::to_string(i + 1) + " takes kind " +
                  std::to_string(trace[i]) + " but the system has " + std::to_string(kinds) +
                  " kinds";
      return out;
    }
  }
  out.bytes.assign(mask_bytes(kinds), 0);
  for (explore::Kind k : trace) append_varint(out.bytes, k);
  return out;
}

}  // namespace merilo::fuzz
