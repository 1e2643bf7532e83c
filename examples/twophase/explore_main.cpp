// explore_main.cpp — `make explore` for two-phase commit: the fixed round
// explored to the end, then each seeded bug found on its own.
#include <cstdio>
#include <string_view>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>

#include <twophase/system.hpp>

namespace {

template <twophase::Bugs bugs>
bool finds(std::string_view name) {
  twophase::System<bugs> sys;
  const auto r = merilo::explore::explore(sys, {.max_states = 50'000, .name = name});
  if (r.violation.found())
    std::fputs(merilo::explore::format(sys, r.violation.trace).c_str(), stderr);
  return r.violation.found();
}

}  // namespace

int main() {
  twophase::System<> fixed;
  const auto ok = merilo::explore::explore(
      fixed, {.max_states = 50'000, .require_complete = true, .name = "twophase"});
  const bool early =
      finds<twophase::Bugs{.commit_on_first_yes = true}>("twophase, seeded commit on first yes");
  const bool lazy = finds<twophase::Bugs{.log_after_ack = true}>("twophase, seeded log after ack");
  return ok.ok() && early && lazy ? 0 : 1;
}
