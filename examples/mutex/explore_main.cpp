// explore_main.cpp — `make explore` for the mutex: the fixed server
// explored to the end, then the seeded duplicate grant found.
#include <cstdio>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>

#include <mutex/system.hpp>

int main() {
  mutex::System<> fixed;
  const auto ok = merilo::explore::explore(
      fixed, {.max_states = 20'000, .require_complete = true, .name = "mutex"});
  mutex::System<mutex::Bug::duplicate_grant> buggy;
  const auto found = merilo::explore::explore(
      buggy, {.max_states = 20'000, .name = "mutex, seeded duplicate grant"});
  if (found.violation.found()) {
    std::fputs(merilo::explore::format(buggy, found.violation.trace).c_str(), stderr);
  }
  return ok.ok() && found.violation.found() ? 0 : 1;
}
