// merilo/explore/detail/explorer_inl.hpp — the breadth-first explorer's body.
//
// Level-synchronous search. Each level's frontier is cut into fixed-size
// chunks; workers expand chunks (reading the visited set, never writing it)
// into per-chunk candidate lists, and one thread then merges the chunks in
// order. Because chunking does not depend on the thread count and the merge
// is sequential, ids, traces and the first violation are the same for any
// number of threads.
#ifndef MERILO_EXPLORE_DETAIL_EXPLORER_INL_HPP
#define MERILO_EXPLORE_DETAIL_EXPLORER_INL_HPP

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <merilo/core/crash.hpp>
#include <merilo/core/reentry.hpp>
#include <merilo/explore/detail/fingerprint.hpp>
#include <merilo/explore/detail/visited.hpp>
#include <merilo/explore/step.hpp>

namespace merilo::explore::detail {

/// Frontier worlds expanded per work unit. Fixed, so that the chunks — and
/// therefore the result — do not depend on the thread count.
inline constexpr std::size_t kChunk = 64;

/// In restore mode the first worlds are all replayed from reset, so a small
/// system gets a full determinism check; after them, one in
/// `ExploreOptions::determinism_sample`.
inline constexpr std::uint32_t kAlwaysReplayed = 1024;

/// The usage error for options that cannot run, or "" when they can.
[[nodiscard]] std::string check_options(const ExploreOptions& options, bool restorable,
                                        bool copyable);

/// Progress on a terminal, and the summary line.
class Log {
 public:
  explicit Log(std::FILE* out);
  void progress(std::size_t states, std::size_t depth);
  void summary(const ExploreResult& result);

 private:
  std::FILE* out_;
  bool terminal_;
  bool dirty_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

/// The first (and so shortest) state id reached for each tuple.
using TupleIds = std::unordered_map<std::string, std::uint32_t>;

/// A problem of one frontier world itself: found while reaching or
/// expanding it, so its trace is the path to that world.
struct FrontierProblem {
  ViolationKind kind = ViolationKind::none;
  std::uint32_t index = 0;  // position in the frontier
  std::string detail;
};

/// What only some candidates carry: a tuple the search has not stored yet,
/// or a problem. Kept apart so the common candidate stays small.
struct CandidateExtra {
  std::string tuple;
  bool new_tuple = false;
  ViolationKind problem = ViolationKind::none;
  std::string invariant;
  std::string detail;
};

inline constexpr std::uint32_t kNoExtra = 0xFFFFFFFF;

/// A world one step beyond the frontier, or the failure of that step.
template <class W>
struct Candidate {
  Fingerprint fp;
  std::uint32_t parent = 0;  // position in the frontier
  std::uint32_t kind = 0;
  std::uint32_t extra = kNoExtra;  // index into ChunkResult::extras
  std::optional<W> world;          // kept in restore mode only
};

using Edges = std::set<TupleGraph::Edge>;

/// Cache-line aligned: neighbouring chunks are written by different
/// threads, and sharing a line between them costs more than the padding.
template <class W>
struct alignas(64) ChunkResult {
  std::vector<Candidate<W>> candidates;
  std::vector<CandidateExtra> extras;
  Edges edges;                             // only when the caller asked for a graph
  std::optional<FrontierProblem> problem;  // the chunk's first frontier problem
  std::uint64_t steps = 0;

  CandidateExtra& extra_of(Candidate<W>& c) {
    if (c.extra == kNoExtra) {
      c.extra = static_cast<std::uint32_t>(extras.size());
      extras.emplace_back();
    }
    return extras[c.extra];
  }
};

template <class W>
struct FrontierItem {
  std::uint32_t id = 0;
  Fingerprint fp;
  std::optional<W> world;  // restore mode only
};

/// One worker's system and the search state it reads.
template <System S>
class alignas(64) Expander {
 public:
  using W = world_t<S>;

  Expander(S& sys, bool restore, std::size_t sample, const FingerprintSet& visited,
           const ParentLinks& parents, const TupleIds& tuples, bool graph)
      : sys_(&sys),
        stepper_(sys),
        graph_(graph),
        restore_(restore),
        sample_(sample),
        visited_(visited),
        parents_(parents),
        tuples_(tuples) {}

  /// Expands frontier[first, last) into `out`.
  void expand(const std::vector<FrontierItem<W>>& frontier, std::size_t first, std::size_t last,
              ChunkResult<W>& out) {
    local_.clear();
    for (std::size_t i = first; i < last && !out.problem; ++i) {
      expand_one(frontier[i], static_cast<std::uint32_t>(i), out);
    }
  }

