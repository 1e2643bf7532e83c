// statem_bench.cpp — statem's overhead per execution on a trivial system
// (against the same commands applied by hand), check throughput, and the
// time to shrink a 100-command failure. Prints ratios measured in this run;
// never asserts a time.
#include <chrono>
#include <cstdio>
#include <vector>

#include "systems.hpp"

namespace st = merilo::statem;
namespace counter = statem_systems::counter;
namespace kv = statem_systems::kv;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The kv store checked only at the end, so a failing list runs to its end.
struct LateKv : kv::Spec {
  st::MaybeViolation execute(sut_type& s, const model_type& /*before*/, const kv::Cmd& c) const {
    if (c.kind == kv::Cmd::Kind::put) s.put(c.key, c.value);
    if (c.kind == kv::Cmd::Kind::del) s.del(c.key);
    return st::ok();
  }
  st::MaybeViolation finish(sut_type& s, const model_type& m) const {
    for (int k = 0; k < 4; ++k) {
      const auto it = m.find(k);
      const std::optional<int> got = s.get(k);
      const bool same = it == m.end() ? !got.has_value() : got.has_value() && *got == it->second;
      if (!same) return st::fail("kv.final", fmt::format("key {} differs", k));
    }
    return st::ok();
  }
};

volatile int sink = 0;

}  // namespace

int main() {
  // 1. One 20-command list on the trivial counter: by hand, then through replay.
  const std::vector<counter::Cmd> list = [] {
    std::vector<counter::Cmd> l;
    for (int i = 0; i < 20; ++i) l.push_back(i % 5 == 4 ? counter::Cmd::reset : counter::Cmd::inc);
    return l;
  }();
  constexpr int kLists = 200'000;
  auto start = Clock::now();
  for (int n = 0; n < kLists; ++n) {
    counter::Counter c{false};
    int model = 0;
    for (counter::Cmd cmd : list) {
      if (cmd == counter::Cmd::inc) {
        if (c.inc() != (model < counter::kLimit)) sink = sink + 1;
        model = model < counter::kLimit ? model + 1 : model;
      } else {
        c.reset();
        model = 0;
      }
    }
    sink = sink + c.get();
  }
  const double by_hand = seconds_since(start);
  start = Clock::now();
  for (int n = 0; n < kLists; ++n) {
    if (!st::replay(counter::Spec{.buggy = false}, list).ok()) sink = sink + 1;
  }
  const double replayed = seconds_since(start);
  std::printf(
      "trivial system, 20-command list: %.0f executions/s through statem::replay "
      "(%.0f ns each), %.1fx the same commands applied by hand (%.0f ns)\n",
      kLists / replayed, 1e9 * replayed / kLists, replayed / by_hand, 1e9 * by_hand / kLists);

  // 2. A whole check: generation + execution, lists of up to 20 commands
  // (sizes growing over the first half of the runs).
  constexpr std::size_t kRuns = 20'000;
  start = Clock::now();
  auto r = st::check(counter::Spec{.buggy = false},
                     {.seed = 1, .test_count = kRuns, .max_commands = 20});
  const double checked = seconds_since(start);
  std::printf(
      "check of %zu runs (up to 20 commands each): %.0f runs/s, %.1fx a replay of a "
      "20-command list per run\n",
      r.runs, static_cast<double>(r.runs) / checked,
      (checked / static_cast<double>(r.runs)) / (replayed / kLists));

  // 3. Shrinking a failing 100-command list.
  const st::CheckOptions config{.seed = 3, .max_commands = 100, .max_shrinks = 100'000};
  std::size_t run = 0;
  for (;; ++run) {
    auto listed = st::commands(LateKv{}, config, run);
    if (listed.list.size() == 100 && !st::replay(LateKv{}, listed.list).ok()) break;
  }
  start = Clock::now();
  constexpr int kShrinks = 20;
  std::optional<st::Failure<kv::Cmd>> f;
  for (int i = 0; i < kShrinks; ++i) f = st::check_run(LateKv{}, config, run).failure;
  const double shrink = seconds_since(start) / kShrinks;
  start = Clock::now();
  for (int n = 0; n < 1000; ++n)
    sink = sink + static_cast<int>(st::replay(LateKv{}, f->original).ok());
  const double one = seconds_since(start) / 1000;
  std::printf(
      "shrinking a %zu-command failure (seed 3, run %zu) to %zu commands: %.3f ms, "
      "%zu executions and %zu dropped candidates, %.0fx one execution of the original "
      "list (%.1f us)\n",
      f->original.size(), run, f->shrunk.size(), shrink * 1e3, f->candidates, f->inadmissible,
      shrink / one, one * 1e6);
  return 0;
}
