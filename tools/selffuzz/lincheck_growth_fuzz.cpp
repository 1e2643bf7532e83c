// lincheck_growth_fuzz.cpp — fuzzes merilo-lincheck on kv and queue
// histories whose model grows with the history: a short input unrolls into
// thousands of operations (a queue thousands of items long, a kv value
// tens of kilobytes long), which the plain history fuzzer, writing JSON
// byte by byte, rarely reaches. Byte 0: bit 0 picks kv or queue, bit 1
// --explain, bits 2-3 the number of processes (2-5), bit 4 perturbs one
// response. Each later byte is a run: bits 0-1 its kind, bits 2-7 its
// length (1-64 calls). Queue: enqueues, dequeues of the right front (or
// null), calls that never complete, enqueues of repeated values. Kv (one
// key): appends of 4 bytes, gets of the whole value, puts, appends that
// never complete. Each call is invoked before the one before it completes,
// so the search orders overlapping calls. Whatever the input, the run
// must end with exit 0-3, never 4 (internal error, such as running out of
// memory), a crash or a hang: budget 20,000 steps, 1 s timeout, 8 MiB
// cache, 1 MiB lines. With a model copy per placed call this shape grew
// memory with the square of the history; libFuzzer's -rss_limit_mb (2 GB
// by default) reports that.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "lincheck_run.hpp"
#include "seeds.hpp"

namespace {

/// The JSON Lines text of one history, calls overlapping in pairs.
class Writer {
 public:
  explicit Writer(std::size_t processes) : ids_(processes), fresh_(processes, false) {
    for (std::size_t p = 0; p < processes; ++p) ids_[p] = p;
  }

  /// One call: its invoke, then the completion of the call before it.
  /// `ok` empty: the call never completes.
  void call(const std::string& f, const std::string& value, const std::string& ok,
            const char* key) {
    const std::size_t slot = next_++ % ids_.size();
    if (fresh_[slot]) {  // its last call never completed: a new process (as Jepsen does)
      ids_[slot] = ++last_id_ * ids_.size() + slot;
      fresh_[slot] = false;
    }
    text_ += line(ids_[slot], "invoke", f, value, key);
    text_ += pending_;
    pending_ = ok.empty() ? std::string() : line(ids_[slot], "ok", f, ok, key);
    fresh_[slot] = ok.empty();
  }
  std::string done() { return text_ + pending_; }

 private:
  static std::string line(std::size_t process, const char* type, const std::string& f,
                          const std::string& value, const char* key) {
    std::string out = "{\"process\": " + std::to_string(process) + ", \"type\": \"" + type +
                      "\", \"f\": \"" + f + "\"";
    if (!value.empty()) out += ", \"value\": " + value;
    if (key != nullptr) out += std::string(", \"key\": \"") + key + "\"";
    return out + "}\n";
  }

