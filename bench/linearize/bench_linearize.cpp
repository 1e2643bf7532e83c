// bench_linearize.cpp — operations checked per second by check_history on
// simulated register histories of growing size and concurrency (1, 10, 50
// processes), on the same histories with one injected stale read (which must
// come out not linearizable), and on 50 processes spread over 100 keys
// (partitioned). One row per history: verdict, search steps, states cached, time, ops/s.
// Each history is checked three times (once when the budget runs out); the
// fastest run is reported. A second table times check() (the short-history
// checker) on long per-thread histories: its time must grow with its
// evaluations, not with their square.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <merilo/linearize/check.hpp>
#include <merilo/linearize/history.hpp>
#include <merilo/linearize/models.hpp>

#include "jepsen_sim.hpp"
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

// --- Jepsen-shaped histories (tests/tools/jepsen_sim.hpp) ---------------------

std::string unquoted(const std::string& json) { return json.substr(1, json.size() - 2); }

std::vector<Operation<RegisterCmd, RegisterResponse>> register_ops(
    const std::vector<merilo::jepsen_sim::Call>& calls) {
  std::vector<Operation<RegisterCmd, RegisterResponse>> ops;
  for (const auto& c : calls) {
    Operation<RegisterCmd, RegisterResponse> op{RegisterCmd::read(), RegisterResponse{}, c.invoked,
                                                c.returned};
    if (c.f == "write") op.command = RegisterCmd::write(std::stoll(c.argument));
    if (c.f == "cas") {
      op.command = RegisterCmd::cas(std::stoll(c.argument.substr(1)),
                                    std::stoll(c.argument.substr(c.argument.find(',') + 1)));
    }
    if (c.type == "info") {
      op.response.reset();
      op.returned_at = kNever;
    } else if (c.type == "fail") {
      op.response = RegisterResponse::fail();
    } else if (c.f == "read" && c.result != "null") {
      op.response = RegisterResponse::of(std::stoll(c.result));
    }
    ops.push_back(std::move(op));
  }
  return ops;
}

std::vector<Operation<KvCmd, KvResponse>> kv_ops(
    const std::vector<merilo::jepsen_sim::Call>& calls) {
  std::vector<Operation<KvCmd, KvResponse>> ops;
  for (const auto& c : calls) {
    KvCmd cmd;
    cmd.key = c.key;
    cmd.kind = c.f == "get"   ? KvCmd::Kind::get
               : c.f == "put" ? KvCmd::Kind::put
                              : KvCmd::Kind::append;
    if (cmd.kind != KvCmd::Kind::get) cmd.value = unquoted(c.argument);
    KvResponse r;
    if (cmd.kind == KvCmd::Kind::get) r.value = unquoted(c.result);
    ops.push_back({std::move(cmd), r, c.invoked, c.returned});
  }
  return ops;
}

template <class Spec, class Model, class Op>
void run_jepsen(const char* shape, std::uint64_t seed, bool stale, const std::vector<Op>& ops) {
  HistoryOptions limits;  // the default budget (10M steps), and 60 s at most
  limits.timeout = std::chrono::seconds(60);
  const auto start = std::chrono::steady_clock::now();
  const auto result = check_history(Spec{}, Model{}, ops, limits);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-5s %4llu %5s %6zu  %-17s %11llu %9zu %8.3f %12.0f\n", shape,
              static_cast<unsigned long long>(seed), stale ? "yes" : "no", ops.size(),
              name(result.verdict), static_cast<unsigned long long>(result.evaluations),
              result.cache_entries, s, static_cast<double>(result.evaluations) / s);
}

// --- check() on long per-thread histories -------------------------------------

struct Reg {
  std::int64_t value = 0;
  friend bool operator==(const Reg&, const Reg&) = default;
};
struct RegCmd {
  bool write = false;
  std::int64_t value = 0;
};
struct RegSpec {
  std::optional<std::string> postcondition(const Reg& m, const RegCmd& c, std::int64_t got) const {
    if (!c.write && got != m.value) return "read " + std::to_string(got);
    return std::nullopt;
  }
  Reg next_model(const Reg& m, const RegCmd& c) const { return c.write ? Reg{c.value} : m; }
};

// `calls` calls dealt round-robin to 4 threads, one after another in real
// time: write 1, read 1, write 2, read 2, ... With `stale`, the last read
// returns a value overwritten long before (not linearizable).
void run_check(std::size_t calls, bool stale) {
  std::vector<History<RegCmd, std::int64_t>> threads(4);
  for (std::size_t i = 0; i < calls; ++i) {
    const auto v = static_cast<std::int64_t>(i / 2 + 1);
    const auto t = static_cast<std::int64_t>(i);
    Call<RegCmd, std::int64_t> call{RegCmd{i % 2 == 0, v}, i % 2 == 0 ? 0 : v, 2 * t, 2 * t + 1};
    if (stale && i + 1 == calls) call.response = 1;
    threads[i % 4].push_back(call);
  }
  const std::uint64_t budget = 10 * calls;
  const auto start = std::chrono::steady_clock::now();
  const auto result = check(RegSpec{}, Reg{}, threads, budget);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%9zu %5s  %-17s %11llu %8.3f %12.0f\n", calls, stale ? "yes" : "no",
              name(result.verdict), static_cast<unsigned long long>(result.evaluations), s,
              static_cast<double>(result.evaluations) / s);
}

}  // namespace

int main(int argc, char** argv) {
  // An argument picks one table: "register", "jepsen" or "check"; none runs all.
  const std::string only = argc > 1 ? argv[1] : "";
  if (only != "" && only != "register" && only != "jepsen" && only != "check") {
    std::fprintf(stderr, "usage: bench_linearize [register|jepsen|check]\n");
    return 2;
  }
  if (only.empty() || only == "register") {
    std::printf(
        "# check_history on simulated registers (2 infos per 1000 ops, seed 7, budget 20M "
        "steps)\n");
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
  }
  if (only.empty() || only == "jepsen") {
    std::printf(
        "\n# Jepsen shapes: kv = 50 clients, 2300 get/put/append of unique strings on 10 keys;\n"
        "# etcd = one register, read/write/cas of 0-4, 5 live clients, 3000 calls, 1 in 10 timing\n"
        "# out (a fresh process each time). Default budget, 60 s timeout.\n");
    std::printf("%-5s %4s %5s %6s  %-17s %11s %9s %8s %12s\n", "shape", "seed", "stale", "ops",
                "verdict", "steps", "states", "seconds", "steps/s");
    namespace js = merilo::jepsen_sim;
    for (const std::uint64_t seed : {1U, 2U, 3U}) {
      for (const bool stale : {false, true}) {
        run_jepsen<KvSpec, KvModel>("kv", seed, stale,
                                    kv_ops(js::simulate_kv(50, 2300, 10, seed, stale)));
      }
    }
    for (const std::uint64_t seed : {1U, 2U, 3U}) {
      run_jepsen<RegisterSpec, RegisterModel>("etcd", seed, false,
                                              register_ops(js::simulate_etcd(5, 3000, seed)));
    }
  }
  if (only.empty() || only == "check") {
    std::printf(
        "\n# check() on 4 threads taking turns (write v, read v, ...), budget 10 per call\n");
    std::printf("%9s %5s  %-17s %11s %8s %12s\n", "calls", "stale", "verdict", "evaluations",
                "seconds", "evals/s");
    for (const std::size_t calls : {40'000U, 80'000U, 160'000U}) {
      run_check(calls, false);
      run_check(calls, true);
    }
  }
  return 0;
}
