// Rule: a counter is an fsm::Counter, 64-bit with a limit, and it only
// moves through `inc()`, which refuses at the limit instead of wrapping.
// Counter has no ++ or +=, so counting past its bound without asking does
// not compile. With MERILO_EXPECT_OK the counter is moved through `inc()`
// and its refusal read, and the code must compile.
#include <merilo/fsm/fsm.hpp>

namespace fsm = merilo::fsm;

fsm::Counter retry(fsm::Counter retries, bool& gave_up) {
#ifdef MERILO_EXPECT_OK
  auto [next, ok] = retries.inc();
  gave_up = !ok;
  return next;
#else
  gave_up = false;
  ++retries;
  return retries;
#endif
}
