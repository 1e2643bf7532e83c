// gen_history.cpp — writes simulated histories as JSON Lines, for the
// merilo-lincheck tests and benchmarks:
//
//   gen_history PROCESSES OPERATIONS SEED [STALE_AT]       a register (register_sim.hpp)
//   gen_history kv CLIENTS OPERATIONS KEYS SEED [stale]     get/put/append (jepsen_sim.hpp)
//   gen_history etcd LIVE_CLIENTS OPERATIONS SEED           read/write/cas with timeouts
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "jepsen_sim.hpp"
#include "register_sim.hpp"

namespace {

int usage() {
  std::fputs(
      "usage: gen_history PROCESSES OPERATIONS SEED [STALE_AT]\n"
      "       gen_history kv CLIENTS OPERATIONS KEYS SEED [stale]\n"
      "       gen_history etcd LIVE_CLIENTS OPERATIONS SEED\n",
      stderr);
  return 2;
}

std::size_t number(const char* text) {
  return static_cast<std::size_t>(std::strtoull(text, nullptr, 10));
}

int write(const std::string& text) {
  return std::fwrite(text.data(), 1, text.size(), stdout) == text.size() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  namespace js = merilo::jepsen_sim;
  if (argc >= 6 && std::strcmp(argv[1], "kv") == 0) {
    const bool stale = argc > 6 && std::strcmp(argv[6], "stale") == 0;
    return write(js::to_jsonl(js::simulate_kv(number(argv[2]), number(argv[3]), number(argv[4]),
                                              number(argv[5]), stale)));
  }
  if (argc >= 5 && std::strcmp(argv[1], "etcd") == 0) {
    return write(
        js::to_jsonl(js::simulate_etcd(number(argv[2]), number(argv[3]), number(argv[4]))));
  }
  if (argc < 4) return usage();
  merilo::linearize::sim::Options o;
  o.processes = number(argv[1]);
  o.operations = number(argv[2]);
  o.seed = number(argv[3]);
  o.info_per_mille = 0;
  if (argc > 4) o.stale_read_at = number(argv[4]);
  return write(merilo::linearize::sim::to_jsonl(merilo::linearize::sim::simulate_register(o)));
}
