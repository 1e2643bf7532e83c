// merilo/fuzz/target.hpp — turns a system into a libFuzzer target.
//
// One line makes a fuzz target of a system and its options:
//
//   // mutex_fuzz.cpp
//   #include <merilo/fuzz/target.hpp>
//   #include <mutex/system.hpp>
//   MERILO_FUZZ_TARGET(mutex::System<>, .name = "Mutex", .max_depth = 40,
//                      .explore = {.max_states = 20'000});
//
// The macro defines `LLVMFuzzerInitialize` and `LLVMFuzzerTestOneInput`
// over a `Target<S>` (use the class yourself if you prefer to write those
// two functions). Each input is run as run.hpp describes. On a violation the
// target prints, to stderr, what broke, the readable trace and a replay test
// ready to paste into a test file, then calls `abort()` so the fuzzer saves
// the input; running the target on that file prints the same trace again.
// With the environment variable `MERILO_TRACE_HTML=DIR` it also writes the
// trace as an HTML page (explore/html.hpp) to DIR and prints its path.
//
// Seeding. Run once with `-merilo_seed=DIR` the target searches the system
// with `explore` options (`-merilo_max_states=N` overrides their bound for
// this run), writes the shortest schedule to each control-state
// tuple it reached into DIR (one file each, see corpus.hpp) and exits: 0 when
// the search found no violation, 1 (after printing it) when it did. It is a
// separate step, never part of a fuzzing process, so `-fork` and `-jobs`
// workers never repeat the search. `make fuzz` seeds every target this way.
//
// Dictionary. Run once with `-merilo_dict=FILE` the target writes a fuzzer
// dictionary of its kinds' encodings (corpus.hpp) and exits 0 (after
// seeding, when `-merilo_seed=DIR` is given too). `make fuzz` passes it to
// libFuzzer as `-dict=`.
//
// Built without libFuzzer (any compiler), link `merilo::fuzz_main` instead
// of `-fsanitize=fuzzer`: the program then replays the files and
// directories named on its command line through the same target (flags
// starting with `-` other than `-merilo_seed=` are ignored), which is how
// plain `ctest` runs every corpus.
//
// NOTE: a `Target` owns its system and is neither copyable nor movable; the
// macro keeps one in a function-local static. The system type passed to the
// macro must not contain a top-level comma (use an alias).
#ifndef MERILO_FUZZ_TARGET_HPP
#define MERILO_FUZZ_TARGET_HPP

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <merilo/explore/explore.hpp>
#include <merilo/explore/replay.hpp>
#include <merilo/explore/system.hpp>
#include <merilo/fuzz/input.hpp>
#include <merilo/fuzz/run.hpp>

namespace merilo::fuzz {

/// What a fuzz target runs.
struct TargetOptions {
  /// Names the target in reports and its pinned replay test
  /// (`TEST(Replay, <name>_<violation>)`).
  const char* name = "Fuzz";
  /// The most steps one input takes, drain included. Required: 0 is a usage
  /// error.
  std::size_t max_depth = 0;
  /// The search that seeds the corpus (`-merilo_seed=DIR`). Its `max_states`
  /// is required to seed.
  explore::ExploreOptions explore{};
};

/// What seeding did.
struct Seeded {
  /// A usage error or an I/O error; nothing (or not everything) was written.
  std::string error;
  /// The search that produced the seeds.
  explore::ExploreResult search;
  /// Seed files written.
  std::size_t written = 0;
  /// Seeds whose schedule is longer than `max_depth` (they are written, but
  /// an input stops after `max_depth` steps).
  std::size_t too_long = 0;
  /// Seeding worked: no usage or I/O error, and the search found no
  /// violation (when it found one, `Target::seed_report` prints it and no
  /// seeds are written).
  [[nodiscard]] bool ok() const noexcept { return error.empty() && !search.violation.found(); }
};

/// A system plus options, as a fuzz target.
template <explore::System S>
class Target {
 public:
  /// `system_expr` is how the pinned replay test builds the system, e.g.
  /// "mutex::System<>{}".
  Target(S sys, TargetOptions options, std::string system_expr = "System{}");
  Target(const Target&) = delete;
  Target& operator=(const Target&) = delete;

  /// `LLVMFuzzerInitialize`: checks the options (printing a clear error and
  /// exiting with status 2 when they cannot run) and handles
  /// `-merilo_dict=FILE` (writes the dictionary) and `-merilo_seed=DIR`
  /// (seeds); either exits when done. Returns 0 otherwise.
  int initialize(int* argc, char*** argv);

  /// `LLVMFuzzerTestOneInput`: runs the input; on a violation prints
  /// `report` and aborts. Returns 0.
  int test_one_input(const std::uint8_t* data, std::size_t size);

  /// Runs one input without aborting (for tests).
  [[nodiscard]] Run run(std::span<const std::uint8_t> input);

