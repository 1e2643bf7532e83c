// explore_main.cpp — `make explore` for two-phase commit: the fixed round
// explored to the end, then each seeded bug found on its own.
#include <string_view>

#include <merilo/explore/explore.hpp>

#include <common/seeded_bug.hpp>
#include <twophase/system.hpp>

namespace {

template <twophase::Bugs bugs>
bool finds(std::string_view name) {
  twophase::System<bugs> sys;
  return examples::expect_seeded_bug(sys, name, 50'000);
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
