// Rule: a switch on fsm::Outcome names every outcome, `none` included; a
// `default:` does not excuse a missing one (-Werror=switch-enum still
// refuses it), so an outcome added to fsm later is handled everywhere.
// With MERILO_EXPECT_OK every outcome is named and the code must compile.
#include <merilo/fsm/fsm.hpp>

#include <string_view>

namespace fsm = merilo::fsm;

std::string_view verdict(fsm::Outcome o) {
  switch (o) {
    case fsm::Outcome::moved:
    case fsm::Outcome::ignored:
      return "ok";
    case fsm::Outcome::rejected:
    case fsm::Outcome::invalid:
#ifdef MERILO_EXPECT_OK
    case fsm::Outcome::none:
#endif
      return "refused";
    default:
      return "out of range";
  }
}
