// report.cpp — the text the fuzz component prints: run summaries, crash
// reports and seeding summaries.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <merilo/fuzz/run.hpp>
#include <merilo/fuzz/target.hpp>

namespace merilo::fuzz {

std::string_view name(RunEnd stop) noexcept {
  switch (stop) {
    case RunEnd::none:
      return "none";
    case RunEnd::violation:
      return "violation";
    case RunEnd::settled:
      return "settled";
    case RunEnd::quiescent:
      return "quiescent";
    case RunEnd::max_depth:
      return "max_depth";
    case RunEnd::error:
      return "error";
  }
  return "out-of-range stop";
}

std::string Run::summary() const {
  if (!error.empty()) return error;
  if (violation.found()) return violation.summary();
  return fmt::format("ok: {} steps ({} from the input, {} drained), stopped: {}", trace.size(),
                     input_steps, drained(), name(stop));
}

namespace detail {

std::string crash_report(const CrashReport& info) {
  std::string out = fmt::format(
      "==merilo== ERROR: fuzz target {} found {}\n"
      "==merilo== input of {} bytes: {} steps from its choices, {} drained; "
      "execution {} of this process\n\n",
      info.target, info.run.violation.summary(), info.input_size, info.run.input_steps,
      info.run.drained(), info.executions);
  out += info.table;
  out += info.page;
  if (!info.replayed.empty()) {
    out += fmt::format(
        "\n==merilo== WARNING: replaying this trace from reset did not break the same rule: "
        "{}\n(the system is not deterministic: state outside its world leaked in)\n",
        info.replayed);
  }
  out += "\nPin it with this test, which fails while the bug is there:\n\n";
  out += info.test;
  out += "\n";
  return out;
}

std::string crash_context(std::string_view target, const Run& run, std::size_t input_size) {
  return fmt::format("fuzz target {}: an input of {} bytes, {} steps from its choices, {} drained",
                     target, input_size, run.input_steps, run.drained());
}

std::string seed_summary(const std::string& target, const std::string& dir, std::size_t written,
                         std::size_t too_long, std::size_t max_depth,
                         const explore::ExploreResult& search) {
  if (search.violation.found()) {
    return fmt::format("==merilo== ERROR: seeding fuzz target {}: the search found {}\n\n", target,
                       search.violation.summary());
  }
  std::string out = fmt::format(
      "merilo fuzz: seeded {} with {} inputs (the shortest schedule to each of {} tuples; "
      "search complete={} depth={} states={}) in {}\n",
      target, written, search.tuples.size(), search.complete, search.depth, search.states, dir);
  if (too_long > 0) {
    out += fmt::format(
        "merilo fuzz: WARNING: {} seeds are longer than max_depth={} and are cut short; raise "
        "max_depth\n",
        too_long, max_depth);
  }
  return out;
}

}  // namespace detail
}  // namespace merilo::fuzz