  std::vector<std::size_t> ids_;  // per slot: its current process number
  std::vector<bool> fresh_;       // per slot: needs a new process number
  std::size_t next_ = 0;
  std::size_t last_id_ = 0;
  std::string text_;
  std::string pending_;
};

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string queue_history(const std::uint8_t* data, std::size_t size, std::size_t processes,
                          bool perturb) {
  Writer w(processes);
  std::deque<std::int64_t> items;
  std::int64_t next = 0;
  bool perturbed = !perturb;
  for (std::size_t i = 0; i < size; ++i) {
    const unsigned kind = data[i] & 3U;
    const std::size_t n = 1 + (data[i] >> 2U);
    for (std::size_t k = 0; k < n; ++k) {
      if (kind == 0 || kind == 3) {  // enqueues (kind 3: of repeated values)
        const std::int64_t v = kind == 0 ? next++ : static_cast<std::int64_t>(k % 3);
        items.push_back(v);
        w.call("enqueue", std::to_string(v), std::to_string(v), nullptr);
      } else if (kind == 1) {  // dequeues of the right front, or null
        std::string got = "null";
        if (!items.empty()) {
          got = std::to_string(items.front() + (perturbed ? 0 : 1));  // the first is off
          perturbed = true;
          items.pop_front();
        }
        w.call("dequeue", "", got, nullptr);
      } else {  // calls that never complete
        if (k % 2 == 0) {
          w.call("enqueue", std::to_string(next++), "", nullptr);
        } else {
          w.call("dequeue", "", "", nullptr);
        }
      }
    }
  }
  return w.done();
}

std::string kv_history(const std::uint8_t* data, std::size_t size, std::size_t processes,
                       bool perturb) {
  Writer w(processes);
  std::string value;
  std::size_t pieces = 0;
  bool perturbed = !perturb;
  const auto piece = [&] {
    std::string p = std::to_string(pieces++ % 10000);
    return std::string(4 - p.size(), '.') + p;
  };
  for (std::size_t i = 0; i < size; ++i) {
    const unsigned kind = data[i] & 3U;
    const std::size_t n = 1 + (data[i] >> 2U);
    for (std::size_t k = 0; k < n; ++k) {
      if (kind == 0) {
        const std::string p = piece();
        value += p;
        w.call("append", quoted(p), quoted(p), "k");
      } else if (kind == 1) {
        std::string got = value;
        if (!perturbed && value.size() > 400) {
          got.pop_back();
          perturbed = true;
        }
        w.call("get", "", quoted(got), "k");
      } else if (kind == 2) {
        value = piece();
        w.call("put", quoted(value), quoted(value), "k");
      } else {
        w.call("append", quoted(piece()), "", "k");
      }
    }
  }
  return w.done();
}

std::vector<std::vector<std::uint8_t>> seeds() {
  const auto run = [](unsigned kind, unsigned length) {
    return static_cast<std::uint8_t>(kind | ((length - 1) << 2U));
  };
  // queue: 10,240 enqueues, then as many dequeues, as far as the budget
  // or the timeout goes: with a model copy per placed call, memory grew
  // with the square of the calls placed.
  std::vector<std::uint8_t> fill{0x00};
  fill.insert(fill.end(), 160, run(0, 64));
  fill.insert(fill.end(), 160, run(1, 64));
  return {
      fill,
      // queue: 256 enqueues, 256 dequeues; then with --explain, perturbed
      // (short: refuting a wrong front orders every pair of enqueues).
      {0x00, run(0, 64), run(0, 64), run(0, 64), run(0, 64), run(1, 64), run(1, 64), run(1, 64),
       run(1, 64), run(1, 2)},
      {0x1E, run(0, 12), run(1, 12)},
      // queue: with calls that never complete and repeated values.
      {0x04, run(0, 32), run(2, 4), run(3, 6), run(1, 40), run(0, 8), run(2, 3), run(1, 10)},
      // kv: 256 appends read whole, a put, more appends; then perturbed.
      {0x01, run(0, 64), run(0, 64), run(1, 1), run(0, 64), run(0, 64), run(1, 2), run(2, 1),
       run(0, 64), run(1, 1)},
      {0x1B, run(0, 64), run(0, 64), run(0, 64), run(1, 3)},
      // kv: with appends that never complete.
      {0x09, run(0, 16), run(3, 8), run(0, 32), run(1, 2), run(3, 4), run(0, 8), run(1, 1)},
  };
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  merilo::selffuzz::exit_on_dict_flag(*argc, *argv);
  const std::string dir = merilo::selffuzz::seed_dir(*argc, *argv);
  if (!dir.empty()) merilo::selffuzz::write_seeds(dir, seeds());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool kv = (data[0] & 1U) != 0;
  const std::size_t processes = 2 + ((data[0] >> 2U) & 3U);
  const bool perturb = (data[0] & 0x10U) != 0;
  const std::string history = kv ? kv_history(data + 1, size - 1, processes, perturb)
                                 : queue_history(data + 1, size - 1, processes, perturb);
  merilo::selffuzz::run_lincheck(kv ? "kv" : "queue", (data[0] & 2U) != 0, std::size_t{1} << 20U,
                                 history);
  return 0;
}
