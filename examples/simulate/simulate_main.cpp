// simulate_main.cpp — `make explore MODE=simulate`: seeded random walks over
// the systems `make explore` searches, one summary line per system.
//
//   simulate_examples SEED [WALKS [DEPTH]]   (WALKS 1000 and DEPTH 100 by default)
//
// Every fixed system must pass its walks (exit 1 otherwise). For each
// seeded bug the walks either find it (an expected finding, on its summary
// line) or miss it, which is noted and is not a failure: walks prove
// nothing, and a seed or a walk count may simply not reach the bug. TwoPhase
// (tla_twophase) runs at 12 RMs, a space no search here finishes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <merilo/explore/simulate.hpp>

#include <bom/system.hpp>
#include <mutex/system.hpp>
#include <order/system.hpp>
#include <quorum/system.hpp>
#include <relay/system.hpp>
#include <tla_twophase/system.hpp>
#include <turnstile/system.hpp>
#include <twophase/system.hpp>
#include <watchdog/system.hpp>

namespace {

namespace ex = merilo::explore;

struct Walks {
  std::uint64_t seed = 0;
  std::size_t walks = 0;
  std::size_t depth = 0;
  bool ok = true;  // every fixed system passed
};

ex::SimulateOptions options(const Walks& w, std::string_view name) {
  return {.walks = w.walks, .max_depth = w.depth, .seed = w.seed, .name = name};
}

// A fixed system: its walks must pass (simulate logs the summary line).
template <class S>
void fixed(Walks& w, std::string_view name) {
  S sys;
  const ex::SimulateResult r = ex::simulate(sys, options(w, name));
  if (!r.ok()) {
    std::fprintf(stderr, "merilo: %s: FAILED (a fixed system must pass its walks)\n",
                 std::string(name).c_str());
    w.ok = false;
  }
}

// A seeded bug: found or missed, both reported, neither a failure.
template <class S>
void seeded(Walks& w, std::string_view name) {
  S sys;
  ex::SimulateOptions o = options(w, name);
  o.quiet = true;
  const ex::SimulateResult r = ex::simulate(sys, o);
  if (!r.error.empty()) {
    std::fprintf(stderr, "merilo: %s: %s\n", std::string(name).c_str(), r.error.c_str());
    w.ok = false;
  } else if (r.violation.found()) {
    std::fprintf(stderr, "%s (expected finding, seeded bug)\n", r.summary().c_str());
  } else {
    std::fprintf(stderr, "%s (missed the seeded bug: walks prove nothing; try more WALKS)\n",
                 r.summary().c_str());
  }
}

// A positive number from argv, or 0 when it is not one.
std::uint64_t number(const char* text) {
  char* end = nullptr;
  const unsigned long long n = std::strtoull(text, &end, 10);
  return end == text || *end != '\0' || text[0] == '-' ? 0 : n;
}

}  // namespace

int main(int argc, char** argv) {
  Walks w;
  w.seed = argc > 1 ? number(argv[1]) : 0;
  w.walks = argc > 2 ? static_cast<std::size_t>(number(argv[2])) : 1'000;
  w.depth = argc > 3 ? static_cast<std::size_t>(number(argv[3])) : 100;
  if (argc < 2 || argc > 4 || w.seed == 0 || w.walks == 0 || w.depth == 0) {
    std::fputs(
        "usage: simulate_examples SEED [WALKS [DEPTH]]   (positive numbers; WALKS 1000 "
        "and DEPTH 100 by default)\n",
        stderr);
    return 2;
  }
  fixed<bom::System<>>(w, "bom");
  fixed<mutex::System<>>(w, "mutex");
  seeded<mutex::System<mutex::Bug::duplicate_grant>>(w, "mutex, seeded duplicate grant");
  fixed<order::System>(w, "order");
  fixed<quorum::System<quorum::Bug::none, 6>>(w, "quorum");
  seeded<quorum::System<quorum::Bug::half_quorum, 6>>(w, "quorum, seeded half quorum");
  fixed<relay::System<>>(w, "relay");
  seeded<relay::System<relay::Bug::short_sequence>>(w, "relay, seeded short sequence");
  fixed<tla_twophase::System<12>>(w, "tla_twophase 12 RMs");
  seeded<tla_twophase::System<12, tla_twophase::Bug::early_commit>>(
      w, "tla_twophase 12 RMs, seeded early commit");
  fixed<turnstile::System<>>(w, "turnstile");
  fixed<twophase::System<>>(w, "twophase");
  seeded<twophase::System<twophase::Bugs{.commit_on_first_yes = true}>>(
      w, "twophase, seeded commit on first yes");
  seeded<twophase::System<twophase::Bugs{.log_after_ack = true}>>(w,
                                                                  "twophase, seeded log after ack");
  fixed<watchdog::System<>>(w, "watchdog");
  seeded<watchdog::System<watchdog::Bug::narrow_generation>>(w,
                                                             "watchdog, seeded narrow generation");
  return w.ok ? 0 : 1;
}
