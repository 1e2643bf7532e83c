// bench_lincheck.cpp — merilo-lincheck's cost per file, in-process: how long
// `lincheck::run` takes on a 500-operation history whose search is short,
// split into reading (JSON Lines or EDN, parsing and pairing) and the rest
// (converting to the model's operations, the search, the verdict line).
// Each row is the mean over many runs, after a warm-up, in CPU time of this
// (single-threaded) process, so a busy shared machine slows the run but not
// the figures. The issue-23 target is a fixed cost (everything but the
// search) of at most 0.2 ms.
//
//   bench_lincheck [RUNS]     default 400
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>

#include <time.h>  // clock_gettime, CLOCK_PROCESS_CPUTIME_ID

#include "history_file.hpp"
#include "lincheck.hpp"
#include "register_sim.hpp"

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
  static const std::regex key("\"([a-z]+)\": ");
  std::string out = std::regex_replace(jsonl, key, ":$1 ");
  static const std::regex null("null");
  return std::regex_replace(out, null, "nil");
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
  if (runs < 1) {
    std::fputs("usage: bench_lincheck [RUNS]\n", stderr);
    return 2;
  }
  merilo::linearize::sim::Options o;
  o.processes = 5;
  o.operations = 500;
  o.seed = 1;
  const std::string jsonl = merilo::linearize::sim::to_jsonl(merilo::linearize::sim::simulate_register(o));
  o.operations = 1;
  const std::string one = merilo::linearize::sim::to_jsonl(merilo::linearize::sim::simulate_register(o));
  std::printf("| history | format | operations | bytes | read µs | convert + check + print µs | "
              "run() µs |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
  row("register, 5 processes", jsonl, "jsonl", runs);
  row("register, 5 processes", to_edn(jsonl), "edn", runs);
  row("one operation", one, "jsonl", runs);
  return 0;
}