  /// The text printed for a run that broke a rule: the violation, the
  /// formatted trace (replayed from reset, which also checks that it
  /// reproduces) and a paste-ready replay test.
  [[nodiscard]] std::string report(const Run& run, std::size_t input_size);

  /// The trace of a run that broke a rule as one HTML page (explore's
  /// html.hpp): a row per step, what changed at each marked, the broken
  /// rule and the pinned replay test. `report` also writes it, to
  /// `$MERILO_TRACE_HTML/<name>_<violation>.html`, when that environment
  /// variable names a directory.
  [[nodiscard]] std::string trace_html(const Run& run, std::size_t input_size);

  /// Searches with `options.explore` and writes one seed per tuple to `dir`.
  [[nodiscard]] Seeded seed(const std::string& dir);

  /// The text printed after seeding: a summary, or the violation the search
  /// found with its trace and a replay test.
  [[nodiscard]] std::string seed_report(const Seeded& seeded, const std::string& dir);

  /// Inputs run so far by `test_one_input` and `run`.
  [[nodiscard]] std::uint64_t executions() const noexcept { return executions_; }

  /// The options the target runs with.
  [[nodiscard]] const TargetOptions& options() const noexcept { return options_; }
  /// The system the target runs.
  [[nodiscard]] S& system() noexcept { return sys_; }

 private:
  S sys_;
  TargetOptions options_;
  std::string system_expr_;
  Runner<S> runner_;
  std::uint64_t executions_ = 0;
};

/// The replay driver's `main`: calls `init` (when not null) with the
/// arguments, then feeds every file named on the command line — every
/// regular file of a named directory, sorted — to `test_one_input`.
/// Arguments starting with `-` are skipped. Returns 0, or 2 on a usage or
/// I/O error (no inputs given or found, an unreadable path).
int replay_main(int argc, char** argv, int (*init)(int*, char***),
                int (*test_one_input)(const std::uint8_t*, std::size_t));

namespace detail {

/// What the crash report says beyond the run itself. The run is held whole
/// (not copied field by field), so whatever `Run` carries reaches the
/// report; the template only adds what needs the system, formatted in src/.
struct CrashReport {
  const Run& run;
  std::string_view target;
  std::size_t input_size = 0;
  std::uint64_t executions = 0;
  std::string table;     // explore::format of the trace
  std::string replayed;  // what replaying the trace did, if it differs
  std::string test;      // paste-ready replay test
  std::string page;      // where the trace page went (MERILO_TRACE_HTML), or ""
};

/// The trace page's context line for a crash: the target, the input's size
/// and how many of the run's steps came from it.
[[nodiscard]] std::string crash_context(std::string_view target, const Run& run,
                                        std::size_t input_size);

/// The text `Target::report` returns.
[[nodiscard]] std::string crash_report(const CrashReport& report);
/// The seeding summary line, or the report of the violation it found.
[[nodiscard]] std::string seed_summary(const std::string& target, const std::string& dir,
                                       std::size_t written, std::size_t too_long,
                                       std::size_t max_depth, const explore::ExploreResult& search);
/// The value of flag `-<name>=VALUE` in argv, or "" when absent.
[[nodiscard]] std::string flag(int argc, char** argv, std::string_view name);
/// Parses the value of `-merilo_max_states=N` into `out`; returns "" or the
/// usage error. An empty `value` leaves `out` alone.
[[nodiscard]] std::string parse_max_states(const std::string& value, std::size_t& out);
/// The usage error for `options` when seeding (`seeding`) or fuzzing.
[[nodiscard]] std::string check_target(const TargetOptions& options, bool seeding);
/// Prints `text` to stderr and flushes it.
void print_err(const std::string& text);
/// Prints `text`, then exits with `status`.
[[noreturn]] void fail(const std::string& text, int status);

}  // namespace detail

}  // namespace merilo::fuzz

/// Defines `LLVMFuzzerInitialize` and `LLVMFuzzerTestOneInput` for a
/// `merilo::fuzz::Target<SystemType>` built from `SystemType{}` and
/// `merilo::fuzz::TargetOptions{__VA_ARGS__}` (designated initializers).
#define MERILO_FUZZ_TARGET(SystemType, ...)                                           \
  static ::merilo::fuzz::Target<SystemType>& merilo_fuzz_target() {                   \
    static ::merilo::fuzz::Target<SystemType> target{                                 \
        SystemType{}, ::merilo::fuzz::TargetOptions{__VA_ARGS__}, #SystemType "{}"};  \
    return target;                                                                    \
  }                                                                                   \
  extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {                      \
    return merilo_fuzz_target().initialize(argc, argv);                               \
  }                                                                                   \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    return merilo_fuzz_target().test_one_input(data, size);                           \
  }                                                                                   \
  static_assert(true, "require a semicolon after MERILO_FUZZ_TARGET(...)")

#include <merilo/fuzz/detail/target_inl.hpp>

#endif  // MERILO_FUZZ_TARGET_HPP
