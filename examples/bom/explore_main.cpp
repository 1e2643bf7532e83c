// explore_main.cpp — `make explore` for the bill of materials: every bill
// of up to three lines over three parts, rolled up by the machine and by
// plain recursion.
#include <merilo/explore/explore.hpp>

#include <bom/system.hpp>

int main() {
  bom::System<> sys;
  const auto r = merilo::explore::explore(
      sys, {.max_states = 50'000, .require_complete = true, .name = "bom"});
  return r.ok() ? 0 : 1;
}
