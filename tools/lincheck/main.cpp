// main.cpp — merilo-lincheck: checks recorded histories (JSON Lines or EDN,
// Jepsen's conventions) against a built-in model. Exit 0 linearizable,
// 1 not, 2 undecided, 3 bad input, 4 internal error (the worst of all files).
#include <charconv>
#include <cstdint>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <CLI/CLI.hpp>

#include <merilo/core/text.hpp>

#include "batch.hpp"
#include "build_info.hpp"
#include "lincheck.hpp"

namespace {

/// CLI11 reads "-1" into an unsigned count as 2^64 - 1 (strtoull wraps
/// negative numbers): refuse a minus sign before it gets there.
std::string not_negative(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first != std::string::npos && text[first] == '-') return "must not be negative";
  return {};
}

/// --initial's text: an integer, or nil/null for a register that starts
/// empty (the default, said explicitly). Sets `args.initial`; returns the
/// problem, or "".
std::string parse_initial(const std::string& text, merilo::lincheck::Args& args) {
  if (text == "nil" || text == "null") {
    args.initial.reset();
    return {};
  }
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [at, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc{} || at != end) {
    return fmt::format("--initial must be an integer (64-bit) or nil, got \"{}\"",
                       merilo::core::printable(text.substr(0, 40)));
  }
  args.initial = value;
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  using merilo::lincheck::Args;
  Args args;
  std::vector<std::string> files;
  unsigned jobs = 1;
  std::string initial;
  const std::string models = merilo::lincheck::model_names(", ", " or ");
  CLI::App app{
      "merilo-lincheck: is a recorded history linearizable?\n"
      "Reads JSON Lines events ({\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", "
      "\"value\": 3}, ...) or EDN ({:process 0, :type :invoke, :f :write, :value 3}, ...)\n"
      "Exit status (the worst over all files): 0 linearizable, 1 not linearizable, 2 undecided, "
      "3 bad input, 4 internal error.",
      "merilo-lincheck"};
  app.add_option("--model", args.model, models)->required();
  app.add_option("--budget", args.budget, "search steps before giving up as undecided")
      ->check(not_negative)
      ->capture_default_str();
  app.add_option("--timeout", args.timeout_seconds,
                 "seconds before giving up as undecided (0: none)");
  app.add_option("--cache-mb", args.cache_mb, "memory for the search's state cache, in MiB")
      ->check(not_negative)
      ->capture_default_str();
  app.add_option("--max-line-bytes", args.max_line_bytes,
                 "the longest line accepted; a longer one is bad input")
      ->check(not_negative)
      ->capture_default_str();
  app.add_flag("--explain", args.explain, "show the deepest dead end or longest partial order");
  app.add_option("--html", args.html,
                 "also write the history and the verdict as one self-contained HTML page");
  app.add_option("--format", args.format,
                 "jsonl or edn (default: EDN for a file ending in .edn, else JSON Lines)");
  app.add_option("--meaning", args.meaning,
                 "jepsen or merilo: what fail and nil results mean (default: jepsen for EDN, "
                 "merilo for JSON Lines)");
  auto* initial_option = app.add_option(
      "--initial", initial,
      "the register's value before any write: an integer, or nil (the default; Knossos's "
      "(cas-register 0) is --initial 0, its (cas-register) --initial nil)");
  app.add_flag("--independent", args.independent,
               "values are jepsen.independent [key value] tuples: check each key apart");
  app.add_option("--jobs", jobs, "check this many files at once")
      ->check(not_negative)
      ->capture_default_str();
  app.add_flag_callback(
      "--version",
      [] {
        fmt::print("merilo-lincheck, {}\n", merilo::lincheck::kBuildInfo);
        throw CLI::Success();
      },
      "say how this binary was built (optimized or not) and exit");
  app.add_option("FILE", files,
                 "the histories (- reads standard input; a directory gives its *.jsonl and *.edn "
                 "files)")
      ->required();
  const std::string usage = fmt::format(
      "usage: merilo-lincheck --model {} [--budget N] [--timeout SECONDS] "
      "[--cache-mb MB] [--max-line-bytes N] [--explain] [--html OUT.html] [--format jsonl|edn] "
      "[--meaning jepsen|merilo] [--initial N|nil] [--independent] [--jobs N] FILE...",
      merilo::lincheck::model_names("|", "|"));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::Success& e) {  // --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(std::cerr, "merilo-lincheck: {}\n{}\n", merilo::core::printable(e.what()), usage);
    return merilo::lincheck::kBadInput;
  }
  std::string problem;
  if (*initial_option) {
    problem = parse_initial(initial, args);
    if (problem.empty() && args.model != "register") {
      problem =
          fmt::format("--initial sets the register model's first value; the {} model starts empty",
                      merilo::core::printable(args.model));
    }
  }
  if (problem.empty()) problem = merilo::lincheck::check_args(args);
  const merilo::lincheck::Expanded expanded = merilo::lincheck::expand(files);
  if (problem.empty()) problem = expanded.error;
  if (problem.empty() && jobs == 0) problem = "--jobs must be at least 1";
  if (problem.empty() && !args.html.empty() && expanded.files.size() > 1) {
    problem = fmt::format(
        "--html writes one page for one history, and {} files were given: run once per file",
        expanded.files.size());
  }
  if (!problem.empty()) {
    fmt::print(std::cerr, "merilo-lincheck: {}\n{}\n", problem, usage);
    return merilo::lincheck::kBadInput;
  }
  return merilo::lincheck::run_files(args, expanded.files, jobs, std::cout, std::cerr,
                                     expanded.listed);
}
