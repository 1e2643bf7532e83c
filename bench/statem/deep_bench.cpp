// deep_bench.cpp — statem on the seeded deep bugs (tests/statem/deep_systems.hpp)
// at the default CheckOptions, seeds 0..99: how often each bug is found, how
// often it shrinks to the minimal length and to the minimal values, the runs
// to the first failure, the shrink executions and the CPU time per check
// (process CPU time, std::clock: on a shared machine it is far steadier
// than wall time). Prints a markdown table for docs/benchmarks.md; never
// asserts a time.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

#include "deep_systems.hpp"

namespace st = merilo::statem;
namespace ds = deep_systems;

namespace {

template <class Spec, class Minimal>
void row(const char* name, std::size_t min_length, Minimal minimal) {
  constexpr std::uint64_t kSeeds = 100;
  int found = 0;
  int shortest = 0;
  int smallest = 0;
  std::vector<std::size_t> runs;
  std::size_t executions = 0;
  const std::clock_t start = std::clock();
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    auto r = st::check(Spec{}, st::CheckOptions{.seed = seed});
    if (!r.failure) continue;
    ++found;
    runs.push_back(r.runs);
    executions += r.failure->candidates;
    if (r.failure->shrunk.size() == min_length) ++shortest;
    if (minimal(r.failure->shrunk)) ++smallest;
  }
  const double ms = 1000.0 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC / kSeeds;
  std::sort(runs.begin(), runs.end());
  std::printf("| %s | %d | %d | %d | %zu | %zu | %.2f |\n", name, found, shortest, smallest,
              runs.empty() ? std::size_t{0} : runs[runs.size() / 2],
              found ? executions / static_cast<std::size_t>(found) : std::size_t{0}, ms);
}

}  // namespace

int main() {
  std::printf(
      "| seeded bug | found /100 | minimal length /100 | minimal values /100 | median runs to "
      "the failure | mean shrink executions | CPU ms per check |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- |\n");
  row<ds::sorted_set::Spec>("sorted-vector set: erase removes the wrong element", 3,
                            ds::sorted_set::minimal);
  row<ds::lru::Spec>("LRU cache: get does not refresh", 5, ds::lru::minimal);
  row<ds::hashmap::Spec>("hash map: loses a bucket on growth 8 -> 16", 10, ds::hashmap::minimal);
  row<ds::trie::Spec>("trie: erase loses longer words", 3, ds::trie::minimal);
  row<ds::neighbour::Spec>("map: get of an absent key reads the key below", 2,
                           ds::neighbour::minimal);
  row<ds::tx_counter::Spec>("counter with transactions: misreads 10", 11, ds::tx_counter::minimal);
  return 0;
}
