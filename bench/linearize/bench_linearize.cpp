// bench_linearize.cpp — operations checked per second by check_history on
// simulated register histories of growing size and concurrency (1, 10, 50
// processes), on the same histories with one injected stale read (which must
// come out not linearizable), and on 50 processes spread over 100 keys
// (partitioned). One row per history: verdict, search steps, states cached, time, ops/s.
// Each history is checked three times (once when the budget runs out); the
// fastest run is reported.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include <merilo/linearize/history.hpp>
#include <merilo/linearize/models.hpp>

#include "register_sim.hpp"

namespace {

using namespace merilo::linearize;

struct Row {
  std::size_t processes;
  std::size_t operations;
  std::size_t keys;
  bool stale = false;  // inject one stale read halfway: must be not linearizable
};

void run(const Row& row) {
  sim::Options o;
  o.processes = row.processes;
  o.operations = row.operations;
  o.keys = row.keys;
  o.seed = 7;
  o.info_per_mille = 2;
  if (row.stale) o.stale_read_at = row.operations / 2;
  const auto ops = sim::to_operations(sim::simulate_register(o));
  HistoryOptions limits;
  limits.budget = 20'000'000;
  limits.cache_bytes = std::size_t{1} << 30U;
  double best = 1e300;
  HistoryResult<std::string> result;
  for (int i = 0; i < 3; ++i) {
    const auto start = std::chrono::steady_clock::now();
    result = check_history(RegisterSpec{}, RegisterModel{}, ops, limits);
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, s);
    if (result.verdict == Verdict::undecided) break;  // a spent budget takes as long every time
  }
  std::printf("%9zu %5zu %5zu %5s  %-17s %11llu %9zu %8.3f %12.0f\n", ops.size(), row.processes,
              row.keys, row.stale ? "yes" : "no", name(result.verdict),
              static_cast<unsigned long long>(result.evaluations), result.cache_entries, best,
              static_cast<double>(ops.size()) / best);
}

}  // namespace

int main() {
  std::printf(
      "# check_history on simulated registers (2 infos per 1000 ops, seed 7, budget 20M steps)\n");
  std::printf("%9s %5s %5s %5s  %-17s %11s %9s %8s %12s\n", "ops", "procs", "keys", "stale",
              "verdict", "steps", "states", "seconds", "ops/s");
  const std::vector<Row> rows = {
      {1, 1'000, 1},         {1, 10'000, 1},         {1, 100'000, 1},       {10, 1'000, 1},
      {10, 10'000, 1},       {10, 100'000, 1},       {50, 1'000, 1},        {50, 10'000, 1},
      {50, 100'000, 1},      {10, 1'000, 1, true},   {10, 10'000, 1, true}, {50, 1'000, 1, true},
      {50, 10'000, 1, true}, {50, 100'000, 1, true}, {50, 1'000, 100},      {50, 10'000, 100},
      {50, 100'000, 100},
  };
  for (const Row& row : rows) run(row);
  return 0;
}
