// report.cpp — statem's text: failure reports, crash and precondition
// violations, usage errors and config validation, compiled once.
#include <iterator>  // std::back_inserter

#include <fmt/format.h>

#include <merilo/core/crash.hpp>
#include <merilo/core/text.hpp>  // every user text printed goes through printable
#include <merilo/statem/guard.hpp>
#include <merilo/statem/statem.hpp>

namespace merilo::statem {

std::string_view name(FailureStage stage) noexcept {
  switch (stage) {
    case FailureStage::setup:
      return "setup";
    case FailureStage::command:
      return "command";
    case FailureStage::finish:
      return "finish";
    case FailureStage::generation:
      return "generation";
  }
  return "out-of-range";
}

std::string_view name(ShrinkEnd end) noexcept {
  switch (end) {
    case ShrinkEnd::converged:
      return "converged";
    case ShrinkEnd::bound_hit:
      return "bound hit";
  }
  return "out-of-range";
}

namespace detail {

namespace {

/// "at step 3", "in finish, after all 4 commands", "in setup ...".
std::string where(FailureStage stage, std::size_t step, std::size_t size) {
  switch (stage) {
    case FailureStage::setup:
      return "in setup (initial or new_sut), before any command";
    case FailureStage::command:
      return fmt::format("at step {}", step);
    case FailureStage::finish:
      return fmt::format("in finish, after all {} commands", size);
    case FailureStage::generation:
      return fmt::format("while drawing command {}", size);
  }
  return "somewhere out of range";
}

template <class... A>
void put(std::string& out, fmt::format_string<A...> format, A&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<A>(args)...);
}

std::string one_line(const Violation& v) {
  return fmt::format("[{}] {}", core::printable(v.tag), core::printable(v.detail));
}

/// Lists longer than this are printed cut to their first and last
/// `kKeptLines` lines (and the failing command).
constexpr std::size_t kLongList = 24;
constexpr std::size_t kKeptLines = 8;

/// One command per line, numbered; the failing one marked with "->". With
/// `cut`, a long list keeps only its first and last lines and the failing
/// command.
void list(std::string& out, const std::vector<std::string>& cmds, FailureStage stage,
          std::size_t step, bool cut) {
  if (cmds.empty()) {
    out += "    (empty list)\n";
    return;
  }
  const int width = static_cast<int>(fmt::formatted_size("{}", cmds.size() - 1));
  const bool shorten = cut && cmds.size() > kLongList;
  std::size_t hidden = 0;
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    const bool failing = stage == FailureStage::command && i == step;
    const bool shown = !shorten || failing || i < kKeptLines || i + kKeptLines >= cmds.size();
    if (!shown) {
      ++hidden;
      continue;
    }
    if (hidden > 0) put(out, "     {:>{}}  ... {} commands not shown ...\n", "", width, hidden);
    hidden = 0;
    put(out, "  {} {:>{}}  {}\n", failing ? "->" : "  ", i, width, core::printable(cmds[i]));
  }
  if (hidden > 0) put(out, "     {:>{}}  ... {} commands not shown ...\n", "", width, hidden);
}

}  // namespace

std::string render_report(const FailureInfo& in, const std::vector<std::string>& original,
                          const std::vector<std::string>& shrunk) {
  std::string out;
  put(out, "merilo::statem: run {} of seed {} failed {}: {}\n", in.run, in.seed,
      where(in.stage, in.step, shrunk.size()), one_line(in.violation));
  if (in.stage == FailureStage::generation) {
    put(out,
        "  a callback threw while the list was being drawn, so it was not executed or shrunk\n");
  } else if (in.replayed) {
    put(out, "  rebuilt from a replay token and executed once (not shrunk again)\n");
  } else {
    put(out,
        "  shrunk from {} to {} commands: {} shrinks accepted, {} executions, {} inadmissible "
        "candidates dropped; {}",
        original.size(), shrunk.size(), in.shrinks, in.candidates, in.inadmissible, name(in.end));
    if (in.end == ShrinkEnd::bound_hit) {
      put(out, " (max_shrinks = {}, a shrink_stop or the cap of {} inadmissible candidates)",
          in.max_shrinks, kMaxInadmissible);
    }
    put(out, "\n");
  }
  put(out, "\nshrunk list ({} commands), failing {}:\n", shrunk.size(),
      where(in.stage, in.step, shrunk.size()));
  list(out, shrunk, in.stage, in.step, false);
  put(out, "violation: {}\n", one_line(in.violation));
  put(out, "\noriginal list ({} commands), failing {}:\n", original.size(),
      where(in.original_stage, in.original_step, original.size()));
  list(out, original, in.original_stage, in.original_step, true);
  put(out, "violation: {}\n", one_line(in.original_violation));
  put(out, "\nreproduce:\n");
  put(out,
      "  this run alone:   merilo::statem::check_run(spec, {{.seed = {}, .test_count = {}, "
      ".max_commands = {}, .max_shrinks = {}, .shrink_retries = {}}}, {})\n",
      in.seed, in.test_count, in.max_commands, in.max_shrinks, in.shrink_retries, in.run);
  put(out,
      "  its list only:    merilo::statem::commands(spec, {{.seed = {}, .test_count = {}, "
      ".max_commands = {}}}, {})\n",
      in.seed, in.test_count, in.max_commands, in.run);
  if (!in.replay_token.empty()) {
    put(out,
        "  the shrunk list:  run the test again with the environment variable below, or pass "
        "CheckOptions{{.replay = \"{}\"}}\n",
        in.replay_token);
    put(out, "MERILO_STATEM_REPLAY={}\n", in.replay_token);
  }
  return out;
}

Violation inadmissible(std::size_t step, std::string_view cmd) {
  return Violation{std::string(kPreconditionTag),
                   fmt::format("command {} ({}) is rejected by its precondition in the model "
                               "the earlier commands lead to",
                               step, cmd)};
}

std::string validate(const CheckOptions& config, bool needs_test_count) {
  if (!config.seed) {
    return "merilo::statem: CheckOptions::seed is required (there is no default seed); e.g. "
           "CheckOptions{.seed = 42}";
  }
  if (needs_test_count && config.test_count == 0) {
    return "merilo::statem: CheckOptions::test_count is 0, so the check would run nothing; use "
           "at least 1";
  }
  if (config.max_commands == 0) {
    return "merilo::statem: CheckOptions::max_commands is 0; lists need room for at least 1 "
           "command";
  }
  if (config.max_commands > kMaxCommandsLimit) {
    return fmt::format(
        "merilo::statem: CheckOptions::max_commands is {}, above the limit of {} commands "
        "(kMaxCommandsLimit)",
        config.max_commands, kMaxCommandsLimit);
  }
  return "";
}

std::string invalid_generator(std::string_view why) {
  return fmt::format(
      "merilo::statem: the generator the spec's command() returned can never draw a command: "
      "{}; fix the generator (nothing was tested)",
      why);
}

std::string unhealthy(std::size_t starved, std::size_t runs) {
  return fmt::format(
      "merilo::statem: the check did not really test: {} of its {} runs were starved (their "
      "list ended with fewer than half the commands asked for, because {} draws in a row were "
      "rejected by the precondition or gave up); loosen the precondition or make command() "
      "draw admissible commands",
      starved, runs, kMaxConsecutiveRejections);
}

}  // namespace detail

Violation crash_violation(std::string_view callback, std::exception_ptr error) {
  return Violation{std::string(kCrashTag),
                   fmt::format("{} threw: {}", callback, core::exception_text(std::move(error)))};
}

}  // namespace merilo::statem
