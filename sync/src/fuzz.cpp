// fuzz.cpp — a sync::model body driven by fuzzer bytes, and the seeds the
// cheapest-first search gives the fuzzer (fuzz.hpp).
#include <merilo/sync/fuzz.hpp>

#include <algorithm>      // std::max
#include <cstddef>        // std::size_t
#include <unordered_set>  // reads-from pairs seen
#include <utility>        // std::move

#include <merilo/core/hash.hpp>  // the fuzzer's mutations

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

namespace detail {

std::optional<ModelFailure> fuzz_schedules(const ModelOptions& options,
                                           const std::function<void()>& body,
                                           std::size_t executions,
                                           std::chrono::steady_clock::time_point until,
                                           std::size_t& count, Memory& memory) {
  // Seeds: a quarter of the budget for the fewest-preemption search.
  ModelOptions seeding = options;
  seeding.max_executions = std::max<std::size_t>(executions / 4, 1);
  const Seeds seeds = seed_inputs(seeding, body);
  count += seeds.executions;
  std::vector<std::vector<std::uint8_t>> corpus = seeds.inputs;
  std::unordered_set<std::uint64_t> seen;
  const auto run = [&](const std::vector<std::uint8_t>& input) -> std::optional<ModelFailure> {
    BytesStrategy strategy(input);
    const Execution e = run_once(strategy, options, body, memory);
    ++count;
    if (auto f = classify(e, false)) {
      f->execution = count;
      f->found_by = "fuzzer";
      return f;
    }
    bool fresh = false;
    for (const std::uint64_t pair : e.reads_from) fresh = seen.insert(pair).second || fresh;
    if (fresh) corpus.push_back(input);
    return std::nullopt;
  };
  for (const auto& seed : seeds.inputs) {
    if (auto f = run(seed)) return f;
  }
  if (corpus.empty()) corpus.emplace_back();
  core::SplitMix64 rng(core::mix64(options.seed));
  for (std::size_t spent = seeds.executions + seeds.inputs.size();
       spent < executions && std::chrono::steady_clock::now() < until; ++spent) {
    std::vector<std::uint8_t> input = corpus[static_cast<std::size_t>(rng.below(corpus.size()))];
    const std::size_t edits = 1 + static_cast<std::size_t>(rng.below(3));
    for (std::size_t k = 0; k < edits; ++k) {
      const auto byte = static_cast<std::uint8_t>(rng.next());
      switch (input.empty() ? 0 : rng.below(4)) {
        case 0:  // insert a byte
          input.insert(input.begin() + static_cast<std::ptrdiff_t>(rng.below(input.size() + 1)),
                       byte);
          break;
        case 1:  // change one
          input[static_cast<std::size_t>(rng.below(input.size()))] = byte;
          break;
        case 2:  // drop one
          input.erase(input.begin() + static_cast<std::ptrdiff_t>(rng.below(input.size())));
          break;
        default:  // cut the tail
          input.resize(static_cast<std::size_t>(rng.below(input.size() + 1)));
          break;
      }
    }
    if (auto f = run(input)) return f;
  }
  return std::nullopt;
}

}  // namespace detail

}  // namespace merilo::sync
