// runner_bench.cpp — executions per second of the fuzz runner itself (no
// libFuzzer, no sanitizers) on each example's fixed system: the ceiling a
// fuzz target's throughput can approach.
//
// Inputs are 64 pseudo-random bytes from a fixed xorshift seed, so every run
// measures the same work. Rates are per second of this process's CPU time
// (std::clock), which other processes on a shared machine do not shrink.
// Prints one row per example.
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <vector>

#include <merilo/fuzz/run.hpp>

#include <mutex/system.hpp>
#include <relay/system.hpp>
#include <twophase/system.hpp>
#include <watchdog/system.hpp>

namespace {

constexpr std::size_t kInputs = 20'000;
constexpr std::size_t kBytes = 64;

std::vector<std::vector<std::uint8_t>> make_inputs() {
  std::uint64_t x = 0x2545F4914F6CDD1DULL;  // fixed seed
  std::vector<std::vector<std::uint8_t>> inputs(kInputs, std::vector<std::uint8_t>(kBytes));
  for (auto& in : inputs) {
    for (auto& b : in) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      b = static_cast<std::uint8_t>(x);
    }
  }
  return inputs;
}

template <class S>
void measure(const char* name, std::size_t max_depth,
             const std::vector<std::vector<std::uint8_t>>& inputs) {
  S sys;
  merilo::fuzz::Runner<S> runner(sys, max_depth);
  std::size_t steps = 0;
  std::size_t violations = 0;
  const std::clock_t start = std::clock();
  for (const auto& in : inputs) {
    const merilo::fuzz::Run& r = runner.run(in);
    steps += r.trace.size();
    violations += r.violation.found() ? 1U : 0U;
  }
  const double secs = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  std::printf("%-10s %10.0f execs/s %12.0f steps/s %6.1f steps/exec %zu violations\n", name,
              static_cast<double>(inputs.size()) / secs, static_cast<double>(steps) / secs,
              static_cast<double>(steps) / static_cast<double>(inputs.size()), violations);
}

}  // namespace

int main() {
  const auto inputs = make_inputs();
  std::printf(
      "fuzz runner, %zu inputs of %zu bytes each (no libFuzzer, no sanitizers; per CPU second)\n",
      kInputs, kBytes);
  measure<mutex::System<>>("mutex", 48, inputs);
  measure<twophase::System<>>("twophase", 40, inputs);
  measure<watchdog::System<>>("watchdog", 40, inputs);
  measure<relay::System<>>("relay", 64, inputs);
  return 0;
}
