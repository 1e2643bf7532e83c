// rc_bench.cpp — the seeded deep bugs of tests/statem/deep_systems.hpp through
// merilo's statem and through RapidCheck's state-machine testing, in one
// run: for each seed the checks run back to back (which one goes first
// rotates with the seed), each tool at its defaults — merilo
// `CheckOptions{.seed = s}` (100 runs, sizes growing to 100 commands),
// RapidCheck 100 tests up to size 100 (a list of up to size + 1 commands).
// All test the same system, model and checks (rc_adapter.hpp wraps the
// spec); only the command generators are each tool's own: the RapidCheck
// ones below draw the same kinds, weights and ranges as each spec's
// `command()`, in two flavours (see rc_gens).
//
// Prints two markdown tables for docs/benchmarks.md: the seeded bugs (found,
// minimal, runs, shrink executions, CPU time per check), then the same
// systems with the bug switched off (the cost of 100 passing runs). Never
// asserts a time. MERILO_BENCH_SEEDS=N (1..100000) sets the seeds 0..N-1
// (default 100).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "deep_systems.hpp"
#include "rc_adapter.hpp"

namespace st = merilo::statem;
namespace ds = deep_systems;

namespace {

constexpr std::uint64_t kDefaultSeeds = 100;

/// RapidCheck generators drawing what each spec's `command()` draws, in two
/// flavours (both draw the same distribution):
///
///   * idiomatic — what a RapidCheck user writes: `elementOf`, `oneOf`,
///     `weightedOneOf`. These never shrink a choice: an `elementOf` value
///     and `oneOf`'s alternative stay as drawn.
///   * shrinking choices — the closest RapidCheck gets to merilo's
///     `element_of`, `one_of` and `frequency`, which shrink toward earlier
///     elements and alternatives: an index drawn at full size
///     (`resize(100, inRange(...))`, uniform at every size like merilo's)
///     that shrinks toward 0, and `mapcat` from it to the alternative.
///
/// Integer ranges are half-open in RapidCheck (`inRange(0, 100)` is merilo's
/// `integer(0, 99)`); both scale them with the size.
namespace rc_gens {

enum class Flavor : std::uint8_t { idiomatic, shrinking };

const std::vector<ds::Op> kOps{ds::Op::insert, ds::Op::erase, ds::Op::contains};

/// An index in [0, n), uniform at every size, shrinking toward 0.
rc::Gen<std::size_t> index(std::size_t n) {
  return rc::gen::resize(100, rc::gen::inRange<std::size_t>(0, n));
}

/// One of `values`: RapidCheck's `elementOf`, or an index that shrinks.
template <class T>
rc::Gen<T> element(Flavor f, std::vector<T> values) {
  if (f == Flavor::idiomatic) return rc::gen::elementOf(values);
  const std::size_t n = values.size();
  return rc::gen::map(index(n), [v = std::move(values)](std::size_t i) { return v[i]; });
}

/// Alternative i of `alts` with probability weight_i / sum, the choice
/// shrinking toward the first alternative (the shrinking flavour of
/// `oneOf` and `weightedOneOf`).
template <class T>
rc::Gen<T> pick(std::vector<std::pair<std::size_t, rc::Gen<T>>> alts) {
  std::vector<std::size_t> ends;
  std::size_t total = 0;
  for (const auto& a : alts) ends.push_back(total += a.first);
  const auto which = rc::gen::map(index(total), [ends](std::size_t x) {
    return static_cast<std::size_t>(std::upper_bound(ends.begin(), ends.end(), x) - ends.begin());
  });
  return rc::gen::mapcat(which, [alts = std::move(alts)](std::size_t i) { return alts[i].second; });
}

rc::Gen<ds::sorted_set::Cmd> sorted_set(Flavor f) {
  return rc::gen::apply(
      [](ds::Op op, int x) {
        return ds::sorted_set::Cmd{op, x};
      },
      element(f, kOps), rc::gen::inRange(0, 100));
}

rc::Gen<ds::lru::Cmd> lru(Flavor f) {
  const auto key = rc::gen::inRange(0, 10);
  auto put = rc::gen::apply(
      [](int k, int v) {
        return ds::lru::Cmd{true, k, v};
      },
      key, rc::gen::inRange(0, 100));
  auto get = rc::gen::map(key, [](int k) { return ds::lru::Cmd{false, k, 0}; });
  if (f == Flavor::idiomatic) return rc::gen::oneOf(put, get);
  return pick<ds::lru::Cmd>({{1, put}, {1, get}});
}

rc::Gen<ds::hashmap::Cmd> hashmap(Flavor f) {
  using ds::hashmap::Cmd;
  const auto key = rc::gen::inRange(0, 64);
  auto put = rc::gen::apply(
      [](int k, int v) {
        return Cmd{ds::Op::insert, k, v};
      },
      key, rc::gen::inRange(0, 1000));
  auto get = rc::gen::map(key, [](int k) { return Cmd{ds::Op::contains, k, 0}; });
  auto erase = rc::gen::map(key, [](int k) { return Cmd{ds::Op::erase, k, 0}; });
  if (f == Flavor::idiomatic) return rc::gen::weightedOneOf<Cmd>({{3, put}, {1, get}, {1, erase}});
  return pick<Cmd>({{3, put}, {1, get}, {1, erase}});
}

rc::Gen<ds::trie::Cmd> trie(Flavor f) {
  const auto letter = element(f, std::vector<char>{'a', 'b', 'c'});
  const auto word = rc::gen::mapcat(rc::gen::inRange(1, 5), [letter](int n) {
    return rc::gen::container<std::string>(static_cast<std::size_t>(n), letter);
  });
  return rc::gen::apply(
      [](ds::Op op, std::string w) {
        return ds::trie::Cmd{op, std::move(w)};
      },
      element(f, kOps), word);
}

}  // namespace rc_gens

/// The RapidCheck rows: a label and a command generator.
template <class Cmd>
struct Peer {
  const char* label;
  rc::Gen<Cmd> gen;
};

/// Both flavours of a system's RapidCheck generator.
template <class Cmd>
std::vector<Peer<Cmd>> peers(rc::Gen<Cmd> (*make)(rc_gens::Flavor)) {
  return {{"RapidCheck", make(rc_gens::Flavor::idiomatic)},
          {"RapidCheck, shrinking choices", make(rc_gens::Flavor::shrinking)}};
}

/// Runs `tools[0..n)` for one seed, starting at a tool that rotates with
/// the seed (so no tool always runs first).
template <class F>
void rotate_run(std::size_t n, std::uint64_t seed, F run) {
  for (std::size_t k = 0; k < n; ++k) run((k + static_cast<std::size_t>(seed % n)) % n);
}

/// One tool's figures on one system over the seeds.
struct Tally {
  int found = 0;
  int shortest = 0;
  int smallest = 0;
  int errors = 0;
  std::vector<std::size_t> runs;
  std::vector<std::size_t> lengths;
  std::vector<std::size_t> shrinks;
  std::vector<double> ms;

