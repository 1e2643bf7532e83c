// gen_history.cpp — writes a simulated register history as JSON Lines, for
// the merilo-lincheck tests: gen_history PROCESSES OPERATIONS SEED [STALE_AT] > FILE
#include <cstdio>
#include <cstdlib>
#include <string>

#include "register_sim.hpp"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fputs("usage: gen_history PROCESSES OPERATIONS SEED [STALE_AT]\n", stderr);
    return 2;
  }
  merilo::linearize::sim::Options o;
  o.processes = std::strtoull(argv[1], nullptr, 10);
  o.operations = std::strtoull(argv[2], nullptr, 10);
  o.seed = std::strtoull(argv[3], nullptr, 10);
  o.info_per_mille = 0;
  if (argc > 4) o.stale_read_at = std::strtoull(argv[4], nullptr, 10);
  const std::string text =
      merilo::linearize::sim::to_jsonl(merilo::linearize::sim::simulate_register(o));
  return std::fwrite(text.data(), 1, text.size(), stdout) == text.size() ? 0 : 1;
}
