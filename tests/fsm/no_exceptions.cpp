// no_exceptions.cpp — fsm.hpp and a real machine under -fno-exceptions
// -fno-rtti: built with those flags, and run, it checks the turnstile's
// transitions at compile time and at run time.
#include <merilo/fsm/fsm.hpp>

#include <turnstile/turnstile.hpp>

namespace {
using turnstile::Event;
using turnstile::State;
using turnstile::Turnstile;

constexpr bool transitions_hold() {
  const Turnstile t = Turnstile::make();
  const auto coin = t.fire(Event::coin);
  const auto push = coin.next.fire(Event::push);
  return coin.outcome == merilo::fsm::Outcome::moved && coin.next.state() == State::unlocked &&
         push.next.state() == State::locked &&
         static_cast<bool>(merilo::fsm::err(t.fire(Event::push).outcome));
}
static_assert(transitions_hold());
}  // namespace

int main(int argc, char**) {
  // argc keeps the run-time path from folding away.
  const Event e = argc > 0 ? Event::coin : Event::push;
  const auto fired = Turnstile::make().fire(e);
  return merilo::fsm::err(fired.outcome) ? 1 : 0;
}
