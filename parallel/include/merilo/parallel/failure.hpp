// merilo/parallel/failure.hpp — what a failing parallel run found, and its
// report.
//
// A `Failure` names the run that failed (seed and run number, enough to
// reproduce it), the violation, the case as drawn and as shrunk, and the
// evidence: where the shrunk case broke (in the prefix, in the race, after
// it) with the recorded histories and the checker's explanation. `report`
// turns it into text: the cases, a timeline of the race with each call's
// instants and response, and the lines that reproduce it.
// `write_html` (merilo/parallel/html.hpp) draws the same failure as an
// HTML page; `placed` and `stuck` carry the checker's dead end for it.
//
// Example:
//
//   auto r = merilo::parallel::check(CounterSpec{}, {.seed = 7});
//   if (r.failure) std::puts(merilo::parallel::report(*r.failure).c_str());
//
// NOTE: the non-command fields live in the non-template `FailureInfo`, and
// the text is laid out once, in parallel/src/report.cpp; the template only
// turns commands and responses into text with `core::describe`.
#ifndef MERILO_PARALLEL_FAILURE_HPP
#define MERILO_PARALLEL_FAILURE_HPP

#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t, std::uint64_t
#include <string>       // report text
#include <string_view>  // name()
#include <vector>       // histories

#include <merilo/core/describe.hpp>    // commands and responses as text
#include <merilo/linearize/check.hpp>  // Call, History, CallRef
#include <merilo/parallel/spec.hpp>    // Case
#include <merilo/statem/statem.hpp>    // Violation

