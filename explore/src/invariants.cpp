// invariants.cpp — which invariant lists a search, replay or fuzz run
// refuses: empty names, names listed twice, missing predicates.
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <merilo/explore/step.hpp>

namespace merilo::explore::detail {

std::string invariant_list_error(const std::vector<std::string>& names,
                                 const std::vector<bool>& null) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) {
      return fmt::format(
          "merilo: invariants() lists an invariant with an empty name (number {} of {}); every "
          "invariant needs the name violations report it under",
          i + 1, names.size());
    }
    if (null[i]) {
      return fmt::format("merilo: invariants() lists \"{}\" without a predicate (a null holds)",
                         names[i]);
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (names[j] == names[i]) {
        return fmt::format(
            "merilo: invariants() lists \"{}\" twice (numbers {} and {}); a violation could not "
            "say which one broke",
            names[i], j + 1, i + 1);
      }
    }
  }
  return {};
}

}  // namespace merilo::explore::detail
