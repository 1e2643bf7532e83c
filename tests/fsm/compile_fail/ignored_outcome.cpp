// Dropping what fire() returns is a bug that -Werror must refuse: the
// outcome is never read. With MERILO_EXPECT_OK the result is read.
#include <merilo/fsm/fsm.hpp>

#include <turnstile/turnstile.hpp>

turnstile::Turnstile step(turnstile::Turnstile t) {
#ifdef MERILO_EXPECT_OK
  auto fired = t.fire(turnstile::Event::coin);
  if (merilo::fsm::err(fired.outcome)) return t;
  return fired.next;
#else
  t.fire(turnstile::Event::coin);
  return t;
#endif
}
