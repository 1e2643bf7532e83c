// main.cpp — merilo-lincheck: checks a recorded history (JSON Lines,
// Jepsen's conventions) against a built-in model. Exit 0 linearizable,
// 1 not, 2 undecided, 3 bad input, 4 internal error.
#include <fstream>
#include <iostream>
#include <string>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <CLI/CLI.hpp>

#include "lincheck.hpp"

int main(int argc, char** argv) {
  using merilo::lincheck::Args;
  Args args;
  std::string file;
  CLI::App app{
      "merilo-lincheck: is a recorded history linearizable?\n"
      "Reads JSON Lines events ({\"process\": 0, \"type\": \"invoke\", \"f\": \"write\", "
      "\"value\": 3}, ...)\n"
      "Exit status: 0 linearizable, 1 not linearizable, 2 undecided, 3 bad input, 4 internal "
      "error.",
      "merilo-lincheck"};
  app.add_option("--model", args.model, "register, kv or queue")->required();
  app.add_option("--budget", args.budget, "search steps before giving up as undecided")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--timeout", args.timeout_seconds, "seconds before giving up as undecided")
      ->check(CLI::PositiveNumber);
  app.add_option("--cache-mb", args.cache_mb, "memory for the search's state cache, in MiB")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_flag("--explain", args.explain, "show the deepest dead end or longest partial order");
  app.add_option("FILE", file, "the history (- reads standard input)")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(std::cerr,
               "merilo-lincheck: {}\nusage: merilo-lincheck --model register|kv|queue "
               "[--budget N] [--timeout SECONDS] [--explain] FILE\n",
               e.what());
    return merilo::lincheck::kBadInput;
  }
  if (!merilo::lincheck::known_model(args.model)) {
    fmt::print(std::cerr,
               "merilo-lincheck: unknown model \"{}\" (expected register, kv or queue)\n",
               args.model);
    return merilo::lincheck::kBadInput;
  }
  args.source = file == "-" ? "<stdin>" : file;
  if (file == "-") return merilo::lincheck::run(args, std::cin, std::cout, std::cerr);
  std::ifstream in(file);
  if (!in) {
    fmt::print(std::cerr, "merilo-lincheck: cannot open {}\n", file);
    return merilo::lincheck::kBadInput;
  }
  return merilo::lincheck::run(args, in, std::cout, std::cerr);
}
