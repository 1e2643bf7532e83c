// Rule: any number a machine keeps is 64-bit, and a value is never cut to
// fit a narrower field: a 32-bit generation wraps after 2^32 timers (and a
// plain `int` at 2^31, or 2^15 on small targets). -Wconversion (an error in
// the build) refuses the silent narrowing. With MERILO_EXPECT_OK the field
// is 64-bit and the code must compile.
#include <merilo/fsm/fsm.hpp>

#include <cstdint>

namespace fsm = merilo::fsm;

struct Generation {
#ifdef MERILO_EXPECT_OK
  std::uint64_t value = 0;
#else
  std::uint32_t value = 0;
#endif
};

Generation advance(Generation g, const fsm::Counter& issued) {
  g.value = issued.value();
  return g;
}
