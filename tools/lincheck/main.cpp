// main.cpp — merilo-lincheck: checks a recorded history (JSON Lines,
// Jepsen's conventions) against a built-in model. Exit 0 linearizable,
// 1 not, 2 undecided, 3 bad input, 4 internal error.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <system_error>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <CLI/CLI.hpp>

#include <merilo/core/text.hpp>

#include "lincheck.hpp"

namespace {

/// CLI11 reads "-1" into an unsigned count as 2^64 - 1 (strtoull wraps
/// negative numbers): refuse a minus sign before it gets there.
std::string not_negative(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first != std::string::npos && text[first] == '-') return "must not be negative";
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  using merilo::lincheck::Args;
  Args args;
  std::string file;
  const std::string models = merilo::lincheck::model_names(", ", " or ");
  CLI::App app{
      "merilo-lincheck: is a recorded history linearizable?\n"
      "Reads JSON Lines events ({\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", "
      "\"value\": 3}, ...)\n"
      "Exit status: 0 linearizable, 1 not linearizable, 2 undecided, 3 bad input, 4 internal "
      "error.",
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
  app.add_option("FILE", file, "the history (- reads standard input)")->required();
  const std::string usage = fmt::format(
      "usage: merilo-lincheck --model {} [--budget N] [--timeout SECONDS] "
      "[--cache-mb MB] [--max-line-bytes N] [--explain] [--html OUT.html] FILE",
      merilo::lincheck::model_names("|", "|"));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(std::cerr, "merilo-lincheck: {}\n{}\n", merilo::core::printable(e.what()), usage);
    return merilo::lincheck::kBadInput;
  }
  if (const std::string problem = merilo::lincheck::check_args(args); !problem.empty()) {
    fmt::print(std::cerr, "merilo-lincheck: {}\n{}\n", problem, usage);
    return merilo::lincheck::kBadInput;
  }
  args.source = file == "-" ? "<stdin>" : merilo::core::printable(file);
  args.input = file;
  if (file == "-") return merilo::lincheck::run(args, std::cin, std::cout, std::cerr);
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    fmt::print(std::cerr, "merilo-lincheck: cannot read {}: {}\n", args.source,
               std::strerror(EISDIR));
    return merilo::lincheck::kBadInput;
  }
  std::ifstream in(file);
  if (!in) {
    fmt::print(std::cerr, "merilo-lincheck: cannot open {}\n", args.source);
    return merilo::lincheck::kBadInput;
  }
  return merilo::lincheck::run(args, in, std::cout, std::cerr);
}
