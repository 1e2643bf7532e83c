// merilo/explore/detail/explorer_inl.hpp — the breadth-first explorer's body.
//
// Level-synchronous search. Each level's frontier is cut into fixed-size
// chunks; workers expand chunks (reading the visited set, never writing it)
// into per-chunk candidate lists. The merge then runs in two passes: every
// thread walks all candidates in chunk order and inserts those of its own
// table shards (so the first occurrence of each world, in an order that does
// not depend on the thread count, is the one marked new); then one pass in
// the same order gives the new worlds their ids. Ids, traces and the first
// violation are therefore the same for any number of threads.
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
#include <unordered_set>
#include <utility>
#include <vector>

#include <merilo/core/crash.hpp>
#include <merilo/core/reentry.hpp>
#include <merilo/explore/detail/fingerprint.hpp>
#include <merilo/explore/detail/fingerprint_table.hpp>
#include <merilo/explore/detail/frontier.hpp>
#include <merilo/explore/detail/parent_links.hpp>
#include <merilo/explore/detail/sometimes.hpp>
#include <merilo/explore/detail/symmetry.hpp>
#include <merilo/explore/step.hpp>

namespace merilo::explore::detail {

/// Frontier worlds expanded per work unit. Fixed, so that the chunks — and
/// therefore the result — do not depend on the thread count.
inline constexpr std::size_t kChunk = 64;

/// In restore mode the first worlds are all replayed from reset, so a small
/// system gets a full determinism check; after them, one in
/// `ExploreOptions::determinism_sample`. The same worlds check `tuple_key()`.
inline constexpr std::uint32_t kAlwaysReplayed = 1024;

/// The usage error for options that cannot run, or "" when they can.
[[nodiscard]] std::string check_options(const ExploreOptions& options, bool restorable,
                                        bool copyable);
/// The usage error for a system with `kinds` step kinds, or "".
[[nodiscard]] std::string check_kinds(std::size_t kinds);

/// What a progress line says.
struct Progress {
  std::size_t states = 0;    // stored
  std::size_t depth = 0;     // the level being expanded
  std::size_t frontier = 0;  // worlds at that level
  std::size_t expanded = 0;  // of them, expanded so far
  std::size_t memory = 0;    // bytes, as ExploreResult::memory_bytes counts them
};

/// Progress lines (every second once a search has run a second: in place
/// on a terminal, plain lines otherwise) and the summary line.
class Log {
 public:
  explicit Log(std::FILE* out);
  /// Prints a progress line if one is due. Cheap when none is.
  void progress(const Progress& p);
  void summary(const ExploreResult& result);

