// fuzz.cpp — a sync::model body driven by fuzzer bytes, and the seeds the
// cheapest-first search gives the fuzzer (fuzz.hpp).
#include <merilo/sync/fuzz.hpp>

#include <algorithm>      // std::max, std::min
#include <chrono>         // the fuzzer's deadline
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
  out.points = e.points;
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

namespace {

/// One input of the fuzzer's corpus.
struct Entry {
  std::vector<std::uint8_t> bytes;
  std::size_t focus = 0;   // first byte where it differs from the input it was made from
  std::size_t chosen = 0;  // times it was picked to mutate
};

/// The fuzzer's state: the corpus, the coverage seen, the mutations.
class Fuzzer {
 public:
  Fuzzer(const ModelOptions& options, const std::function<void()>& body, detail::Memory& memory,
         std::size_t& count)
      : options_(options), body_(body), memory_(memory), count_(count),
        rng_(core::mix64(options.seed)) {}

  /// Runs `input`; keeps it when it made new coverage. The failure, if any.
  std::optional<ModelFailure> run(std::vector<std::uint8_t> input, std::size_t focus) {
    detail::BytesStrategy strategy(input);
    const detail::Execution e = detail::run_once(strategy, options_, body_, memory_);
    ++count_;
    if (auto f = detail::classify(e, false)) {
      f->execution = count_;
      f->found_by = "fuzzer";
      return f;
    }
    bool fresh = false;
    for (const std::uint64_t pair : e.reads_from) fresh = reads_from_.insert(pair).second || fresh;
    for (const std::uint64_t point : e.points) fresh = points_.insert(point).second || fresh;
    if (fresh || corpus_.empty()) corpus_.push_back(Entry{std::move(input), focus, 0});
    return std::nullopt;
  }

  /// A mutated input of the corpus, and its focus.
  std::pair<std::vector<std::uint8_t>, std::size_t> next() {
    // Power schedule: half the time one of the newest inputs (they reached
    // something new last), else any, the less picked the likelier.
    std::size_t i = 0;
    if (rng_.below(2) == 0) {
      const std::size_t recent = std::min<std::size_t>(corpus_.size(), 4);
      i = corpus_.size() - 1 - static_cast<std::size_t>(rng_.below(recent));
    } else {
      const std::size_t a = static_cast<std::size_t>(rng_.below(corpus_.size()));
      const std::size_t b = static_cast<std::size_t>(rng_.below(corpus_.size()));
      i = corpus_[a].chosen <= corpus_[b].chosen ? a : b;
    }
    Entry& parent = corpus_[i];
    ++parent.chosen;
    std::vector<std::uint8_t> input = parent.bytes;
    std::size_t focus = input.size();
    const auto at = [&](std::size_t size) {
      // Most edits land just after the parent's focus (the choice that
      // made it new: what follows it is unexplored), the rest anywhere.
      if (size == 0) return std::size_t{0};
      if (rng_.below(4) != 0 && parent.focus < size) {
        const std::size_t window = std::min<std::size_t>(size - parent.focus, 16);
        return parent.focus + static_cast<std::size_t>(rng_.below(window));
      }
      return static_cast<std::size_t>(rng_.below(size));
    };
    const std::size_t edits = 1 + static_cast<std::size_t>(rng_.below(3));
    for (std::size_t k = 0; k < edits; ++k) {
      const auto byte = static_cast<std::uint8_t>(rng_.next());
      std::size_t where = 0;
      switch (input.empty() ? 0 : rng_.below(5)) {
        case 0:  // insert a byte
          where = at(input.size() + 1);
          input.insert(input.begin() + static_cast<std::ptrdiff_t>(where), byte);
          break;
        case 1:  // change one
        case 2:
          where = at(input.size());
          input[where] = byte;
          break;
        case 3:  // drop one
          where = at(input.size());
          input.erase(input.begin() + static_cast<std::ptrdiff_t>(where));
          break;
        default:  // cut the tail
          where = static_cast<std::size_t>(rng_.below(input.size() + 1));
          input.resize(where);
          break;
      }
      focus = std::min(focus, where);
    }
    return {std::move(input), focus};
  }

  [[nodiscard]] std::size_t corpus() const noexcept { return corpus_.size(); }

 private:
  const ModelOptions& options_;
  const std::function<void()>& body_;
  detail::Memory& memory_;
  std::size_t& count_;
  core::SplitMix64 rng_;
  std::vector<Entry> corpus_;
  std::unordered_set<std::uint64_t> reads_from_;
  std::unordered_set<std::uint64_t> points_;
};

/// Runs the seeds, then mutated inputs, until a failure, `executions`
/// inputs in all, or `until`.
std::optional<ModelFailure> fuzz_loop(const ModelOptions& options,
                                      const std::function<void()>& body,
                                      const std::vector<std::vector<std::uint8_t>>& seeds,
                                      std::size_t executions,
                                      std::chrono::steady_clock::time_point until,
                                      std::size_t& count, detail::Memory& memory,
                                      std::size_t& corpus) {
  Fuzzer fuzzer(options, body, memory, count);
  std::size_t spent = 0;
  const auto done = [&] {
    return spent >= executions || std::chrono::steady_clock::now() >= until;
  };
  std::optional<ModelFailure> failure;
  for (const auto& seed : seeds) {
    if (done()) break;
    ++spent;
    if ((failure = fuzzer.run(seed, seed.size()))) break;
  }
  if (!failure && seeds.empty() && !done()) {
    ++spent;
    failure = fuzzer.run({}, 0);
  }
  while (!failure && !done()) {
    auto [input, focus] = fuzzer.next();
    ++spent;
    failure = fuzzer.run(std::move(input), focus);
  }
  corpus = fuzzer.corpus();
  return failure;
}

}  // namespace

FuzzResult fuzz(const ModelOptions& options, const std::function<void()>& body,
                const std::vector<std::vector<std::uint8_t>>& seeds, const char* file,
                unsigned line) {
  FuzzResult out;
  ModelResult& result = out.result;
  result.search = options.search;
  result.file = file;
  result.line = line;
  result.name = options.name;
  if (!body) {
    result.error = "merilo::sync::fuzz: the body is an empty std::function";
    return out;
  }
  if (options.max_executions == 0) {
    result.error = "merilo::sync::fuzz: ModelOptions::max_executions is 0";
    return out;
  }
  const auto until = options.budget.count() > 0
                         ? std::chrono::steady_clock::now() + options.budget
                         : std::chrono::steady_clock::time_point::max();
  detail::Memory memory;
  result.failure = fuzz_loop(options, body, seeds, options.max_executions, until,
                             result.executions, memory, out.corpus);
  return out;
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
  std::size_t corpus = 0;
  const std::size_t left = executions > seeds.executions ? executions - seeds.executions : 0;
  return fuzz_loop(options, body, seeds.inputs, left, until, count, memory, corpus);
}

}  // namespace detail

}  // namespace merilo::sync