 private:
  // Replays `path` from reset; "" when it reached `fp`, else why not.
  std::string replay_to(const Trace& path, const Fingerprint& fp, std::uint64_t& steps) {
    sys_->reset();
    const std::size_t kinds = sys_->kinds();
    for (std::size_t step = 0; step < path.size(); ++step) {
      const Kind k = path[step];
      if (k >= kinds || !sys_->enabled(k)) {
        return "on replay, kind " + std::to_string(k) + " was not enabled at step " +
               std::to_string(step + 1) + " of a path that reached this world before";
      }
      Status s = sys_->apply(k);
      ++steps;
      if (!s.ok()) {
        return "on replay, step " + std::to_string(step + 1) +
               " failed where it succeeded before: " + s.detail();
      }
    }
    if (!(fingerprint(sys_->world()) == fp)) {
      return "replaying the same path from reset reached a different world (a clock, random "
             "number or other state outside the world leaked in)";
    }
    return {};
  }

  // Puts the system into `item`'s world; "" on success, else why not.
  std::string reach(const FrontierItem<W>& item, const Trace& path, bool sampled,
                    std::uint64_t& steps) {
    if constexpr (Restorable<S>) {
      if (restore_) {
        if (sampled) {
          std::string why = replay_to(path, item.fp, steps);
          if (!why.empty()) return why;
        }
        sys_->restore(*item.world);
        if (!(fingerprint(sys_->world()) == item.fp)) {
          return "after restore(world), world() returned a different world";
        }
        return {};
      }
    }
    return replay_to(path, item.fp, steps);
  }

  void expand_one(const FrontierItem<W>& item, std::uint32_t index, ChunkResult<W>& out) {
    const bool sampled = sample_ != 0 && (item.id < kAlwaysReplayed || item.id % sample_ == 0);
    const Trace path = restore_ && !sampled ? Trace{} : parents_.path(item.id);
    enabled_.clear();
    try {
      std::string why = reach(item, path, sampled, out.steps);
      if (!why.empty()) {
        out.problem = FrontierProblem{ViolationKind::nondeterminism, index, std::move(why)};
        return;
      }
      const std::size_t kinds = sys_->kinds();
      for (Kind k = 0; k < kinds; ++k) {
        if (sys_->enabled(k)) enabled_.push_back(k);
      }
      if (enabled_.empty() && !sys_->settled()) {
        out.problem = FrontierProblem{ViolationKind::deadlock, index,
                                      "no kind is enabled and the system is not settled"};
        return;
      }
      if (graph_) from_ = sys_->tuple();
    } catch (...) {
      out.problem =
          FrontierProblem{ViolationKind::crash, index,
                          core::crash_detail("reset/enabled/settled", std::current_exception())};
      return;
    }
    for (std::size_t n = 0; n < enabled_.size(); ++n) {
      Candidate<W> c;
      c.parent = index;
      c.kind = static_cast<std::uint32_t>(enabled_[n]);
      try {
        if (n > 0) {
          std::string why = reach(item, path, false, out.steps);
          if (!why.empty()) {
            out.problem = FrontierProblem{ViolationKind::nondeterminism, index, std::move(why)};
            return;
          }
        }
        if (graph_) label_ = sys_->describe(c.kind);
        const Step taken = step(c, out);
        if (graph_ && taken != Step::failed) {
          out.edges.insert(TupleGraph::Edge{from_, label_, std::string(sys_->tuple())});
        }
        if (taken == Step::seen) continue;
      } catch (...) {
        CandidateExtra& x = out.extra_of(c);
        x.problem = ViolationKind::crash;
        x.detail = core::crash_detail("reset/describe/tuple", std::current_exception());
      }
      out.candidates.push_back(std::move(c));
    }
  }

  enum class Step : std::uint8_t { fresh, seen, failed };

  // Takes c.kind (the one step routine, step.hpp) and fills `c` unless the
  // world was seen before. Its invariants are checked only when it is new.
  Step step(Candidate<W>& c, ChunkResult<W>& out) {
    ++out.steps;
    const StepEnd end = stepper_.take(c.kind, nullptr, broke_, [&] {
      c.fp = fingerprint(sys_->world());
      return !visited_.contains(c.fp) && local_.insert(c.fp);
    });
    if (end == StepEnd::seen) return Step::seen;
    if (end == StepEnd::broke) {
      CandidateExtra& x = out.extra_of(c);
      x.problem = broke_.kind;
      x.invariant = std::move(broke_.invariant);
      x.detail = std::move(broke_.detail);
      if (x.problem != ViolationKind::invariant) return Step::failed;
    }
    const auto& w = sys_->world();
    std::string tuple = sys_->tuple();
    if (!tuples_.contains(tuple)) {
      CandidateExtra& x = out.extra_of(c);
      x.tuple = std::move(tuple);
      x.new_tuple = true;
    }
    if (restore_) c.world.emplace(w);
    return Step::fresh;
  }

