// report.cpp — the text the fuzz component prints: run summaries, crash
// reports, seeding summaries and usage errors.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <merilo/fuzz/run.hpp>
#include <merilo/fuzz/target.hpp>

namespace merilo::fuzz {

std::string_view name(Stop stop) noexcept {
  switch (stop) {
    case Stop::none:
      return "none";
    case Stop::violation:
      return "violation";
    case Stop::settled:
      return "settled";
    case Stop::quiescent:
      return "quiescent";
    case Stop::max_depth:
      return "max_depth";
    case Stop::error:
      return "error";
  }
  return "out-of-range stop";
}

std::string Run::describe() const {
  if (!error.empty()) return error;
  if (violation.found()) return violation.describe();
  return fmt::format("ok: {} steps ({} from the input, {} drained), stopped: {}", trace.size(),
                     input_steps, drained(), name(stop));
}

namespace detail {

std::string check_max_depth(std::size_t max_depth) {
  if (max_depth == 0) {
    return "merilo: fuzz max_depth is required (the most steps one input takes, drain "
           "included); it has no default";
  }
  return {};
}

std::string check_target(const TargetOptions& options, bool seeding) {
  std::string error = check_max_depth(options.max_depth);
  if (error.empty() && seeding && options.explore.max_states == 0) {
    error = fmt::format(
        "merilo: fuzz target {}: seeding needs TargetOptions::explore.max_states (the bound of "
        "the search whose shortest schedules become the seeds); it has no default",
        options.name);
  }
  return error.empty() ? error : error + "\n";
}

std::string flag(int argc, char** argv, std::string_view name) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.size() > name.size() + 1 && arg[0] == '-' && arg.substr(1, name.size()) == name &&
        arg[name.size() + 1] == '=') {
      return std::string(arg.substr(name.size() + 2));
    }
  }
  return {};
}

std::string parse_max_states(const std::string& value, std::size_t& out) {
  if (value.empty()) return {};
  std::size_t n = 0;
  for (char c : value) {
    if (c < '0' || c > '9' || n > (std::size_t{1} << 40)) {
      return fmt::format("merilo: -merilo_max_states={} is not a number of worlds\n", value);
    }
    n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  out = n;
  return {};
}

void print_err(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

void fail(const std::string& text, int status) {
  print_err(text);
  std::exit(status);
}

std::string crash_report(const CrashInfo& info) {
  std::string out = fmt::format(
      "==merilo== ERROR: fuzz target {} found {}\n"
      "==merilo== input of {} bytes: {} steps from its choices, {} drained; "
      "execution {} of this process\n\n",
      info.target, info.violation, info.input_size, info.input_steps, info.drained,
      info.executions);
  out += info.table;
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

std::string seed_summary(const std::string& target, const std::string& dir, std::size_t written,
                         std::size_t too_long, std::size_t max_depth,
                         const explore::Result& search) {
  if (search.violation.found()) {
    return fmt::format("==merilo== ERROR: seeding fuzz target {}: the search found {}\n\n", target,
                       search.violation.describe());
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