namespace merilo::parallel {

/// One call a branch made during a race: linearize's `Call` (command,
/// response, invoked_at, returned_at), so a race's histories go to the
/// checker as they are. Instants are steady_clock nanoseconds under free
/// threads and logical steps under a controlled scheduler.
using linearize::Call;

/// One branch's calls, in order (linearize's `History`).
using linearize::History;

/// Where the shrunk case broke, and so what the failure can show.
enum class Evidence : std::uint8_t {
  in_prefix,   ///< A prefix call (at `FailureInfo::prefix_step`) broke a rule.
  raced,       ///< The race: `histories` and the checker's `explanation`.
  after_race,  ///< `finish`, after a linearizable race: `histories`.
  unrecorded,  ///< No usable histories: a crash, a timeout, a broken `new_sut`.
  no_race,     ///< Generation found no two branches to race; nothing ran.
};

/// "in prefix", "raced", "after race", "unrecorded", "no race".
[[nodiscard]] std::string_view name(Evidence evidence) noexcept;

/// A switch from one branch to another in a controlled race.
struct Switch {
  std::int64_t at = 0;      ///< The logical instant (the race's clock).
  std::size_t from = 0;     ///< The branch that was running.
  std::size_t to = 0;       ///< The branch that went next.
  bool preemption = false;  ///< `from` could have gone on.
  std::string before;       ///< What `from` was about to do ("atomic load of #1").
};

/// How the failing case was scheduled.
struct ScheduleStats {
  Scheduler scheduler = Scheduler::os;  ///< Who decided the interleavings.
  /// Controlled executions of the case in its last search.
  std::size_t schedules = 0;
  /// Scheduler::preemption_bounded: executions with bound 0, 1, ... (the
  /// last entry is the round that found the failure, if one did).
  std::vector<std::size_t> per_round;
  /// Rounds completed: every schedule with at most `rounds_done - 1`
  /// preemptions was run (0: none).
  std::size_t rounds_done = 0;
  bool budget_spent = false;  ///< `CheckOptions::schedules` ran out first.
  /// The failing schedule: the branch chosen at each decision (a point
  /// where two or more branches could run), without the trailing choices
  /// that the default (the running branch goes on) makes anyway.
  std::vector<std::uint8_t> schedule;
  std::size_t preemptions = 0;   ///< Preemptions in `schedule`.
  std::vector<Switch> switches;  ///< Where the failing race changed branch.
};

/// A branch's next call at the checker's dead end, which could not go next.
struct StuckCall {
  linearize::CallRef call;  ///< `history` is the branch, `index` the call in it.
  std::string reason;       ///< Why not, in the checker's words.
};

/// The fields of a failure that do not depend on the command type.
struct FailureInfo {
  std::uint64_t seed = 0;  ///< `CheckOptions::seed` of the check.
  std::size_t run = 0;     ///< The failing run (0-based).
  /// The generation settings actually used (after clamping), needed to
  /// reproduce the run.
  std::size_t branches = 0;
  std::size_t max_prefix = 0;                ///< See `branches`.
  std::size_t max_branch = 0;                ///< See `branches`.
  statem::Violation violation;               ///< What the shrunk case broke.
  statem::Violation original_violation;      ///< What the original case broke (same tag).
  Evidence evidence = Evidence::unrecorded;  ///< Where the shrunk case broke.
  std::size_t prefix_step = 0;               ///< The failing prefix call (Evidence::in_prefix).
  std::string explanation;                   ///< The checker's explanation (Evidence::raced).
  /// Evidence::raced: the calls the checker could place, in order (the
  /// longest valid prefix of a failed search, or the prefix placed before
  /// an undecided one ran out), as (branch, call) pairs.
  std::vector<linearize::CallRef> placed;
  /// Evidence::raced, not linearizable: each branch's next call after
  /// `placed`, none of which could go next.
  std::vector<StuckCall> stuck;
  /// Branches still running at the deadline (a timeout), by index.
  std::vector<std::size_t> unfinished;
  /// True when a branch never returned: the system was left alive (neither
  /// torn down nor destroyed under the running thread).
  bool system_left_alive = false;
  std::size_t shrinks = 0;               ///< Shrink candidates accepted.
  std::size_t executions = 0;            ///< Executions of this run: repeats, then shrink attempts.
  ShrinkEnd end = ShrinkEnd::converged;  ///< Why shrinking stopped.
  /// How the shrunk case was scheduled; its failing schedule when controlled.
  ScheduleStats scheduling;
  /// Executions of the original case until it first failed, and the time
  /// from the start of the check to that failure.
  std::size_t executions_to_failure = 0;
  std::int64_t ns_to_failure = 0;  ///< See `executions_to_failure`.
  /// Threads the check abandoned (calls that never returned), each keeping
  /// its system alive; shrinking stops at `kMaxAbandonedThreads`.
  std::size_t abandoned_threads = 0;
  /// The shrunk case as positions in the original one (see `pin_token`).
  std::vector<std::size_t> shrunk_prefix_at;
  std::vector<std::vector<std::size_t>> shrunk_branches_at;  ///< See `shrunk_prefix_at`.
  /// A hash of the shrunk case's commands as `core::describe` words them
  /// (`detail::case_check`), set by `check` and `replay`; the pin token's
  /// check covers it, so a token rebuilds this case or is refused.
  std::uint64_t shrunk_check = 0;
};

/// A failing run, shrunk.
template <class Cmd, class Resp>
struct Failure : FailureInfo {
  Case<Cmd> original;  ///< The case run `run` drew (= `generate_case(spec, config, run)`).
  Case<Cmd> shrunk;    ///< The smallest failing case found.
  /// The responses of the shrunk prefix's calls, as far as they ran.
  std::vector<Resp> prefix_responses;
  /// The shrunk case's branches as they ran (Evidence::raced, after_race).
  std::vector<History<Cmd, Resp>> histories;
};

/// A token that pins the shrunk case of `failure` and, when it was found
/// under a controlled scheduler, its failing schedule:
/// `replay(spec, token)` runs exactly that case under exactly that
/// schedule. It names the seed, the run and the generation settings (the
/// original case is drawn again from them), the shrunk case as positions
/// in the original, the schedule, and last a check:
///
///   p2:SEED:RUN:BRANCHES:MAX_PREFIX:MAX_BRANCH:PREFIX:BRANCH/BRANCH...:SCHEDULE:CHECK
///
/// where PREFIX and each BRANCH are positions joined by '.', SCHEDULE is
/// the branch chosen at each decision (one digit each; "-" for none) or
/// "free" for a failure found with free threads (whose replay is not
/// exact), and CHECK is 16 hex digits hashing the fields before it and the
/// shrunk case's commands in words (`FailureInfo::shrunk_check`). `replay`
/// rebuilds the case and refuses the token (a usage error) unless the check
/// matches: a token cut short or edited, or used on a spec whose generator
/// now draws other commands, is an error rather than another case that
/// passes. p1 tokens (no check) are refused.
[[nodiscard]] std::string pin_token(const FailureInfo& failure);

namespace detail {

/// A parsed pin token (see `pin_token`).
struct Pin {
  std::string_view body;  ///< The token up to its check (what the check hashes).
  std::uint64_t check = 0;
  std::uint64_t seed = 0;
  std::size_t run = 0;
  std::size_t branches = 0;
  std::size_t max_prefix = 0;
  std::size_t max_branch = 0;
  std::vector<std::size_t> prefix_at;
  std::vector<std::vector<std::size_t>> branches_at;
  bool controlled = false;
  std::vector<std::uint8_t> schedule;
};

/// Parses `token` into `pin`; returns "" or what is wrong with it.
/// `pin.body` views `token`.
[[nodiscard]] std::string parse_pin(std::string_view token, Pin& pin);

/// The check of a case whose prefix and branches describe as given: each
/// command's words with their length, each list with its size, so no two
/// cases run together.
[[nodiscard]] std::uint64_t case_check(const std::vector<std::string>& prefix,
                                       const std::vector<std::vector<std::string>>& branches);

/// The token check of `body` (a token's fields up to SCHEDULE) for a case
/// whose `case_check` is `case_hash`.
[[nodiscard]] std::uint64_t pin_check(std::string_view body, std::uint64_t case_hash);

/// The usage error of a pin whose rebuilt case is not the one it was made
/// for.
[[nodiscard]] std::string pin_mismatch(std::string_view token);

/// A call with its command and response already in words.
struct CallText {
  std::string command;
  std::string response;
  std::int64_t invoked_at = 0;
  std::int64_t returned_at = 0;
};

/// A failure with every command and response turned into text; laid out
/// once, in src/report.cpp.
struct FailureText {
  const FailureInfo* core = nullptr;
  std::vector<std::string> original_prefix;
  std::vector<std::vector<std::string>> original_branches;
  std::vector<std::string> shrunk_prefix;
  std::vector<std::vector<std::string>> shrunk_branches;
  std::vector<std::string> prefix_responses;
  std::vector<std::vector<CallText>> histories;
};

[[nodiscard]] std::string format_report(const FailureText& text);

template <class Cmd>
std::vector<std::string> describe_all(const std::vector<Cmd>& commands) {
  std::vector<std::string> out;
  out.reserve(commands.size());
  for (const Cmd& c : commands) out.push_back(core::describe(c));
  return out;
}

/// `case_check` of `c`'s commands in words.
template <class Cmd>
std::uint64_t case_check_of(const Case<Cmd>& c) {
  std::vector<std::vector<std::string>> branches;
  branches.reserve(c.branches.size());
  for (const auto& b : c.branches) branches.push_back(describe_all(b));
  return case_check(describe_all(c.prefix), branches);
}

/// `failure` in words: what `report` lays out and `write_html` draws.
template <class Cmd, class Resp>
FailureText failure_text(const Failure<Cmd, Resp>& failure) {
  FailureText text;
  text.core = &failure;
  text.original_prefix = describe_all(failure.original.prefix);
  for (const auto& b : failure.original.branches) text.original_branches.push_back(describe_all(b));
  text.shrunk_prefix = describe_all(failure.shrunk.prefix);
  for (const auto& b : failure.shrunk.branches) text.shrunk_branches.push_back(describe_all(b));
  text.prefix_responses = describe_all(failure.prefix_responses);
  for (const History<Cmd, Resp>& h : failure.histories) {
    std::vector<CallText> calls;
    calls.reserve(h.size());
    for (const Call<Cmd, Resp>& c : h) {
      calls.push_back(
          {core::describe(c.command), core::describe(c.response), c.invoked_at, c.returned_at});
    }
    text.histories.push_back(std::move(calls));
  }
  return text;
}

}  // namespace detail

/// A multi-line report of `failure`: the violation, the original and
/// shrunk cases, the evidence (the prefix call that failed, or the race as
/// an aligned timeline of calls with their instants and responses, and the
/// checker's explanation), shrink statistics, and the lines that reproduce
/// it. The same failure always gives the same text.
template <class Cmd, class Resp>
[[nodiscard]] std::string report(const Failure<Cmd, Resp>& failure) {
  return detail::format_report(detail::failure_text(failure));
}

}  // namespace merilo::parallel

#endif  // MERILO_PARALLEL_FAILURE_HPP