 private:
  std::FILE* out_;
  bool terminal_;
  bool dirty_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point next_;
};

/// The first (and so shortest) state id reached for each tuple.
using TupleIds = std::unordered_map<std::string, std::uint32_t>;

/// Hashes a fingerprint for an unordered map (it is a hash already).
struct FingerprintHash {
  std::size_t operator()(const Fingerprint& fp) const noexcept {
    return static_cast<std::size_t>(fp.lo ^ fp.hi);
  }
};
/// The tuples of the successors of sampled worlds (`tuple_sampled`), by
/// fingerprint: a world reached again along another path must show the
/// same tuple.
using SampledTuples = std::unordered_map<Fingerprint, std::string, FingerprintHash>;

/// The tuple of a successor of a sampled frontier world (`parent` is its
/// position in the frontier, `kind` the step taken).
struct SampledTuple {
  Fingerprint fp;
  std::uint32_t parent = 0;
  std::uint32_t kind = 0;
  std::string tuple;
};

/// Whether the successors of state `id` have their tuples kept in
/// `SampledTuples`: the first `kAlwaysReplayed` states, then one in 64, in
/// every mode (so the table stays small even when replay mode replays
/// every world).
[[nodiscard]] constexpr bool tuple_sampled(std::uint32_t id) noexcept {
  return id < kAlwaysReplayed || id % 64 == 0;
}

/// The violation detail of a tuple that differs for one world.
inline std::string tuple_mismatch(const std::string& before, const std::string& now,
                                  const char* how) {
  return "tuple() returned \"" + now + "\" for a world it showed as \"" + before + "\" " + how +
         " (same world, same fingerprint): tuple() must depend on world() only";
}
/// For systems with `tuple_key()`: the tuple of each key seen.
using TupleKeys = std::unordered_map<std::uint64_t, std::string>;

/// A problem of one frontier world itself: found while reaching or
/// expanding it, so its trace is the path to that world.
struct FrontierProblem {
  ViolationKind kind = ViolationKind::none;
  std::uint32_t index = 0;  // position in the frontier
  std::string detail;
};

/// A step from a frontier world that failed (apply error, mode change,
/// crash): the merge stops there, so only a chunk's first one matters.
struct StepFailure {
  std::size_t position = 0;  // candidates of the chunk before it
  std::uint32_t parent = 0;  // position in the frontier
  std::uint32_t kind = 0;
  ViolationKind problem = ViolationKind::none;
  std::string detail;
};

/// What only some candidates carry: a tuple the search has not stored yet,
/// or a broken invariant. Kept apart so the common candidate stays small.
struct CandidateExtra {
  std::string tuple;
  std::uint64_t key = 0;
  bool new_tuple = false;
  bool broke = false;
  std::string invariant;
  std::string detail;
  std::uint64_t reached = 0;  // the open sometimes properties it satisfies
};

inline constexpr std::uint32_t kNoExtra = 0xFFFFFFFF;

/// A world one step beyond the frontier that this chunk had not seen:
/// 32 bytes. Its world, in restore mode, is in `ChunkResult::worlds`.
struct Candidate {
  Fingerprint fp;
  std::uint32_t parent = 0;  // position in the frontier
  std::uint32_t kind = 0;
  std::uint32_t extra = kNoExtra;  // index into ChunkResult::extras
  std::uint8_t fresh = 0;          // set by the merge: first time stored
};

using Edges = std::set<TupleGraph::Edge>;

/// Cache-line aligned: neighbouring chunks are written by different
/// threads, and sharing a line between them costs more than the padding.
template <class W>
struct alignas(64) ChunkResult {
  std::vector<Candidate> candidates;
  std::vector<W> worlds;  // restore mode only: worlds[i] is candidates[i]'s
  std::vector<CandidateExtra> extras;
  Edges edges;                             // only when the caller asked for a graph
  std::optional<FrontierProblem> problem;  // the chunk's first frontier problem
  std::optional<StepFailure> failure;      // the chunk's first failed step
  std::string usage_error;                 // tuple_key() broke its contract
  std::vector<SampledTuple> sampled;       // successors of tuple_sampled worlds
  std::uint64_t steps = 0;

  CandidateExtra& extra_of(Candidate& c) {
    if (c.extra == kNoExtra) {
      c.extra = static_cast<std::uint32_t>(extras.size());
      extras.emplace_back();
    }
    return extras[c.extra];
  }
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return candidates.capacity() * sizeof(Candidate) + worlds.capacity() * sizeof(W) +
           extras.capacity() * sizeof(CandidateExtra);
  }
};

/// One worker's system and the search state it reads.
template <System S>
class alignas(64) Expander {
 public:
  using W = world_t<S>;

  Expander(S& sys, bool restore, std::size_t sample, const FingerprintTable& visited,
           const ParentLinks& parents, const TupleIds& tuples, const TupleKeys& keys,
           const SampledTuples& sampled, const SometimesList<S>& sometimes,
           const SometimesFirst& first, bool graph)
      : sys_(&sys),
        stepper_(sys),
        graph_(graph),
        restore_(restore),
        sample_(sample),
        visited_(visited),
        parents_(parents),
        tuples_(tuples),
        keys_(keys),
        sampled_(sampled),
        sometimes_(sometimes),
        first_(first) {}

  /// Expands frontier[first, last) into `out`.
  void expand(const Frontier<W>& frontier, std::size_t first, std::size_t last,
              ChunkResult<W>& out) {
    local_.clear();
    if constexpr (Restorable<S>) {
      if (restore_ && !graph_) {
        expand_batched(frontier, first, last, out);
        return;
      }
    }
    for (std::size_t i = first; i < last && !out.problem; ++i) {
      expand_one(frontier, static_cast<std::uint32_t>(i), out);
    }
  }

