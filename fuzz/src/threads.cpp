// threads.cpp — a plain threaded test as a libFuzzer target (threads.hpp).
#include <merilo/fuzz/threads.hpp>

#include <cstdlib>  // std::abort, std::exit
#include <utility>  // std::move

#include <fmt/core.h>

#include <merilo/core/type_name.hpp>  // core::test_identifier
#include <merilo/fuzz/corpus.hpp>     // write_seeds, write_dictionary
#include <merilo/fuzz/target.hpp>     // detail::flag, print_err, fail

namespace merilo::fuzz {

namespace {

// The schedule coverage: libFuzzer counts a section of this name as extra
// coverage counters (elsewhere it is an ordinary array).
#if defined(__linux__)
__attribute__((used, section("__libfuzzer_extra_counters")))
#endif
std::uint8_t schedule_counters[kScheduleCounters];

}  // namespace

namespace detail {

void count_schedule_coverage(const sync::FuzzRun& run) noexcept {
  constexpr std::size_t half = kScheduleCounters / 2;
  const auto count = [](std::uint8_t& c) noexcept {
    if (c < 255) ++c;
  };
  for (const std::uint64_t pair : run.reads_from) count(schedule_counters[pair % half]);
  for (const std::uint64_t point : run.points) count(schedule_counters[half + point % half]);
}

std::string parallel_crash_text(const std::string& target, const std::string& tag, std::size_t size,
                                std::size_t run, std::size_t schedule_bytes, std::size_t execution,
                                const std::string& report) {
  return fmt::format(
      "==merilo== ERROR: fuzz target {} found {}\n"
      "==merilo== input of {} bytes: case {}, {} schedule bytes; execution {} of this process\n\n"
      "{}",
      core::test_identifier(target), tag, size, run, schedule_bytes, execution, report);
}

std::string parallel_seed_line(const std::string& target, const std::string& dir,
                               std::size_t written, std::size_t cases, std::size_t executions,
                               bool complete, std::size_t preemptions) {
  return fmt::format(
      "merilo fuzz: {}: wrote {} seeds to {} (each of {} cases under its default schedule, and the "
      "fewest-preemption execution to each reads-from pair; {} executions, search complete={} "
      "within {} preemption(s))\n",
      target, written, dir, cases, executions, complete, preemptions);
}

}  // namespace detail

ThreadsTarget::ThreadsTarget(std::function<void()> body, sync::ModelOptions options,
                             std::string name)
    : body_(std::move(body)), options_(std::move(options)) {
  if (options_.name.empty()) options_.name = std::move(name);
}

std::string ThreadsTarget::seed(const std::string& dir, std::size_t& written, bool& complete) {
  const sync::Seeds seeds = sync::seed_inputs(options_, body_);
  written = seeds.inputs.size();
  complete = seeds.complete;
  return write_seeds(dir, seeds.inputs);
}

int ThreadsTarget::initialize(int* argc, char*** argv) {
  const bool args = argc != nullptr && argv != nullptr;
  const std::string dir = args ? detail::flag(*argc, *argv, "merilo_seed") : "";
  const std::string dict = args ? detail::flag(*argc, *argv, "merilo_dict") : "";
  if (!dict.empty()) {
    // Schedules have no kinds to name: the dictionary is empty.
    const std::string written = write_dictionary(dict, 0);
    if (!written.empty()) detail::fail("ERROR: " + written + "\n", 2);
    if (dir.empty()) std::exit(0);
  }
  if (dir.empty()) return 0;
  std::size_t written = 0;
  bool complete = false;
  const std::string error = seed(dir, written, complete);
  if (!error.empty()) detail::fail("ERROR: " + error + "\n", 1);
  detail::print_err(fmt::format(
      "merilo fuzz: {}: wrote {} seeds to {} (the fewest-preemption execution to each reads-from "
      "pair; search complete={} within {} preemptions)\n",
      options_.name, written, dir, complete, options_.preemptions));
  std::exit(0);
}

int ThreadsTarget::test_one_input(const std::uint8_t* data, std::size_t size) {
  const sync::FuzzRun run = sync::run_input(options_, body_, {data, size});
  if (!run.result.error.empty()) detail::fail("ERROR: " + run.result.error + "\n", 2);
  detail::count_schedule_coverage(run);
  if (run.result.failure) {
    detail::print_err(fmt::format("==merilo== ERROR: fuzz target {} found {}\n{}",
                                  core::test_identifier(options_.name), run.result.failure->tag,
                                  run.result.report()));
    std::abort();
  }
  return 0;
}

}  // namespace merilo::fuzz