  template <class Cmd, class Minimal>
  void add(bool found_it, std::size_t run_count, const std::vector<Cmd>& shrunk,
           std::size_t shrink_executions, double cpu_ms, std::size_t min_length, Minimal minimal) {
    ms.push_back(cpu_ms);
    if (!found_it) return;
    ++found;
    runs.push_back(run_count);
    lengths.push_back(shrunk.size());
    shrinks.push_back(shrink_executions);
    if (shrunk.size() == min_length) ++shortest;
    if (minimal(shrunk)) ++smallest;
  }
};

template <class T>
T median(std::vector<T> v) {
  if (v.empty()) return T{};
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

/// The non-empty lines of `text`.
std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    if (end > begin) out.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

/// Whether `shrunk` (the list of the last failing execution) is the
/// counterexample RapidCheck reports, as the adapter assumes.
template <class Cmd>
bool same_counterexample(const std::vector<Cmd>& shrunk, const std::string& reported) {
  std::vector<std::string> described;
  for (const Cmd& c : shrunk) described.push_back(merilo_describe(c));
  return described == lines(reported);
}

double cpu_ms_since(std::clock_t start) {
  return 1000.0 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

void print(const char* name, const char* tool, const Tally& t) {
  std::printf("| %s | %s | %d | %d | %d | %zu | %zu | %zu | %.2f | %.2f |\n", name, tool, t.found,
              t.shortest, t.smallest, median(t.runs), median(t.lengths), median(t.shrinks),
              median(t.ms), mean(t.ms));
  if (t.errors > 0)
    std::fprintf(stderr, "%s, %s: %d checks ended in an error\n", name, tool, t.errors);
}

template <class Spec, class Minimal>
void row(const char* name, std::uint64_t seeds, std::size_t min_length, Minimal minimal,
         const std::vector<Peer<typename Spec::command_type>>& peer_gens) {
  using Cmd = typename Spec::command_type;
  std::vector<Tally> tallies(1 + peer_gens.size());
  const auto run_merilo = [&](std::uint64_t seed) {
    const std::clock_t start = std::clock();
    const auto r = st::check(Spec{}, st::CheckOptions{.seed = seed});
    const double ms = cpu_ms_since(start);
    if (!r.error.empty()) {
      std::fprintf(stderr, "%s, merilo, seed %llu: %s\n", name,
                   static_cast<unsigned long long>(seed), r.error.c_str());
      ++tallies[0].errors;
    }
    static const std::vector<Cmd> kNone;
    tallies[0].add(r.failure.has_value(), r.runs, r.failure ? r.failure->shrunk : kNone,
                   r.failure ? r.failure->candidates : 0, ms, min_length, minimal);
  };
  const auto run_peer = [&](std::size_t p, std::uint64_t seed) {
    const std::clock_t start = std::clock();
    const auto r = rc_peer::check(Spec{}, peer_gens[p].gen, seed);
    const double ms = cpu_ms_since(start);
    Tally& t = tallies[1 + p];
    if (!r.error.empty()) {
      std::fprintf(stderr, "%s, %s, seed %llu: %s\n", name, peer_gens[p].label,
                   static_cast<unsigned long long>(seed), r.error.c_str());
      ++t.errors;
    }
    if (r.found && !same_counterexample(r.shrunk, r.counterexample)) {
      std::fprintf(stderr,
                   "%s, %s, seed %llu: the recorded list is not the reported counterexample\n",
                   name, peer_gens[p].label, static_cast<unsigned long long>(seed));
      ++t.errors;
    }
    t.add(r.found, r.runs, r.shrunk, r.shrink_executions, ms, min_length, minimal);
  };
  for (std::uint64_t seed = 0; seed < seeds; ++seed) {
    rotate_run(tallies.size(), seed, [&](std::size_t tool) {
      if (tool == 0) {
        run_merilo(seed);
      } else {
        run_peer(tool - 1, seed);
      }
    });
  }
  print(name, "merilo", tallies[0]);
  for (std::size_t p = 0; p < peer_gens.size(); ++p) print("", peer_gens[p].label, tallies[1 + p]);
}

/// One tool's passing checks (bug switched off) over the seeds.
struct Passing {
  int passed = 0;
  std::size_t commands = 0;
  double ms = 0;
};

void print_passing(const char* name, const char* tool, const Passing& p, std::uint64_t seeds) {
  const double checks = static_cast<double>(seeds);
  std::printf("| %s | %s | %d | %.0f | %.2f | %.0f |\n", name, tool, p.passed,
              static_cast<double>(p.commands) / checks, p.ms / checks,
              p.commands == 0 ? 0.0 : 1e6 * p.ms / static_cast<double>(p.commands));
}

/// The same system with its bug switched off: every check passes, so this
/// is the cost of 100 runs (drawing and executing) without shrinking.
template <class Spec>
void passing_row(const char* name, std::uint64_t seeds,
                 const std::vector<Peer<typename Spec::command_type>>& peer_gens) {
  Spec fixed;
  fixed.buggy = false;
  std::vector<Passing> sums(1 + peer_gens.size());
  const auto run_merilo = [&](std::uint64_t seed) {
    const std::clock_t start = std::clock();
    const auto r = st::check(fixed, st::CheckOptions{.seed = seed});
    sums[0].ms += cpu_ms_since(start);
    sums[0].commands += r.commands_run;
    if (r.ok()) {
      ++sums[0].passed;
    } else {
      std::fprintf(stderr, "%s (bug off), merilo, seed %llu: did not pass\n", name,
                   static_cast<unsigned long long>(seed));
    }
  };
  const auto run_peer = [&](std::size_t p, std::uint64_t seed) {
    const std::clock_t start = std::clock();
    const auto r = rc_peer::check(fixed, peer_gens[p].gen, seed);
    Passing& sum = sums[1 + p];
    sum.ms += cpu_ms_since(start);
    sum.commands += r.commands_run;
    if (!r.found && r.error.empty()) {
      ++sum.passed;
    } else {
      std::fprintf(stderr, "%s (bug off), %s, seed %llu: did not pass %s\n", name,
                   peer_gens[p].label, static_cast<unsigned long long>(seed), r.error.c_str());
    }
  };
  for (std::uint64_t seed = 0; seed < seeds; ++seed) {
    rotate_run(sums.size(), seed, [&](std::size_t tool) {
      if (tool == 0) {
        run_merilo(seed);
      } else {
        run_peer(tool - 1, seed);
      }
    });
  }
  print_passing(name, "merilo", sums[0], seeds);
  for (std::size_t p = 0; p < peer_gens.size(); ++p) {
    print_passing("", peer_gens[p].label, sums[1 + p], seeds);
  }
}

/// MERILO_BENCH_SEEDS, or the default; exits with a message when malformed.
std::uint64_t seed_count() {
  const char* text = std::getenv("MERILO_BENCH_SEEDS");
  if (text == nullptr || *text == '\0') return kDefaultSeeds;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(text, &end, 10);
  if (*end != '\0' || n < 1 || n > 100000 || text[0] == '-') {
    std::fprintf(stderr,
                 "bench_statem_rc: MERILO_BENCH_SEEDS must be a number in 1..100000, got '%s'\n",
                 text);
    std::exit(2);
  }
  return n;
}

}  // namespace

int main() {
  const std::uint64_t seeds = seed_count();
  std::printf(
      "seeds 0..%llu; medians over the seeds that found the bug (CPU ms: over all seeds)\n\n",
      static_cast<unsigned long long>(seeds - 1));
  std::printf(
      "| seeded bug | tool | found /%llu | minimal length | minimal values | median runs to the "
      "failure | median shrunk length | median shrink executions | median CPU ms per check | mean "
      "CPU ms per check |\n",
      static_cast<unsigned long long>(seeds));
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  row<ds::sorted_set::Spec>("sorted-vector set: erase removes the wrong element (3 commands)",
                            seeds, 3, ds::sorted_set::minimal, peers(rc_gens::sorted_set));
  row<ds::lru::Spec>("LRU cache: get does not refresh (5 commands)", seeds, 5, ds::lru::minimal,
                     peers(rc_gens::lru));
  row<ds::hashmap::Spec>("hash map: loses a bucket on growth 8 -> 16 (10 commands)", seeds, 10,
                         ds::hashmap::minimal, peers(rc_gens::hashmap));
  row<ds::trie::Spec>("trie: erase loses longer words (3 commands)", seeds, 3, ds::trie::minimal,
                      peers(rc_gens::trie));

  std::printf(
      "\nthe same systems with the bug switched off (every check passes: 100 runs, no "
      "shrinking)\n\n");
  std::printf(
      "| system | tool | passed /%llu | mean commands per check | mean CPU ms per check | CPU ns "
      "per "
      "command |\n",
      static_cast<unsigned long long>(seeds));
  std::printf("| --- | --- | --- | --- | --- | --- |\n");
  passing_row<ds::sorted_set::Spec>("sorted-vector set", seeds, peers(rc_gens::sorted_set));
  passing_row<ds::lru::Spec>("LRU cache", seeds, peers(rc_gens::lru));
  passing_row<ds::hashmap::Spec>("hash map", seeds, peers(rc_gens::hashmap));
  passing_row<ds::trie::Spec>("trie", seeds, peers(rc_gens::trie));
  return 0;
}
