// Rule: a machine's fields change only through `fire`. They are private, so
// a holder that writes one directly — here forcing a turnstile open without
// a coin — does not compile. With MERILO_EXPECT_OK the holder fires the
// event instead and the code must compile.
#include <merilo/fsm/fsm.hpp>

#include <turnstile/turnstile.hpp>

turnstile::Turnstile open(turnstile::Turnstile t) {
#ifdef MERILO_EXPECT_OK
  auto [next, actions, outcome] = t.fire(turnstile::Event::coin);
  if (merilo::fsm::err(outcome)) return t;
  return next;
#else
  t.state_ = turnstile::State::unlocked;
  return t;
#endif
}
