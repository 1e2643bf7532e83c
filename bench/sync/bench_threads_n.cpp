// bench_threads_n — executions to the first failure as the number of
// threads grows, for the seeded schedule fuzzer, the unseeded one, PCT
// (depth 3) and random search, on the three shapes of
// tests/sync/n_shapes.hpp (N = 5, 10, 20, 50, 100; the median over 20
// seeds), printed as the table of docs/benchmarks.md ("Threads: executions
// to the failure as N grows").
//
//   bench_threads_n [max executions per run (default 2000)] [shape: flags |
//   two_stage | wrong_lock | all (default)] [largest N (default 100)]
//
// The seeded fuzzer is `seed_inputs` (the fewest-preemptions search,
// bound 0, at most kSeedingExecutions executions: deterministic, so it is
// run once per shape and N and its cost is printed apart) followed by
// `sync::fuzz` from those seeds; the unseeded one is `sync::fuzz` from the
// empty input. Every run is sequentially consistent (`memory_model =
// false`): the shapes are interleaving bugs. A run that reaches the cap
// without a failure counts as the cap, and a median at the cap is printed
// as "> cap".
//
// Never timed assertions: the numbers are copied into the docs with the
// command that reproduces them.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <merilo/sync/fuzz.hpp>
#include <merilo/sync/model.hpp>

#include "n_shapes.hpp"

namespace {

namespace ms = merilo::sync;
namespace shapes = merilo::sync::testing;

constexpr std::size_t kSeeds = 20;
constexpr std::size_t kSeedingExecutions = 20;

struct Shape {
  const char* name;
  void (*body)(std::size_t, bool);
};

/// Executions to the first failure of one run, or `cap` when none.
std::size_t to_failure(const ms::ModelResult& r, std::size_t cap) {
  return r.failure ? r.failure->execution : cap;
}

std::string median_text(std::vector<std::size_t> v, std::size_t cap) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v[v.size() / 2];
  return m >= cap ? "> " + std::to_string(cap) : std::to_string(m);
}

std::size_t found(const std::vector<std::size_t>& v, std::size_t cap) {
  return static_cast<std::size_t>(
      std::count_if(v.begin(), v.end(), [&](std::size_t x) { return x < cap; }));
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t cap = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 2000;
  const std::string only = argc > 2 ? argv[2] : "all";
  const std::size_t largest = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 100;
  const std::vector<Shape> all = {{"flags", shapes::flags_body},
                                  {"two_stage", shapes::two_stage_body},
                                  {"wrong_lock", shapes::wrong_lock_body}};
  std::printf(
      "| shape | N | seeding search | seeded fuzzer | unseeded fuzzer | PCT (depth 3) | "
      "random | seeded found | PCT found |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (const Shape& shape : all) {
    if (only != "all" && only != shape.name) continue;
    for (const std::size_t n : {5U, 10U, 20U, 50U, 100U}) {
      if (n > largest) continue;
      const auto start = std::chrono::steady_clock::now();
      const std::function<void()> body = [&shape, n] { shape.body(n, false); };
      ms::ModelOptions base;
      base.memory_model = false;
      base.max_executions = cap;
      ms::ModelOptions seeding = base;
      seeding.preemptions = 0;
      seeding.max_executions = kSeedingExecutions;
      const ms::Seeds seeds = ms::seed_inputs(seeding, body);
      std::vector<std::size_t> seeded;
      std::vector<std::size_t> unseeded;
      std::vector<std::size_t> pct;
      std::vector<std::size_t> random;
      for (std::size_t s = 1; s <= kSeeds; ++s) {
        ms::ModelOptions o = base;
        o.seed = s;
        seeded.push_back(to_failure(ms::fuzz(o, body, seeds.inputs).result, cap));
        unseeded.push_back(to_failure(ms::fuzz(o, body, {}).result, cap));
        o.search = ms::Search::pct;
        o.pct_depth = 3;
        pct.push_back(to_failure(ms::model(o, body), cap));
        o.search = ms::Search::random;
        random.push_back(to_failure(ms::model(o, body), cap));
      }
      const double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("| %s | %zu | %zu (%zu seeds) | %s | %s | %s | %s | %zu/%zu | %zu/%zu |\n",
                  shape.name, n, seeds.executions, seeds.inputs.size(),
                  median_text(seeded, cap).c_str(), median_text(unseeded, cap).c_str(),
                  median_text(pct, cap).c_str(), median_text(random, cap).c_str(),
                  found(seeded, cap), kSeeds, found(pct, cap), kSeeds);
      std::fprintf(stderr, "%s N=%zu: %.1f s\n", shape.name, n, secs);
      std::fflush(stdout);
    }
  }
  return 0;
}
