// lincheck.cpp — merilo-lincheck's entry point: the list of models, the
// checks of the arguments, and reading a history for the adapter that
// checks it (model_adapters.hpp, checker.hpp).
#include "lincheck.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <ios>
#include <iterator>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <merilo/core/text.hpp>

#include "checker.hpp"
#include "history_file.hpp"
#include "model_adapters.hpp"
#include "report_file.hpp"

namespace merilo::lincheck {

namespace {

template <class A>
int run_model(const Args& args, std::istream& in, std::ostream& out, std::ostream& err,
              ReportFile* report) {
  RawHistory history;
  ReadOptions read;
  read.fs = A::fs();
  read.model = A::kName;
  read.max_line_bytes = args.max_line_bytes;
  read.independent = args.independent;
  const bool edn = args.format == "edn" || (args.format == "auto" && args.input.ends_with(".edn"));
  if (auto e = edn ? read_edn_history(in, read, history) : read_history(in, read, history)) {
    fmt::print(err, "merilo-lincheck: {}: {}\n", args.source, e->text());
    return kBadInput;
  }
  const bool jepsen = args.meaning == "jepsen" || (args.meaning == "auto" && edn);
  history.meaning = jepsen ? Meaning::jepsen : Meaning::merilo;
  return Checker<A>(args, history, report).run(out, err);
}

/// Every model merilo-lincheck knows, with the adapter that runs it: the one
/// place the list is spelled.
struct ModelEntry {
  const char* name;
  int (*run)(const Args&, std::istream&, std::ostream&, std::ostream&, ReportFile*);
};
constexpr ModelEntry kModels[] = {
    {RegisterAdapter::kName, run_model<RegisterAdapter>},
    {KvAdapter::kName, run_model<KvAdapter>},
    {QueueAdapter::kName, run_model<QueueAdapter>},
    {BagAdapter::kName, run_model<BagAdapter>},
};

}  // namespace

std::string model_names(const char* separator, const char* last) {
  std::string out;
  const std::size_t n = std::size(kModels);
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out += i + 1 == n ? last : separator;
    out += kModels[i].name;
  }
  return out;
}

bool known_model(const std::string& name) {
  return std::any_of(std::begin(kModels), std::end(kModels),
                     [&](const ModelEntry& m) { return name == m.name; });
}

std::string check_args(const Args& args) {
  if (!known_model(args.model)) {
    return fmt::format("unknown model \"{}\" (expected {})", clipped(args.model, kMaxShown),
                       model_names(", ", " or "));
  }
  if (args.budget == 0) return "--budget must be at least 1";
  if (!(args.timeout_seconds >= 0 && args.timeout_seconds <= kMaxTimeoutSeconds)) {
    return fmt::format("--timeout must be a number of seconds from 0 (none) to {:g}",
                       kMaxTimeoutSeconds);
  }
  constexpr std::uint64_t kMaxCacheMb = std::numeric_limits<std::size_t>::max() >> 20U;
  if (args.cache_mb == 0 || args.cache_mb > kMaxCacheMb) {
    return fmt::format("--cache-mb must be from 1 to {}", kMaxCacheMb);
  }
  if (args.max_line_bytes == 0) return "--max-line-bytes must be at least 1";
  if (args.format != "auto" && args.format != "jsonl" && args.format != "edn") {
    return fmt::format(
        "unknown --format \"{}\" (expected jsonl or edn; by default a file "
        "ending in .edn is EDN, anything else JSON Lines)",
        clipped(args.format, kMaxShown));
  }
  if (args.meaning != "auto" && args.meaning != "merilo" && args.meaning != "jepsen") {
    return fmt::format(
        "unknown --meaning \"{}\" (expected jepsen or merilo; by default EDN histories "
        "have Jepsen's meaning and JSON Lines merilo's)",
        clipped(args.meaning, kMaxShown));
  }
  if (args.initial && args.model != RegisterAdapter::kName) {
    return fmt::format(
        "--initial sets the register model's first value; the {} model starts "
        "empty",
        args.model);
  }
  return {};
}

int run(const Args& args, std::istream& in, std::ostream& out, std::ostream& err) {
  try {
    if (const std::string problem = check_args(args); !problem.empty()) {
      fmt::print(err, "merilo-lincheck: {}\n", problem);
      return kBadInput;
    }
    // Checked before the history is read: a report that cannot be written
    // is found before the check runs, and written only once it is done.
    ReportFile report;
    if (!args.html.empty()) {
      const FileId input = args.input.empty() ? FileId{} : file_id(args.input);
      if (const std::string problem = report.open(args.html, input); !problem.empty()) {
        fmt::print(err, "merilo-lincheck: {}\n", problem);
        return kBadInput;
      }
    }
    for (const ModelEntry& m : kModels) {
      if (args.model == m.name) {
        return m.run(args, in, out, err, args.html.empty() ? nullptr : &report);
      }
    }
    return kInternalError;                     // check_args() knows every model
  } catch (const std::ios_base::failure& e) {  // the history could not be read (EIO, EISDIR)
    fmt::print(err, "merilo-lincheck: cannot read {}: {}\n", args.source,
               core::printable(e.what()));
    return kBadInput;
  } catch (const std::exception& e) {
    fmt::print(err, "merilo-lincheck: internal error: {}\n", core::printable(e.what()));
    return kInternalError;
  }
}

}  // namespace merilo::lincheck
