// invariants.cpp — which named-predicate lists a search, replay or fuzz run
// refuses: empty names, names listed twice, missing predicates, and (for
// sometimes properties) more than the explorer can track.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include <merilo/explore/detail/sometimes.hpp>
#include <merilo/explore/step.hpp>

namespace merilo::explore::detail {

namespace {
// The first problem of a list returned by `member` whose entries are called
// `noun`s (`needs` says why each must be named), or "".
std::string named_list_error(std::string_view member, std::string_view noun, std::string_view needs,
                             const std::vector<std::string>& names, const std::vector<bool>& null) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) {
      return fmt::format("merilo: {} lists {} with an empty name (number {} of {}); {}", member,
                         noun, i + 1, names.size(), needs);
    }
    if (null[i]) {
      return fmt::format("merilo: {} lists \"{}\" without a predicate (a null holds)", member,
                         names[i]);
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (names[j] == names[i]) {
        return fmt::format(
            "merilo: {} lists \"{}\" twice (numbers {} and {}); a result could not say which "
            "one it means",
            member, names[i], j + 1, i + 1);
      }
    }
  }
  return {};
}
}  // namespace

std::string invariant_list_error(const std::vector<std::string>& names,
                                 const std::vector<bool>& null) {
  return named_list_error("invariants()", "an invariant",
                          "every invariant needs the name violations report it under", names, null);
}

std::string sometimes_list_error(const std::vector<std::string>& names,
                                 const std::vector<bool>& null) {
  if (names.size() > kMaxSometimes) {
    return fmt::format(
        "merilo: sometimes() lists {} properties, above the limit of {} "
        "(kMaxSometimes)",
        names.size(), kMaxSometimes);
  }
  return named_list_error("sometimes()", "a property",
                          "every property needs the name the summary reports it under", names,
                          null);
}

}  // namespace merilo::explore::detail
