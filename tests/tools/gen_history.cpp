// gen_history.cpp — writes simulated histories as JSON Lines, for the
// merilo-lincheck tests and benchmarks:
//
//   gen_history PROCESSES OPERATIONS SEED [STALE_AT]       a register (register_sim.hpp)
//   gen_history kv CLIENTS OPERATIONS KEYS SEED [stale]     get/put/append (jepsen_sim.hpp)
//   gen_history etcd LIVE_CLIENTS OPERATIONS SEED           read/write/cas with timeouts
//   gen_history queue-fill N                                N enqueues, then N dequeues
//   gen_history kv-grow N BYTES                             N appends of BYTES to one key, a get
//
// The last two grow the model with the history (a queue N long, a value of
// N * BYTES bytes): the memory tests run them under a `ulimit -v`. Two
// processes take turns, each call overlapping the next one's invoke.
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
      "       gen_history etcd LIVE_CLIENTS OPERATIONS SEED\n"
      "       gen_history queue-fill N\n"
      "       gen_history kv-grow N BYTES\n",
      stderr);
  return 2;
}

std::size_t number(const char* text) {
  return static_cast<std::size_t>(std::strtoull(text, nullptr, 10));
}

int write(const std::string& text) {
  return std::fwrite(text.data(), 1, text.size(), stdout) == text.size() ? 0 : 1;
}

// One JSON Lines event.
std::string event(std::size_t process, const char* type, const char* f, const std::string& value,
                  const char* key) {
  std::string line = "{\"process\": " + std::to_string(process) + ", \"type\": \"" + type +
                     "\", \"f\": \"" + f + "\"";
  if (!value.empty()) line += ", \"value\": " + value;
  if (key != nullptr) line += std::string(", \"key\": \"") + key + "\"";
  return line + "}\n";
}

// Calls on two processes, each invoked while the one before is still open
// (invoke 0, invoke 1, ok 0, invoke 0, ok 1, ...): the search must order each
// pair, yet the history is linearizable in invoke order.
struct Overlapped {
  std::string text;
  std::size_t calls = 0;
  std::string open_ok;  // the completion still to write
  void call(const std::string& invoke, const std::string& ok) {
    text += invoke;
    text += open_ok;
    open_ok = ok;
    ++calls;
  }
  std::string done() { return text + open_ok; }
};

int queue_fill(std::size_t n) {
  Overlapped h;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string v = std::to_string(i);
    h.call(event(i % 2, "invoke", "enqueue", v, nullptr),
           event(i % 2, "ok", "enqueue", v, nullptr));
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::string v = std::to_string(i);
    h.call(event(i % 2, "invoke", "dequeue", "", nullptr),
           event(i % 2, "ok", "dequeue", v, nullptr));
  }
  return write(h.done());
}

int kv_grow(std::size_t n, std::size_t bytes) {
  Overlapped h;
  std::string all;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string piece(bytes, static_cast<char>('a' + i % 26));
    all += piece;
    const std::string v = "\"" + piece + "\"";
    h.call(event(i % 2, "invoke", "append", v, "k"), event(i % 2, "ok", "append", v, "k"));
  }
  std::string text = h.done();
  text += event(0, "invoke", "get", "", "k");
  text += event(0, "ok", "get", "\"" + all + "\"", "k");
  return write(text);
}

}  // namespace

int main(int argc, char** argv) {
  namespace js = merilo::jepsen_sim;
  if (argc >= 6 && std::strcmp(argv[1], "kv") == 0) {
    const bool stale = argc > 6 && std::strcmp(argv[6], "stale") == 0;
    return write(js::to_jsonl(js::simulate_kv(number(argv[2]), number(argv[3]), number(argv[4]),
                                              number(argv[5]), stale)));
  }
  if (argc >= 3 && std::strcmp(argv[1], "queue-fill") == 0) return queue_fill(number(argv[2]));
  if (argc >= 4 && std::strcmp(argv[1], "kv-grow") == 0) {
    return kv_grow(number(argv[2]), number(argv[3]));
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
