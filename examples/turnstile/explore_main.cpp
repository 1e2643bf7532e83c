// explore_main.cpp — `make explore` for the turnstile: one summary line.
#include <merilo/explore/explore.hpp>

#include <turnstile/system.hpp>

int main() {
  turnstile::System<> sys;
  const auto r = merilo::explore::explore(
      sys, {.max_states = 100, .require_complete = true, .name = "turnstile"});
  return r.ok() ? 0 : 1;
}