  S* sys_;
  Stepper<S> stepper_;
  Violation broke_;  // the violation of the last step that broke a rule
  bool graph_;
  std::string from_;   // the frontier world's tuple, with a graph
  std::string label_;  // the step's description, with a graph
  bool restore_;
  std::size_t sample_;
  const FingerprintSet& visited_;
  const ParentLinks& parents_;
  const TupleIds& tuples_;
  FingerprintSet local_;  // successors this chunk has produced
  std::vector<Kind> enabled_;
};

/// One search, from the initial world to the first violation, the bound or
/// the end.
template <System S>
class Search {
 public:
  using W = world_t<S>;

  Search(S& sys, const ExploreOptions& options, bool restore)
      : sys_(sys), options_(options), restore_(restore), stepper_(sys) {}

  /// A usage error in the system's invariant list, or "".
  [[nodiscard]] const std::string& error() const noexcept { return stepper_.error(); }

  ExploreResult run() {
    result_.require_complete = options_.require_complete;
    result_.name = options_.name;
    result_.invariants = stepper_.names();
    if (!start()) return finish();
    make_workers();
    for (std::size_t level = 0; !frontier_.empty(); ++level) {
      if (!expand_level(level)) break;
      log_.progress(result_.states, result_.depth);
    }
    return finish();
  }

 private:
  // Stores and checks the initial world; false when the search is over.
  bool start() {
    Violation initial;
    if (stepper_.start(initial) == StepEnd::broke && initial.kind == ViolationKind::crash) {
      result_.violation = std::move(initial);
      return false;
    }
    try {
      const W& w = sys_.world();
      FrontierItem<W> root{0, fingerprint(w), std::nullopt};
      if (restore_) root.world.emplace(w);
      visited_.insert(root.fp);
      parents_.add_root();
      result_.states = 1;
      tuple_ids_.emplace(std::string(sys_.tuple()), 0);
      if (initial.found()) {
        result_.violation = std::move(initial);
        return false;
      }
      frontier_.push_back(std::move(root));
      return true;
    } catch (...) {
      set_violation(ViolationKind::crash, {}, {},
                    core::crash_detail("world/tuple", std::current_exception()));
      return false;
    }
  }

  void make_workers() {
    const std::size_t sample = restore_ ? options_.determinism_sample : 1;
    const bool graph = options_.graph != nullptr;
    expanders_.emplace_back(sys_, restore_, sample, visited_, parents_, tuple_ids_, graph);
    if constexpr (std::is_copy_constructible_v<S>) {
      copies_.reserve(options_.threads);
      for (unsigned t = 1; t < options_.threads; ++t) {
        copies_.push_back(Copy{sys_});
        expanders_.emplace_back(copies_.back().sys, restore_, sample, visited_, parents_,
                                tuple_ids_, graph);
      }
    }
  }

  // Expands the frontier at depth `level`; false when the search is over.
  bool expand_level(std::size_t level) {
    const std::size_t chunks = (frontier_.size() + kChunk - 1) / kChunk;
    std::vector<ChunkResult<W>> out(chunks);
    std::atomic<std::size_t> next{0};
    const std::size_t helpers = std::min(expanders_.size(), chunks) - 1;
    // Adapter exceptions are caught per step; this catches merilo's own
    // (out of memory) so that none escapes a worker thread.
    std::vector<std::exception_ptr> failures(helpers + 1);
    auto work = [&](std::size_t t) {
      core::EntryGuard guard;
      try {
        for (std::size_t c = next++; c < chunks; c = next++) {
          const std::size_t first = c * kChunk;
          expanders_[t].expand(frontier_, first, std::min(first + kChunk, frontier_.size()),
                               out[c]);
        }
      } catch (...) {
        failures[t] = std::current_exception();
        next = chunks;
      }
    };
    {
      std::vector<std::jthread> threads;
      threads.reserve(helpers);
      for (std::size_t t = 1; t <= helpers; ++t) threads.emplace_back(work, t);
      work(0);
    }
    for (auto& f : failures) {
      if (f) std::rethrow_exception(f);
    }
    for (auto& c : out) {
      result_.steps += c.steps;
      edges_.merge(c.edges);
    }
    // A problem of a frontier world has a shorter trace than any candidate's.
    for (const auto& c : out) {
      if (c.problem) {
        set_violation(c.problem->kind, parents_.path(frontier_[c.problem->index].id), {},
                      c.problem->detail);
        result_.depth = level == 0 ? 0 : level - 1;
        return false;
      }
    }
    return merge(out, level);
  }