 private:
  // Replays `path` from reset; "" when it reached `fp`, else why not. `fp`
  // is the stored fingerprint (`stored`: of the canonical world, for a
  // symmetric system) or the concrete world's.
  std::string replay_to(const Trace& path, const Fingerprint& fp, bool stored,
                        std::uint64_t& steps) {
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
    const Fingerprint reached =
        stored ? state_fingerprint(*sys_, sys_->world()) : fingerprint(sys_->world());
    if (!(reached == fp)) {
      return "replaying the same path from reset reached a different world (a clock, random "
             "number or other state outside the world leaked in)";
    }
    return {};
  }

  // Puts the system into frontier world `index`; "" on success, else why not.
  // In restore mode, a sampled world is also reached by replay, and
  // world() after restore is checked against the world stored.
  std::string reach(const Frontier<W>& frontier, std::uint32_t index, const Trace& path,
                    bool sampled, std::uint64_t& steps) {
    if constexpr (Restorable<S>) {
      if (restore_) {
        const W& stored = frontier.world(index);
        if (sampled) {
          const Fingerprint fp = fingerprint(stored);
          std::string why = replay_to(path, fp, false, steps);
          if (!why.empty()) return why;
          const std::string replayed = sys_->tuple();
          sys_->restore(stored);
          if (!(fingerprint(sys_->world()) == fp)) {
            return "after restore(world), world() returned a different world";
          }
          if (std::string restored = sys_->tuple(); restored != replayed) {
            return tuple_mismatch(replayed, restored,
                                  "after replaying its path, then restore(world)");
          }
          return {};
        }
        sys_->restore(stored);
        return {};
      }
    }
    return replay_to(path, frontier.fp(index), true, steps);
  }

  // On a sampled world: the tuple of its key must be the tuple it shows.
  void check_key(ChunkResult<W>& out) {
    if constexpr (TupleKeyed<S>) {
      const std::uint64_t key = sys_->tuple_key();
      const auto it = keys_.find(key);
      if (it == keys_.end()) return;
      std::string tuple = sys_->tuple();
      if (tuple != it->second && out.usage_error.empty()) {
        out.usage_error = "merilo: tuple_key() returned " + std::to_string(key) +
                          " for two different tuples, \"" + it->second + "\" and \"" + tuple +
                          "\"; equal keys must mean equal tuples";
      }
    } else {
      (void)out;
    }
  }

  // On a sampled world: its canonical form must keep the rules of one.
  void check_canonical(std::uint32_t id, ChunkResult<W>& out) {
    if (!out.usage_error.empty()) return;
    const std::string rule = canonical_problem(*sys_, stepper_, sometimes_);
    if (!rule.empty()) out.usage_error = canonical_error(rule, parents_.path(id));
  }

  // Puts the system into frontier world `index` and lists its enabled
  // kinds; false (with `out.problem` set) when the world itself is a problem.
  bool prepare(const Frontier<W>& frontier, std::uint32_t index, Trace& path, ChunkResult<W>& out) {
    const std::uint32_t id = frontier.id(index);
    const bool sampled = sample_ != 0 && (id < kAlwaysReplayed || id % sample_ == 0);
    path = restore_ && !sampled ? Trace{} : parents_.path(id);
    enabled_.clear();
    try {
      std::string why = reach(frontier, index, path, sampled, out.steps);
      if (!why.empty()) {
        out.problem = FrontierProblem{ViolationKind::nondeterminism, index, std::move(why)};
        return false;
      }
      if (sampled) check_key(out);
      keep_tuples_ = tuple_sampled(id);
      if (Symmetric<S> && keep_tuples_) check_canonical(id, out);
      const std::size_t kinds = sys_->kinds();
      for (Kind k = 0; k < kinds; ++k) {
        if (sys_->enabled(k)) enabled_.push_back(k);
      }
      if (enabled_.empty() && !sys_->settled()) {
        out.problem = FrontierProblem{ViolationKind::deadlock, index, std::string(kDeadlockDetail)};
        return false;
      }
      if (graph_) from_ = sys_->tuple();
    } catch (...) {
      out.problem =
          FrontierProblem{ViolationKind::crash, index,
                          core::crash_detail("reset/enabled/settled/canonical",
                                             std::current_exception())};
      return false;
    }
    return true;
  }

