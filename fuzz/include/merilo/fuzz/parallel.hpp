// merilo/fuzz/parallel.hpp — a parallel spec as a libFuzzer target: the
// input's bytes choose one of its cases and the controlled scheduler's
// choices, and the linearizability checker judges the race.
//
//   #include <merilo/fuzz/parallel.hpp>
//   #include <counter/spec.hpp>
//
//   MERILO_PARALLEL_FUZZ_TARGET(counter::Spec<counter::Bug::lost_update>{},
//                               .name = "CounterLostUpdate", .seed_preemptions = 0);
//
// The first argument is the spec (an expression; wrap one with a top-level
// comma in parentheses), the rest initialise `merilo::parallel::FuzzOptions`.
// Each input is one execution (merilo/parallel/fuzz.hpp gives the format:
// two bytes pick the case, the rest is the schedule); every input runs. The
// reads-from pairs it makes are fed to libFuzzer as extra coverage, in the
// same counters as the threads targets' (merilo/fuzz/threads.hpp). A
// failure prints the case, the race, the checker's explanation, every step
// of the schedule and a pinned test (`parallel::replay_input` with the
// failure's token), then aborts, so the engine saves the input.
//
// `-merilo_seed=DIR` writes the corpus the schedule search gives (for each
// of the first `seed_cases` cases, its default schedule and the
// fewest-preemption execution to each reads-from pair) and exits: 0, or 1
// with the report when a seed already fails. `-merilo_dict=FILE` writes an
// empty dictionary (schedules have no words). So `make fuzz`, `-fork`,
// AFL++ and ClusterFuzzLite run these targets as they run the others;
// built without libFuzzer the same source replays files.
#ifndef MERILO_FUZZ_PARALLEL_HPP
#define MERILO_FUZZ_PARALLEL_HPP

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint8_t
#include <cstdlib>      // std::abort, std::exit
#include <string>       // names
#include <type_traits>  // std::remove_cvref_t
#include <utility>      // std::move

#include <merilo/core/type_name.hpp>  // core::test_identifier
#include <merilo/fuzz/corpus.hpp>     // write_seeds, write_dictionary
#include <merilo/fuzz/target.hpp>     // detail::flag, print_err, fail
#include <merilo/fuzz/threads.hpp>    // detail::count_schedule_coverage
#include <merilo/parallel/fuzz.hpp>   // run_input, seed_inputs

namespace merilo::fuzz {

/// A parallel spec's fuzz target: what `MERILO_PARALLEL_FUZZ_TARGET` defines.
template <class S>
class ParallelTarget {
 public:
  /// `spec` under `options`; `spec_text` is how the pinned test builds the
  /// spec (the macro passes the expression it was given).
  ParallelTarget(S spec, parallel::FuzzOptions options, std::string spec_text)
      : spec_(std::move(spec)), options_(std::move(options)) {
    if (options_.spec_text.empty()) options_.spec_text = std::move(spec_text);
    if (options_.name.empty()) options_.name = core::test_identifier(options_.spec_text);
  }

  /// LLVMFuzzerInitialize: a usage error exits 2; `-merilo_dict=FILE`
  /// writes the (empty) dictionary; `-merilo_seed=DIR` seeds DIR and exits.
  int initialize(int* argc, char*** argv) {
    if (const std::string e = parallel::detail::fuzz_options_error(options_); !e.empty()) {
      detail::fail("ERROR: " + e + "\n", 2);
    }
    const bool args = argc != nullptr && argv != nullptr;
    const std::string dir = args ? detail::flag(*argc, *argv, "merilo_seed") : "";
    const std::string dict = args ? detail::flag(*argc, *argv, "merilo_dict") : "";
    if (!dict.empty()) {
      if (const std::string e = write_dictionary(dict, 0); !e.empty()) {
        detail::fail("ERROR: " + e + "\n", 2);
      }
      if (dir.empty()) std::exit(0);
    }
    if (dir.empty()) return 0;
    std::exit(seed(dir));
  }

  /// LLVMFuzzerTestOneInput: runs one input; on a failure prints its report
  /// and aborts.
  int test_one_input(const std::uint8_t* data, std::size_t size) {
    ++executions_;
    const auto run = parallel::run_input(spec_, options_, {data, size});
    if (!run.error.empty()) detail::fail("ERROR: " + run.error + "\n", 2);
    detail::count_schedule_coverage(run.execution);
    if (!run.passed()) {
      detail::print_err(detail::parallel_crash_text(options_.name, run.violation->tag, size,
                                                    run.run, run.schedule.size(), executions_,
                                                    run.report()));
      std::abort();
    }
    return 0;
  }

  /// Seeds `dir` and says so on stderr; returns the exit status (0, or 1
  /// when a seed fails or writing fails).
  int seed(const std::string& dir) {
    const parallel::FuzzSeeds seeds = parallel::seed_inputs(spec_, options_);
    if (!seeds.error.empty()) {
      detail::print_err("ERROR: " + seeds.error + "\n");
      return 2;
    }
    // A seed that fails already: the bug was found before fuzzing started.
    for (const auto& input : seeds.inputs) {
      const auto run = parallel::run_input(spec_, options_, input);
      if (!run.passed()) {
        detail::print_err("merilo fuzz: " + options_.name + ": the seeding search found " +
                          (run.violation ? run.violation->tag : run.error) +
                          " before fuzzing started:\n\n" + run.report());
        return 1;
      }
    }
    if (const std::string e = write_seeds(dir, seeds.inputs); !e.empty()) {
      detail::print_err("ERROR: " + e + "\n");
      return 1;
    }
    detail::print_err(detail::parallel_seed_line(options_.name, dir, seeds.inputs.size(),
                                                 seeds.cases, seeds.executions, seeds.complete,
                                                 options_.seed_preemptions));
    return 0;
  }

  /// The options in use (names filled in).
  [[nodiscard]] const parallel::FuzzOptions& options() const noexcept { return options_; }

 private:
  S spec_;
  parallel::FuzzOptions options_;
  std::size_t executions_ = 0;
};

}  // namespace merilo::fuzz

/// Defines the libFuzzer entry points for the parallel spec `spec` (an
/// expression), run under `merilo::parallel::FuzzOptions{__VA_ARGS__}`
/// (designated initializers, or nothing).
#define MERILO_PARALLEL_FUZZ_TARGET(spec, ...)                                        \
  static auto& merilo_parallel_fuzz_target() {                                        \
    using MeriloFuzzSpec = std::remove_cvref_t<decltype(spec)>;                       \
    static ::merilo::fuzz::ParallelTarget<MeriloFuzzSpec> target{                     \
        spec, ::merilo::parallel::FuzzOptions{__VA_ARGS__}, #spec};                   \
    return target;                                                                    \
  }                                                                                   \
  extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {                      \
    return merilo_parallel_fuzz_target().initialize(argc, argv);                      \
  }                                                                                   \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    return merilo_parallel_fuzz_target().test_one_input(data, size);                  \
  }                                                                                   \
  static_assert(true, "require a semicolon after MERILO_PARALLEL_FUZZ_TARGET(...)")

#endif  // MERILO_FUZZ_PARALLEL_HPP
