// explore_main.cpp — `make explore` for the order: one summary line.
#include <merilo/explore/explore.hpp>

#include <order/system.hpp>

int main() {
  order::System sys;
  const auto r = merilo::explore::explore(sys, {.max_states = 100'000, .require_complete = true});
  return r.ok() ? 0 : 1;
}