  void expand_one(const Frontier<W>& frontier, std::uint32_t index, ChunkResult<W>& out) {
    Trace path;
    if (!prepare(frontier, index, path, out)) return;
    for (std::size_t n = 0; n < enabled_.size(); ++n) {
      Candidate c;
      c.parent = index;
      c.kind = static_cast<std::uint32_t>(enabled_[n]);
      try {
        if (n > 0) {
          std::string why = reach(frontier, index, path, false, out.steps);
          if (!why.empty()) {
            out.problem = FrontierProblem{ViolationKind::nondeterminism, index, std::move(why)};
            return;
          }
        }
        if (graph_) label_ = sys_->describe(c.kind);
        const Step taken = step(c, out);
        if (taken != Step::failed) keep_tuple(c.fp, c.parent, c.kind, out);
        if (graph_ && taken != Step::failed) {
          out.edges.insert(TupleGraph::Edge{from_, label_, std::string(sys_->tuple())});
        }
        if (taken != Step::fresh) continue;
        if (restore_) out.worlds.push_back(sys_->world());
      } catch (...) {
        fail(c, ViolationKind::crash,
             core::crash_detail("reset/describe/tuple/world/sometimes", std::current_exception()),
             out);
        continue;
      }
      out.candidates.push_back(c);
    }
  }

  // A successor of the batched expansion, before the visited set is asked.
  struct Pending {
    Fingerprint fp;
    std::uint32_t parent;
    std::uint32_t kind;
    W world;
  };

  // Restore mode: first every successor of the chunk (applied, fingerprinted,
  // copied), then the visited set is probed for each with the probe of a
  // few successors ahead already prefetched, and only the new ones are put
  // back (restore) to have their invariants and tuple checked. The order of
  // candidates and failures is that of expand_one.
  void expand_batched(const Frontier<W>& frontier, std::size_t first, std::size_t last,
                      ChunkResult<W>& out) {
    pending_.clear();
    std::size_t cut = std::numeric_limits<std::size_t>::max();  // pending before a failure
    std::optional<StepFailure> failure;
    for (std::size_t i = first; i < last && !out.problem; ++i) {
      const auto index = static_cast<std::uint32_t>(i);
      Trace path;
      if (!prepare(frontier, index, path, out)) break;
      for (std::size_t n = 0; n < enabled_.size(); ++n) {
        const auto kind = static_cast<std::uint32_t>(enabled_[n]);
        try {
          if (n > 0) sys_->restore(frontier.world(index));
        } catch (...) {
          out.problem = FrontierProblem{ViolationKind::crash, index,
                                        core::crash_detail("restore", std::current_exception())};
          break;
        }
        ++out.steps;
        const StepEnd end = stepper_.take(kind, nullptr, broke_, [&] {
          const W& w = sys_->world();
          pending_.push_back(Pending{state_fingerprint(*sys_, w), index, kind, w});
          keep_tuple(pending_.back().fp, index, kind, out);
          return false;
        });
        if (end == StepEnd::broke && !failure) {
          cut = pending_.size();
          failure = StepFailure{0, index, kind, broke_.kind, std::move(broke_.detail)};
        }
      }
    }
    if (out.problem) return;  // a frontier world's problem comes first
    constexpr std::size_t kAhead = 16;
    const std::size_t n = std::min(cut, pending_.size());
    for (std::size_t j = 0; j < n; ++j) {
      if (j + kAhead < n) visited_.prefetch(pending_[j + kAhead].fp);
      Pending& p = pending_[j];
      if (visited_.contains(p.fp) || !local_.insert(p.fp)) continue;
      Candidate c;
      c.fp = p.fp;
      c.parent = p.parent;
      c.kind = p.kind;
      try {
        sys_->restore(p.world);
        if (stepper_.check(nullptr, broke_) == StepEnd::broke) {
          if (broke_.kind != ViolationKind::invariant) {
            failure = StepFailure{0, c.parent, c.kind, broke_.kind, std::move(broke_.detail)};
            break;
          }
          CandidateExtra& x = out.extra_of(c);
          x.broke = true;
          x.invariant = std::move(broke_.invariant);
          x.detail = std::move(broke_.detail);
        }
        note_tuple(c, out);
        note_sometimes(c, out);
      } catch (...) {
        failure =
            StepFailure{0, c.parent, c.kind, ViolationKind::crash,
                        core::crash_detail("restore/tuple/sometimes", std::current_exception())};
        break;
      }
      out.worlds.push_back(p.world);
      out.candidates.push_back(c);
    }
    if (failure) {
      failure->position = out.candidates.size();
      out.failure = std::move(failure);
    }
  }

