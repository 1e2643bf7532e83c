// bench_lincheck.cpp — merilo-lincheck's cost per file, in-process: how long
// `lincheck::run` takes on a 500-operation history whose search is short,
// split into reading (JSON Lines or EDN, parsing and pairing) and the rest
// (converting to the model's operations, the search, the verdict line).
// Each row is the mean over many runs, after a warm-up, in CPU time of this
// (single-threaded) process, so a busy shared machine slows the run but not
// the figures. The issue-23 target is a fixed cost (everything but the
// search) of at most 0.2 ms.
//
//   bench_lincheck [RUNS [ROW]]   RUNS default 400; ROW jsonl, edn or one runs only that row
//
// Under `perf stat -e instructions:u`, two runs with different RUNS and
// one ROW give its instructions per file (the difference over 2 x ΔRUNS,
// reading and run() each running RUNS + 1 times): a figure the load of a
// shared machine does not move.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include <time.h>  // clock_gettime, CLOCK_PROCESS_CPUTIME_ID

#include "history_file.hpp"
#include "lincheck.hpp"

namespace {

double cpu_us() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) / 1e3;
}

// JSON Lines as EDN: "key": becomes :key and null nil (commas are
// whitespace in EDN, strings stay strings, which the reader takes for
// :type and :f as it takes keywords).
std::string to_edn(const std::string& jsonl) {
  std::string out;
  out.reserve(jsonl.size());
  for (std::size_t i = 0; i < jsonl.size();) {
    if (jsonl.compare(i, 4, "null") == 0) {
      out += "nil";
      i += 4;
      continue;
    }
    if (jsonl[i] == '"') {  // "key": becomes :key; other strings stay
      const std::size_t close = jsonl.find('"', i + 1);
      if (jsonl.compare(close + 1, 1, ":") == 0) {
        out += ':';
        out.append(jsonl, i + 1, close - i - 1);
        i = close + 2;
        continue;
      }
      out.append(jsonl, i, close + 1 - i);
      i = close + 1;
      continue;
    }
    out += jsonl[i++];
  }
  return out;
}

// `pairs` x 2 operations on one register by 5 processes, in overlapping
// pairs (a write and a read invoked together, the read seeing the write),
// as Jepsen writes them: a history whose search is a few steps per call.
std::string register_history(int pairs) {
  std::string out;
  for (int i = 0; i < pairs; ++i) {
    const int w = (2 * i) % 5;
    const int r = (2 * i + 1) % 5;
    const std::string v = std::to_string(i);
    out += "{\"process\": " + std::to_string(w) +
           ", \"type\": \"invoke\", \"f\": \"write\", \"value\": " + v + "}\n";
    out += "{\"process\": " + std::to_string(r) +
           ", \"type\": \"invoke\", \"f\": \"read\", \"value\": null}\n";
    out += "{\"process\": " + std::to_string(w) +
           ", \"type\": \"ok\", \"f\": \"write\", \"value\": " + v + "}\n";
    out += "{\"process\": " + std::to_string(r) +
           ", \"type\": \"ok\", \"f\": \"read\", \"value\": " + v + "}\n";
  }
  return out;
}

template <class F>
double mean_us(int runs, F&& f) {
  f();  // warm-up
  const double start = cpu_us();
  for (int i = 0; i < runs; ++i) f();
  return (cpu_us() - start) / runs;
}

void row(const char* name, const std::string& text, const std::string& format, int runs) {
  using namespace merilo::lincheck;
  ReadOptions read;
  read.fs = {"read", "write", "cas"};
  read.model = "register";
  std::size_t ops = 0;
  const double read_us = mean_us(runs, [&] {
    std::istringstream in(text);
    RawHistory h;
    auto e = format == "edn" ? read_edn_history(in, read, h) : read_history(in, read, h);
    if (e) {
      std::fprintf(stderr, "bench_lincheck: %s\n", e->text().c_str());
      std::exit(1);
    }
    ops = h.ops.size();
  });
  Args args;
  args.model = "register";
  args.format = format;
  std::string verdict;
  const double run_us = mean_us(runs, [&] {
    std::istringstream in(text);
    std::ostringstream out;
    std::ostringstream err;
    if (run(args, in, out, err) != kLinearizable) {
      std::fprintf(stderr, "bench_lincheck: expected linearizable: %s%s\n", out.str().c_str(),
                   err.str().c_str());
      std::exit(1);
    }
    verdict = out.str();
  });
  std::printf("| %s | %s | %zu | %zu | %.1f | %.1f | %.1f |\n", name, format.c_str(), ops,
              text.size(), read_us, run_us - read_us, run_us);
  std::fprintf(stderr, "  %s", verdict.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 400;
  const std::string only = argc > 2 ? argv[2] : "";
  if (runs < 1 || (only != "" && only != "jsonl" && only != "edn" && only != "one")) {
    std::fputs("usage: bench_lincheck [RUNS [jsonl|edn|one]]\n", stderr);
    return 2;
  }
  const std::string jsonl = register_history(250);
  const std::string one =
      "{\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", \"value\": 1}\n"
      "{\"process\": 0, \"type\": \"ok\", \"f\": \"write\", \"value\": 1}\n";
  std::printf(
      "| history | format | operations | bytes | read µs | convert + check + print µs | "
      "run() µs |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
  if (only.empty() || only == "jsonl") row("register, 5 processes", jsonl, "jsonl", runs);
  if (only.empty() || only == "edn") row("register, 5 processes", to_edn(jsonl), "edn", runs);
  if (only.empty() || only == "one") row("one operation", one, "jsonl", runs);
  return 0;
}
