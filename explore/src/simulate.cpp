// simulate.cpp — the simulation's text: usage errors for its options and
// its summary line.
#include <algorithm>
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include <merilo/explore/simulate.hpp>

namespace merilo::explore {

std::string SimulateResult::summary() const {
  if (!error.empty()) return error;
  std::string line =
      fmt::format("merilo: {}{}simulate seed={} walks={} max_depth={} steps={} deepest={}", name,
                  name.empty() ? "" : ": ", seed, walks, max_depth, steps, deepest);
  if (violation.found()) {
    line += fmt::format(" violation={} walk={} trace={}->{}", explore::name(violation.kind), walk,
                        original_length, violation.trace.size());
  }
  return line;
}

namespace detail {

std::string check_simulate_options(const SimulateOptions& options, bool copyable) {
  if (options.walks == 0) {
    return "merilo: SimulateOptions::walks is required (how many random walks to run); it has "
           "no default";
  }
  if (options.max_depth == 0) {
    return "merilo: SimulateOptions::max_depth is required (the most steps per walk); it has no "
           "default";
  }
  if (options.threads == 0) return "merilo: SimulateOptions::threads must be at least 1";
  if (options.threads > kMaxThreads) {
    return fmt::format(
        "merilo: SimulateOptions::threads is {}, above the limit of {} (kMaxThreads)",
        options.threads, kMaxThreads);
  }
  if (options.threads > 1 && !copyable) {
    return fmt::format(
        "merilo: SimulateOptions::threads is {} but the system is not copy-constructible; each "
        "worker thread needs its own copy",
        options.threads);
  }
  return {};
}

void log_simulation(std::FILE* out, const SimulateResult& r) {
  if (out == nullptr) return;
  std::string line = r.summary();
  if (r.error.empty()) {
    line += fmt::format(" ({:.2f}s, {:.0f} steps/s)", r.seconds,
                        static_cast<double>(r.steps) / std::max(r.seconds, 1e-9));
  }
  fmt::print(out, "{}\n", line);
  std::fflush(out);
}

}  // namespace detail
}  // namespace merilo::explore