  enum class Step : std::uint8_t { fresh, seen, failed };

  // Keeps the tuple of the successor the system is in (`c`), when the
  // frontier world it came from is tuple_sampled.
  void keep_tuple(const Fingerprint& fp, std::uint32_t parent, std::uint32_t kind,
                  ChunkResult<W>& out) {
    if (keep_tuples_) out.sampled.push_back(SampledTuple{fp, parent, kind, sys_->tuple()});
  }

  void fail(const Candidate& c, ViolationKind problem, std::string detail, ChunkResult<W>& out) {
    if (out.failure) return;
    out.failure = StepFailure{out.candidates.size(), c.parent, c.kind, problem, std::move(detail)};
  }

  // Takes c.kind (the one step routine, step.hpp) and fills `c` unless the
  // world was seen before. Its invariants are checked only when it is new.
  Step step(Candidate& c, ChunkResult<W>& out) {
    ++out.steps;
    const StepEnd end = stepper_.take(c.kind, nullptr, broke_, [&] {
      c.fp = state_fingerprint(*sys_, sys_->world());
      return !visited_.contains(c.fp) && local_.insert(c.fp);
    });
    if (end == StepEnd::seen) return Step::seen;
    if (end == StepEnd::broke) {
      if (broke_.kind != ViolationKind::invariant) {
        fail(c, broke_.kind, std::move(broke_.detail), out);
        return Step::failed;
      }
      CandidateExtra& x = out.extra_of(c);
      x.broke = true;
      x.invariant = std::move(broke_.invariant);
      x.detail = std::move(broke_.detail);
    }
    note_tuple(c, out);
    note_sometimes(c, out);
    return Step::fresh;
  }

  // Marks the open sometimes properties the new world `c` satisfies.
  void note_sometimes(Candidate& c, ChunkResult<W>& out) {
    const std::uint64_t open = first_.open();
    if (open == 0) return;
    const std::uint64_t hit = sometimes_.satisfied(*sys_, open);
    if (hit != 0) out.extra_of(c).reached = hit;
  }

  // Builds the tuple string only for a tuple this worker has not met.
  void note_tuple(Candidate& c, ChunkResult<W>& out) {
    if constexpr (TupleKeyed<S>) {
      const std::uint64_t key = sys_->tuple_key();
      if (known_keys_.contains(key)) return;
      known_keys_.insert(key);
      if (keys_.contains(key)) return;
      CandidateExtra& x = out.extra_of(c);
      x.tuple = sys_->tuple();
      x.key = key;
      x.new_tuple = true;
    } else {
      std::string tuple = sys_->tuple();
      if (tuples_.contains(tuple) || known_tuples_.contains(tuple)) return;
      known_tuples_.insert(tuple);
      CandidateExtra& x = out.extra_of(c);
      x.tuple = std::move(tuple);
      x.new_tuple = true;
    }
  }

  S* sys_;
  Stepper<S> stepper_;
  Violation broke_;  // the violation of the last step that broke a rule
  bool graph_;
  std::string from_;   // the frontier world's tuple, with a graph
  std::string label_;  // the step's description, with a graph
  bool restore_;
  std::size_t sample_;
  const FingerprintTable& visited_;
  const ParentLinks& parents_;
  const TupleIds& tuples_;
  const TupleKeys& keys_;
  const SampledTuples& sampled_;
  const SometimesList<S>& sometimes_;
  const SometimesFirst& first_;  // read between merges only: which are still open
  bool keep_tuples_ = false;  // the frontier world being expanded is tuple_sampled
  FingerprintShard local_;    // successors this chunk has produced
  std::vector<Kind> enabled_;
  std::vector<Pending> pending_;  // the batched expansion's successors
  // Tuples (or keys) this worker has marked new: the first occurrence in
  // chunk order of a tuple is always marked (docs/design/explorer.md).
  std::unordered_set<std::uint64_t> known_keys_;
  std::unordered_set<std::string> known_tuples_;
};

