// explore_main.cpp — `make explore` for the mutex: the fixed server
// explored to the end, then the seeded duplicate grant found.
#include <merilo/explore/explore.hpp>

#include <common/seeded_bug.hpp>
#include <mutex/system.hpp>

int main() {
  mutex::System<> fixed;
  const auto ok = merilo::explore::explore(
      fixed, {.max_states = 20'000, .require_complete = true, .name = "mutex"});
  mutex::System<mutex::Bug::duplicate_grant> buggy;
  const bool found = examples::expect_seeded_bug(buggy, "mutex, seeded duplicate grant", 20'000);
  return ok.ok() && found ? 0 : 1;
}