  bool merge(std::vector<ChunkResult<W>>& out, std::size_t level) {
    std::vector<FrontierItem<W>> next;
    for (auto& chunk : out) {
      for (auto& c : chunk.candidates) {
        const std::uint32_t parent = frontier_[c.parent].id;
        CandidateExtra* x = c.extra == kNoExtra ? nullptr : &chunk.extras[c.extra];
        const ViolationKind problem = x != nullptr ? x->problem : ViolationKind::none;
        if (problem != ViolationKind::none && problem != ViolationKind::invariant) {
          Trace t = parents_.path(parent);
          t.push_back(c.kind);
          set_violation(problem, std::move(t), {}, std::move(x->detail));
          result_.depth = level;
          return false;
        }
        if (visited_.contains(c.fp)) continue;
        if (result_.states >= options_.max_states) {
          result_.depth = level;
          return false;  // truncated: the world that does not fit
        }
        visited_.insert(c.fp);
        const auto id = static_cast<std::uint32_t>(result_.states++);
        parents_.add(parent, c.kind);
        if (x != nullptr && x->new_tuple) tuple_ids_.try_emplace(std::move(x->tuple), id);
        if (problem == ViolationKind::invariant) {
          set_violation(problem, parents_.path(id), std::move(x->invariant), std::move(x->detail));
          result_.depth = level;
          return false;
        }
        next.push_back(FrontierItem<W>{id, c.fp, std::move(c.world)});
      }
      chunk.candidates = {};
      chunk.extras = {};
    }
    frontier_ = std::move(next);
    if (frontier_.empty()) {
      result_.complete = true;
      result_.depth = level;
    } else {
      result_.depth = level + 1;
    }
    return true;
  }

  void set_violation(ViolationKind kind, Trace trace, std::string invariant, std::string detail) {
    result_.violation = Violation{kind, std::move(trace), std::move(invariant), std::move(detail)};
  }

  ExploreResult finish() {
    std::vector<std::pair<std::string, std::uint32_t>> tuples(tuple_ids_.begin(), tuple_ids_.end());
    std::sort(tuples.begin(), tuples.end());
    for (auto& [tuple, id] : tuples) {
      result_.tuples.push_back(std::move(tuple));
      result_.tuple_traces.push_back(parents_.path(id));
    }
    result_.memory_bytes = visited_.memory_bytes() + parents_.memory_bytes();
    if (options_.graph != nullptr) {
      options_.graph->nodes = result_.tuples;
      options_.graph->edges.assign(edges_.begin(), edges_.end());
    }
    result_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    log_.summary(result_);
    return std::move(result_);
  }

  S& sys_;
  const ExploreOptions& options_;
  bool restore_;
  Stepper<S> stepper_;  // the initial world's checks; each worker has its own
  Log log_{options_.quiet ? nullptr : options_.log != nullptr ? options_.log : stderr};
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  ExploreResult result_;
  FingerprintSet visited_;
  ParentLinks parents_;
  TupleIds tuple_ids_;
  Edges edges_;  // only with a graph
  std::vector<FrontierItem<W>> frontier_;
  // One copy of the system per extra worker, each on its own cache lines.
  struct alignas(64) Copy {
    S sys;
  };
  std::vector<Copy> copies_;
  std::vector<Expander<S>> expanders_;
};

}  // namespace merilo::explore::detail

namespace merilo::explore {

template <System S>
ExploreResult explore(S& sys, const ExploreOptions& options) {
  detail::check_system<S>();
  ExploreResult refused;
  if (core::inside_merilo()) {
    refused.error = core::kReentryError;
    return refused;
  }
  core::EntryGuard guard;
  refused.error = detail::check_options(options, Restorable<S>, std::is_copy_constructible_v<S>);
  if (!refused.error.empty()) return refused;
  bool restore = false;
  if constexpr (Restorable<S>) restore = options.mode != Mode::replay;
  try {
    detail::Search<S> search(sys, options, restore);
    if (!search.error().empty()) {
      refused.error = search.error();
      return refused;
    }
    return search.run();
  } catch (const std::exception& e) {
    refused.error = std::string("merilo: internal error during the search: ") + e.what();
  } catch (...) {
    refused.error = "merilo: internal error during the search";
  }
  return refused;
}

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_DETAIL_EXPLORER_INL_HPP
