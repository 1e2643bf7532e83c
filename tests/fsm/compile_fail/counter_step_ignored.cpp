// Rule: a number is checked against its bound before it changes. The answer
// of fsm::Counter::inc() — the next counter and whether it moved — is
// [[nodiscard]], so dropping it (and with it the refusal at the limit) does
// not compile under -Werror. With MERILO_EXPECT_OK the answer is used.
#include <merilo/fsm/fsm.hpp>

namespace fsm = merilo::fsm;

bool can_retry(const fsm::Counter& retries) {
#ifdef MERILO_EXPECT_OK
  return retries.inc().ok;
#else
  retries.inc();
  return true;
#endif
}
