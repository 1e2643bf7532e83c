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

/// A schedule edit the execution of an input suggests: take the input's
/// choices up to byte `at`, choose thread `rank` (its rank among the
/// enabled threads) there, and let the defaults run that thread on.
struct Site {
  std::size_t at = 0;
  std::uint8_t rank = 0;
};

/// One input of the fuzzer's corpus.
struct Entry {
  std::vector<std::uint8_t> bytes;
  std::size_t focus = 0;           // first byte where it differs from the input it was made from
  std::size_t chosen = 0;          // times it was picked to mutate
  std::vector<std::uint8_t> full;  // the bytes of every choice its execution made
  std::vector<Site> sites;         // reads-from edits (see sites_of)
};

/// Every choice `e` made, as the bytes that make `BytesStrategy` make it.
std::vector<std::uint8_t> full_bytes(const detail::Execution& e) {
  std::vector<std::uint8_t> out;
  std::size_t k = 0;
  for (const detail::Choice& c : e.trail) {
    if (c.value) {
      out.push_back(c.index);
    } else if (k < e.decisions.size()) {
      const detail::Decision& d = e.decisions[k++];
      out.push_back(static_cast<std::uint8_t>(d.runnable.rank(d.chosen)));
    }
  }
  return out;
}

/// The reads-from edits of `e`: for each load that read a store of another
/// thread, (1) a switch to another thread — the loading one where it can
/// run — at each of the few choices right after that store (between a
/// store and what its thread does next is where a reader sees a half-done
/// update), and (2) a switch to the loading thread at the choice before
/// the first store of that location by another thread (so the load reads
/// the oldest value). Both name threads and steps of the execution, not
/// byte values, so their number grows with the reads, not with the number
/// of threads enabled at a choice.
std::vector<Site> sites_of(const detail::Execution& e) {
  std::vector<Site> out;
  // Byte position of each thread choice, and the choice that picked each step.
  std::vector<std::size_t> byte_of(e.decisions.size());
  {
    std::size_t k = 0;
    for (std::size_t b = 0; b < e.trail.size(); ++b) {
      if (!e.trail[b].value && k < byte_of.size()) byte_of[k++] = b;
    }
  }
  std::vector<std::int64_t> choice_at(e.log.size(), -1);
  for (std::size_t k = 0; k < e.decisions.size(); ++k) {
    if (e.decisions[k].step < choice_at.size()) {
      choice_at[e.decisions[k].step] = static_cast<std::int64_t>(k);
    }
  }
  // The thread that started each thread (its `spawn` step and the child's
  // `start` step share the start token).
  std::vector<unsigned> spawner;
  for (std::size_t i = 0; i < e.log.size(); ++i) {
    const detail::StepRecord& s = e.log[i];
    if (s.op != detail::SyncOp::start || s.object == 0) continue;
    for (std::size_t j = 0; j < i; ++j) {
      if (e.log[j].op == detail::SyncOp::spawn && e.log[j].object == s.object) {
        if (spawner.size() <= s.thread) spawner.resize(std::size_t{s.thread} + 1, 0);
        spawner[s.thread] = e.log[j].thread;
        break;
      }
    }
  }
  const auto add = [&](std::size_t step, unsigned thread) {
    if (step >= choice_at.size() || choice_at[step] < 0) return;
    const auto k = static_cast<std::size_t>(choice_at[step]);
    const detail::Decision& d = e.decisions[k];
    unsigned t = thread;
    // A thread not started yet at that choice: run the thread that starts
    // it (a later edit of the input kept can then switch to it).
    if (!d.runnable.contains(t) && t < spawner.size() && d.runnable.contains(spawner[t])) {
      t = spawner[t];
    }
    if (!d.runnable.contains(t) || t == d.chosen) {
      // Not there: any other thread that can run.
      t = d.runnable.next_from(d.chosen + 1U);
      if (t == d.chosen) return;
    }
    out.push_back(Site{byte_of[k], static_cast<std::uint8_t>(d.runnable.rank(t))});
  };
  for (const auto& [load, store] : e.reads) {
    const unsigned reader = e.log[load].thread;
    if (store >= 0 && e.log[static_cast<std::size_t>(store)].thread != reader) {
      for (std::size_t j = static_cast<std::size_t>(store) + 1;
           j <= static_cast<std::size_t>(store) + 3 && j < e.log.size(); ++j) {
        add(j, reader);
      }
    }
    const std::uint32_t object = e.log[load].object;
    for (std::size_t j = 0; j < load; ++j) {
      const detail::StepRecord& s = e.log[j];
      if (s.object == object && s.thread != reader &&
          (s.op == detail::SyncOp::store || s.op == detail::SyncOp::rmw ||
           s.op == detail::SyncOp::cas)) {
        add(j, reader);
        break;
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const Site& a, const Site& b) {
    return a.at != b.at ? a.at < b.at : a.rank < b.rank;
  });
  out.erase(
      std::unique(out.begin(), out.end(),
                  [](const Site& a, const Site& b) { return a.at == b.at && a.rank == b.rank; }),
      out.end());
  return out;
}

/// The fuzzer's state: the corpus, the coverage seen, the mutations.
class Fuzzer {
 public:
  Fuzzer(const ModelOptions& options, const std::function<void()>& body, detail::Memory& memory,
         std::size_t& count)
      : options_(options),
        body_(body),
        memory_(memory),
        count_(count),
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
    if (fresh || corpus_.empty()) {
      corpus_.push_back(Entry{std::move(input), focus, 0, full_bytes(e), sites_of(e)});
    }
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
    if (!parent.sites.empty() && rng_.below(2) == 0) {
      // A reads-from edit: the parent's choices up to a site, the switch,
      // then the defaults.
      const Site& s = parent.sites[static_cast<std::size_t>(rng_.below(parent.sites.size()))];
      std::vector<std::uint8_t> input(parent.full.begin(),
                                      parent.full.begin() + static_cast<std::ptrdiff_t>(s.at));
      input.push_back(s.rank);
      return {std::move(input), s.at};
    }
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
  const auto until = options.budget.count() > 0 ? std::chrono::steady_clock::now() + options.budget
                                                : std::chrono::steady_clock::time_point::max();
  detail::Memory memory;
  result.failure = fuzz_loop(options, body, seeds, options.max_executions, until, result.executions,
                             memory, out.corpus);
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
