// symmetry.cpp — the words of the canonical-form check: what differs
// between a world and its canonical form, and the usage error that says so.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

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

std::string canonical_error(const std::string& rule, const Trace& path) {
  return fmt::format(
      "merilo: canonical() is not a symmetry of the system: {} (w is the world the trace {} "
      "reaches); worlds with one canonical form are stored as one, so they must behave alike",
      rule, to_string(path));
}

}  // namespace merilo::explore::detail