/// Runs `work(t)` on threads 0..n-1, the calling thread being 0, and
/// rethrows the first exception of merilo's own (out of memory) any raised.
template <class F>
void run_on_threads(std::size_t n, F&& work) {
  std::vector<std::exception_ptr> failures(n);
  auto guarded = [&](std::size_t t) {
    core::EntryGuard guard;
    try {
      work(t);
    } catch (...) {
      failures[t] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> threads;
    threads.reserve(n - 1);
    for (std::size_t t = 1; t < n; ++t) threads.emplace_back(guarded, t);
    guarded(0);
  }
  for (auto& f : failures) {
    if (f) std::rethrow_exception(f);
  }
}

/// One search, from the initial world to the first violation, the bound or
/// the end.
template <System S>
class Search {
 public:
  using W = world_t<S>;

  Search(S& sys, const ExploreOptions& options, bool restore)
      : sys_(sys),
        options_(options),
        restore_(restore),
        stepper_(sys),
        sometimes_(sys),
        first_(sometimes_.names().size()),
        parents_(sys.kinds()) {}

  /// A usage error in the system's invariant or sometimes list, or "".
  [[nodiscard]] const std::string& error() const noexcept {
    return stepper_.error().empty() ? sometimes_.error() : stepper_.error();
  }

  ExploreResult run() {
    result_.require_complete = options_.require_complete;
    result_.name = options_.name;
    result_.invariants = stepper_.names();
    result_.symmetry = Symmetric<S>;
    if (!start()) return finish();
    make_workers();
    for (std::size_t level = 0; !frontier_.empty(); ++level) {
      if (!expand_level(level)) break;
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
      const Fingerprint fp = state_fingerprint(sys_, w);
      visited_.insert(fp);
      parents_.add_root();
      result_.states = 1;
      std::string tuple = sys_.tuple();
      sampled_tuples_.emplace(fp, tuple);
      if constexpr (TupleKeyed<S>) tuple_keys_.emplace(sys_.tuple_key(), tuple);
      tuple_ids_.emplace(std::move(tuple), 0);
      first_.open_all(sometimes_.all());
      first_.note(sometimes_.satisfied(sys_, first_.open()), 0, 0);
      if (initial.found()) {
        result_.violation = std::move(initial);
        return false;
      }
      frontier_.push(0, fp, &w);
      return true;
    } catch (...) {
      set_violation(ViolationKind::crash, {}, {},
                    core::crash_detail("world/tuple/sometimes", std::current_exception()));
      return false;
    }
  }

  void make_workers() {
    const std::size_t sample = restore_ ? options_.determinism_sample : 1;
    const bool graph = options_.graph != nullptr;
    expanders_.emplace_back(sys_, restore_, sample, visited_, parents_, tuple_ids_, tuple_keys_,
                            sampled_tuples_, sometimes_, first_, graph);
    if constexpr (std::is_copy_constructible_v<S>) {
      copies_.reserve(options_.threads);
      for (unsigned t = 1; t < options_.threads; ++t) {
        copies_.push_back(Copy{sys_});
        expanders_.emplace_back(copies_.back().sys, restore_, sample, visited_, parents_,
                                tuple_ids_, tuple_keys_, sampled_tuples_, sometimes_, first_,
                                graph);
      }
    }
  }

  // A kept tuple's bytes, roughly: the node, its fingerprint and a short
  // string (longer tuples allocate more, uncounted).
  static constexpr std::size_t kSampledTupleBytes =
      sizeof(void*) * 2 + sizeof(Fingerprint) + sizeof(std::string);

  [[nodiscard]] std::size_t stored_bytes() const noexcept {
    return visited_.memory_bytes() + parents_.memory_bytes() + frontier_.memory_bytes() +
           sampled_tuples_.size() * kSampledTupleBytes;
  }

  // Expands the frontier at depth `level`, one slice (a frontier block) at
  // a time, each expanded in parallel and then merged; false when the search
  // is over. Once a merge ends the search (a violation, the bound), the
  // rest of the level is still expanded, unmerged, for problems of its
  // frontier worlds: their traces are shorter, so they win.
  bool expand_level(std::size_t level) {
    const std::size_t size = frontier_.size();
    Frontier<W> next(restore_);
    bool ended = false;
    for (std::size_t first = 0; first < size; first += Frontier<W>::kBlock) {
      const std::size_t last = std::min(first + Frontier<W>::kBlock, size);
      std::vector<ChunkResult<W>> out = expand_slice(level, first, last, next);
      if (!result_.error.empty()) return false;
      for (const auto& c : out) {
        if (c.problem) {
          set_violation(c.problem->kind, parents_.path(frontier_.id(c.problem->index)), {},
                        c.problem->detail);
          result_.depth = level == 0 ? 0 : level - 1;
          return false;
        }
      }
      if (ended) continue;
      if (tuple_mismatch_) {  // after the frontier's problems, whose traces are shorter
        result_.violation = std::move(*tuple_mismatch_);
        result_.depth = level;
        return false;
      }
      mark_fresh(out);
      peak_bytes_ = std::max(peak_bytes_, stored_bytes() + next.memory_bytes() + bytes_of(out));
      ended = !assign_ids(out, level, next);
      frontier_.release(first);
    }
    log_.progress({result_.states, level + 1, next.size(), 0, stored_bytes()});
    if (ended) return false;
    frontier_ = std::move(next);
    if (frontier_.empty()) {
      result_.complete = true;
      result_.depth = level;
    } else {
      result_.depth = level + 1;
    }
    return true;
  }

  static std::size_t bytes_of(const std::vector<ChunkResult<W>>& out) {
    std::size_t n = out.capacity() * sizeof(ChunkResult<W>);
    for (const auto& c : out) n += c.memory_bytes();
    return n;
  }

  // Expands frontier[first, last) on every worker, in chunks.
  std::vector<ChunkResult<W>> expand_slice(std::size_t level, std::size_t first, std::size_t last,
                                           const Frontier<W>& next) {
    const std::size_t chunks = (last - first + kChunk - 1) / kChunk;
    std::vector<ChunkResult<W>> out(chunks);
    std::atomic<std::size_t> next_chunk{0};
    std::atomic<bool> stop{false};
    run_on_threads(std::min(expanders_.size(), chunks), [&](std::size_t t) {
      try {
        for (std::size_t c = next_chunk++; c < chunks && !stop; c = next_chunk++) {
          const std::size_t begin = first + c * kChunk;
          const std::size_t end = std::min(begin + kChunk, last);
          expanders_[t].expand(frontier_, begin, end, out[c]);
          if (t == 0) {
            log_.progress({result_.states, level, frontier_.size(), end,
                           stored_bytes() + next.memory_bytes()});
          }
        }
      } catch (...) {
        stop = true;
        throw;
      }
    });
    for (auto& c : out) {
      result_.steps += c.steps;
      edges_.merge(c.edges);
      if (!c.usage_error.empty() && result_.error.empty()) result_.error = c.usage_error;
      keep_tuples(c);
    }
    return out;
  }

  // Pass 1 of the merge: inserts every candidate, in chunk order, into its
  // shard of the visited set, each thread owning the shards `s` with
  // `s % threads == t`; marks the ones stored for the first time.
  void mark_fresh(std::vector<ChunkResult<W>>& out) {
    const std::size_t threads = std::min<std::size_t>(expanders_.size(), out.size());
    run_on_threads(threads, [&](std::size_t t) {
      constexpr std::size_t kAhead = 16;
      for (auto& chunk : out) {
        auto& cands = chunk.candidates;
        const std::size_t n = chunk.failure ? chunk.failure->position : cands.size();
        for (std::size_t i = 0; i < n; ++i) {
          if (i + kAhead < n) {
            const std::size_t s = FingerprintTable::shard_of(cands[i + kAhead].fp);
            if (s % threads == t) visited_.shard(s).prefetch(cands[i + kAhead].fp);
          }
          const std::size_t s = FingerprintTable::shard_of(cands[i].fp);
          if (s % threads != t) continue;
          cands[i].fresh = visited_.shard(s).insert(cands[i].fp) ? 1 : 0;
        }
      }
    });
  }

  // Pass 2 of the merge: ids in chunk order, parent links, tuples, the next
  // frontier, and the first violation. False when the search is over.
  bool assign_ids(std::vector<ChunkResult<W>>& out, std::size_t level, Frontier<W>& next) {
    for (auto& chunk : out) {
      const std::size_t n = chunk.failure ? chunk.failure->position : chunk.candidates.size();
      for (std::size_t i = 0; i < n; ++i) {
        Candidate& c = chunk.candidates[i];
        if (c.fresh == 0) continue;
        if (result_.states >= options_.max_states) {
          result_.depth = level;
          return false;  // truncated: the world that does not fit
        }
        const auto id = static_cast<std::uint32_t>(result_.states++);
        parents_.add(frontier_.id(c.parent), c.kind);
        CandidateExtra* x = c.extra == kNoExtra ? nullptr : &chunk.extras[c.extra];
        if (x != nullptr && x->new_tuple) add_tuple(*x, id);
        if (x != nullptr && x->reached != 0) first_.note(x->reached, id, level + 1);
        if (x != nullptr && x->broke) {
          set_violation(ViolationKind::invariant, parents_.path(id), std::move(x->invariant),
                        std::move(x->detail));
          result_.depth = level;
          return false;
        }
        next.push(id, c.fp, restore_ ? &chunk.worlds[i] : nullptr);
      }
      if (chunk.failure) {
        Trace t = parents_.path(frontier_.id(chunk.failure->parent));
        t.push_back(chunk.failure->kind);
        set_violation(chunk.failure->problem, std::move(t), {}, std::move(chunk.failure->detail));
        result_.depth = level;
        return false;
      }
      chunk = ChunkResult<W>{};
    }
    return true;
  }

  void add_tuple(CandidateExtra& x, std::uint32_t id) {
    if constexpr (TupleKeyed<S>) {
      if (!tuple_keys_.try_emplace(x.key, x.tuple).second) return;
    }
    tuple_ids_.try_emplace(std::move(x.tuple), id);
  }

  // Keeps a chunk's sampled tuples, in chunk order; the first world that
  // shows another tuple than the one kept for it becomes `tuple_mismatch_`.
  void keep_tuples(ChunkResult<W>& chunk) {
    for (SampledTuple& s : chunk.sampled) {
      const auto [it, kept] = sampled_tuples_.try_emplace(s.fp, s.tuple);
      if (kept || it->second == s.tuple || tuple_mismatch_) continue;
      Trace t = parents_.path(frontier_.id(s.parent));
      t.push_back(s.kind);
      std::string detail = tuple_mismatch(it->second, s.tuple, "along another path");
      if constexpr (Symmetric<S>) {
        detail += " (with canonical(), worlds of one canonical form count as one world, so they "
                  "must show one tuple)";
      }
      tuple_mismatch_ =
          Violation{ViolationKind::nondeterminism, std::move(t), {}, std::move(detail)};
    }
    chunk.sampled.clear();
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
    for (std::size_t i = 0; i < sometimes_.names().size(); ++i) {
      const SometimesFirst::First& f = first_.first(i);
      SometimesReport p{sometimes_.names()[i], f.reached, f.depth, {}};
      if (f.reached && options_.sometimes_traces) p.trace = parents_.path(f.id);
      result_.sometimes.push_back(std::move(p));
    }
    result_.memory_bytes = std::max(peak_bytes_, stored_bytes());
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
  SometimesList<S> sometimes_;
  SometimesFirst first_;  // written by the merge only
  Log log_{options_.quiet ? nullptr : options_.log != nullptr ? options_.log : stderr};
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  ExploreResult result_;
  FingerprintTable visited_;
  ParentLinks parents_;
  TupleIds tuple_ids_;
  TupleKeys tuple_keys_;  // only for systems with tuple_key()
  SampledTuples sampled_tuples_;
  std::optional<Violation> tuple_mismatch_;  // found while keeping sampled tuples
  Edges edges_;                              // only with a graph
  Frontier<W> frontier_{restore_};
  std::size_t peak_bytes_ = 0;
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
    refused.error = detail::check_kinds(static_cast<std::size_t>(sys.kinds()));
    if (!refused.error.empty()) return refused;
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
