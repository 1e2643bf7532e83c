// err() returns a Refusal that must be read; dropping it fails under -Werror.
#include <merilo/fsm/fsm.hpp>

bool handle(merilo::fsm::Outcome o) {
#ifdef MERILO_EXPECT_OK
  return static_cast<bool>(merilo::fsm::err(o));
#else
  merilo::fsm::err(o);
  return true;
#endif
}
