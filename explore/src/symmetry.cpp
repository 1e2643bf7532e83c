// symmetry.cpp — the words of the canonical-form check: what differs
// between a world and its canonical form (what each shows, where one step
// from each leads), and the usage error that says so.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <merilo/core/text.hpp>
#include <merilo/explore/detail/symmetry.hpp>
#include <merilo/explore/trace.hpp>

namespace merilo::explore::detail {

std::string observed_difference(const Observed& w, const Observed& c,
                                const std::vector<std::string>& sometimes) {
  if (w.enabled != c.enabled) {
    return fmt::format("w enables {} kinds but canonical(w) enables {}", w.enabled, c.enabled);
  }
  if (w.settled != c.settled) {
    return fmt::format("settled() is {} in w but {} in canonical(w)", w.settled, c.settled);
  }
  if (w.tuple != c.tuple) {
    return fmt::format("tuple() is \"{}\" in w but \"{}\" in canonical(w)", w.tuple, c.tuple);
  }
  const std::uint64_t differ = w.sometimes ^ c.sometimes;
  for (std::size_t i = 0; i < sometimes.size() && i < 64; ++i) {
    if ((differ >> i & 1U) == 0) continue;
    const bool in_w = (w.sometimes >> i & 1U) != 0;
    return fmt::format("sometimes property \"{}\" is {} in w but {} in canonical(w)", sometimes[i],
                       in_w ? "satisfied" : "not satisfied", in_w ? "not" : "it is");
  }
  return {};
}

namespace {

bool before(const Fingerprint& a, const Fingerprint& b) noexcept {
  return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
}

}  // namespace

SuccessorMismatch successor_mismatch(const std::vector<Successor>& from_w,
                                     const std::vector<Successor>& from_c) {
  const auto sorted = [](const std::vector<Successor>& list) {
    std::vector<Fingerprint> fps;
    fps.reserve(list.size());
    for (const Successor& s : list) fps.push_back(s.fp);
    std::sort(fps.begin(), fps.end(), before);
    return fps;
  };
  const std::vector<Fingerprint> w = sorted(from_w);
  const std::vector<Fingerprint> c = sorted(from_c);
  for (std::size_t i = 0; i < from_c.size(); ++i) {
    if (!std::binary_search(w.begin(), w.end(), from_c[i].fp, before)) return {true, false, i};
  }
  for (std::size_t i = 0; i < from_w.size(); ++i) {
    if (!std::binary_search(c.begin(), c.end(), from_w[i].fp, before)) return {true, true, i};
  }
  return {};
}

std::string successor_rule(const std::string& step, bool from_w, const std::string& shown) {
  const char* here = from_w ? "w" : "canonical(w)";
  const char* there = from_w ? "canonical(w)" : "w";
  if (step.empty()) {
    return fmt::format(
        "a step from {} reaches a world whose canonical form no step from {} "
        "reaches{}",
        here, there, shown);
  }
  return fmt::format(
      "step \"{}\" from {} reaches a world whose canonical form no step from {} reaches{}",
      core::printable(step), here, there, shown);
}

std::string shown_worlds(const std::string& w, const std::string& c) {
  return fmt::format(" (w shows \"{}\", canonical(w) shows \"{}\")", core::printable(w),
                     core::printable(c));
}

std::string canonical_error(const std::string& rule, const Trace& path) {
  return fmt::format(
      "merilo: canonical() is not a symmetry of the system: {} (w is the world the trace {} "
      "reaches); worlds with one canonical form are stored as one, so they must behave alike",
      rule, to_string(path));
}

}  // namespace merilo::explore::detail
