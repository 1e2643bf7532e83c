// fuzz.cpp — a sync::model body driven by fuzzer bytes, and the seeds the
// cheapest-first search gives the fuzzer (fuzz.hpp).
#include <merilo/sync/fuzz.hpp>

#include <cstddef>        // std::size_t
#include <unordered_set>  // reads-from pairs seen
#include <utility>        // std::move

#include "execution.hpp"
#include "strategies.hpp"

namespace merilo::sync {

FuzzRun run_input(const ModelOptions& options, const std::function<void()>& body,
                  std::span<const std::uint8_t> input, const char* file, unsigned line) {
  FuzzRun out;
  ModelResult& result = out.result;
  result.search = options.search;
  result.file = file;
  result.line = line;
  result.name = options.name;
  if (!body) {
    result.error = "merilo::sync::run_input: the body is an empty std::function";
    return out;
  }
  detail::Memory memory;
  detail::BytesStrategy strategy(input);
  const detail::Execution e = detail::run_once(strategy, options, body, memory);
  result.executions = 1;
  result.failure = detail::classify(e, false);
  if (result.failure) result.failure->execution = 1;
  out.reads_from = e.reads_from;
  return out;
}

Seeds seed_inputs(const ModelOptions& options, const std::function<void()>& body) {
  Seeds seeds;
  if (!body || options.max_executions == 0) return seeds;
  std::unordered_set<std::uint64_t> seen;
  detail::Memory memory;
  std::size_t executions = 0;
  // Fewest preemptions first (weak choices are free, the newest store
  // tried first): the first execution to make a pair is the one with the
  // fewest preemptions that does (within the bound).
  bool cut = false;
  for (std::size_t bound = 0; bound <= options.preemptions; ++bound) {
    detail::BoundedStrategy search(bound, 0);
    while (search.begin()) {
      if (executions >= options.max_executions) {
        cut = true;
        break;
      }
      detail::RecordingStrategy recorder(search);
      const detail::Execution e = detail::run_once(recorder, options, body, memory);
      ++executions;
      bool fresh = detail::classify(e, search.diverged()).has_value();
      for (const std::uint64_t pair : e.reads_from) fresh = seen.insert(pair).second || fresh;
      if (fresh) seeds.inputs.push_back(recorder.bytes());
    }
    if (bound == options.preemptions) cut = cut || search.cut();
  }
  seeds.executions = executions;
  seeds.complete = !cut;
  return seeds;
}

}  // namespace merilo::sync
