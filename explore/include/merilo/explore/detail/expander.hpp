// merilo/explore/detail/expander.hpp — what happens to one world
// (`WorldSteps`: reaching it, the sampled checks, its enabled kinds, its
// successors, the checks of a new world), shared by the in-process explorer
// and explore_mpi; and one in-process worker's expansion of frontier chunks
// into candidates (`Expander`), which adds the visited-set probes.
//
// NOTE: included by search.hpp and mpi_search_inl.hpp, after explore.hpp has
// declared the options and result types it uses.
#ifndef MERILO_EXPLORE_DETAIL_EXPANDER_HPP
#define MERILO_EXPLORE_DETAIL_EXPANDER_HPP

#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <merilo/core/crash.hpp>
#include <merilo/explore/detail/chunk.hpp>
#include <merilo/explore/detail/compact_table.hpp>
#include <merilo/explore/detail/fingerprint.hpp>
#include <merilo/explore/detail/fingerprint_table.hpp>
#include <merilo/explore/detail/frontier.hpp>
#include <merilo/explore/detail/parent_links.hpp>
#include <merilo/explore/detail/sometimes.hpp>
#include <merilo/explore/detail/symmetry.hpp>
#include <merilo/explore/step.hpp>

namespace merilo::explore::detail {

/// Whether frontier world `id` is a determinism sample, reached by replay
/// from reset (in restore mode, and checked against `restore`): the first
/// `kAlwaysReplayed` worlds, then one in `sample` (0: none).
[[nodiscard]] constexpr bool determinism_sampled(std::uint64_t id, std::size_t sample) noexcept {
  return sample != 0 && (id < kAlwaysReplayed || id % sample == 0);
}

/// What the explorer does to one world, written once for every search that
/// expands worlds — the in-process workers (`Expander`) and the ranks of
/// `explore_mpi` (mpi_search_inl.hpp): putting the system into a frontier
/// world (restore, or replay from reset) with the checks made on a sampled
/// one, listing its enabled kinds, taking each to a successor with its
/// stored fingerprint (`state_fingerprint`: canonical for a symmetric
/// system), and checking a world new to the search. What is new, the ids
/// and the order of events stay with the caller.
template <System S>
class WorldSteps {
 public:
  using W = world_t<S>;

  /// Steps on `sys` (kept by pointer), with `sometimes` the properties a
  /// new world is checked against.
  WorldSteps(S& sys, const SometimesList<S>& sometimes)
      : sys_(&sys), stepper_(sys), sometimes_(&sometimes) {}

  /// The system stepped.
  [[nodiscard]] S& sys() const noexcept { return *sys_; }
  /// The step routine (its `error()` is the invariant list's usage error).
  [[nodiscard]] Stepper<S>& stepper() noexcept { return stepper_; }
  /// The step routine, to read its `error()` and `names()`.
  [[nodiscard]] const Stepper<S>& stepper() const noexcept { return stepper_; }
  /// What the last step or check that broke a rule broke.
  [[nodiscard]] Violation& broke() noexcept { return broke_; }
  /// How many kinds the frontier world last visited has enabled.
  [[nodiscard]] std::size_t enabled_count() const noexcept { return enabled_count_; }
  /// Its `n`th enabled kind, in kind order.
  [[nodiscard]] Kind enabled(std::size_t n) const noexcept { return enabled_[n]; }

  /// A frontier world and how it is reached.
  struct Place {
    const W* world = nullptr;     // restore mode: the world the frontier keeps
    Fingerprint fp{};             // replay mode: its stored fingerprint
    const Trace* path = nullptr;  // its path from reset, when it is replayed
    bool sampled = false;  // a determinism sample: replayed (and, restoring, checked against it)
    bool tuple_sampled = false;  // its canonical form is checked (`tuple_sampled(id)`)
  };

  /// Puts the system into frontier world `at`, makes the checks of a
  /// sampled world and lists its enabled kinds. Returns `none`, or the
  /// problem of the world itself (its replay disagrees, a deadlock, a crash)
  /// with its text in `detail`. An adapter that broke a contract
  /// (`tuple_key()` against `keys`, the tuples stored; `canonical()`, whose
  /// error names the trace `path_of()` returns) sets `usage` when it is
  /// still empty. `steps` counts the replayed steps.
  template <class PathOf>
  ViolationKind visit(const Place& at, const TupleKeys& keys, PathOf&& path_of,
                      std::uint64_t& steps, std::string& detail, std::string& usage) {
    try {
      if (!reach(at, steps, detail)) return ViolationKind::nondeterminism;
      if (at.sampled && usage.empty()) usage = key_problem(keys);
      if (Symmetric<S> && at.tuple_sampled && usage.empty()) {
        const std::string rule = canonical_problem(*sys_, stepper_, *sometimes_);
        if (!rule.empty()) usage = canonical_error(rule, path_of());
      }
      const std::size_t kinds = sys_->kinds();
      if (enabled_.size() < kinds) enabled_.resize(kinds);
      enabled_count_ = 0;
      for (Kind k = 0; k < kinds; ++k) {
        enabled_[enabled_count_] = k;
        enabled_count_ += static_cast<std::size_t>(sys_->enabled(k));
      }
      if (enabled_count_ == 0 && !sys_->settled()) {
        detail = kDeadlockDetail;
        return ViolationKind::deadlock;
      }
      return ViolationKind::none;
    } catch (...) {
      detail = core::crash_detail("reset/enabled/settled/canonical", std::current_exception());
      return ViolationKind::crash;
    }
  }

  /// Restore mode (a `Restorable` system): takes every enabled kind of
  /// frontier world `from` (the system in it, after `visit`), restoring it
  /// before each kind but the first. `on_world(kind, fp)` runs with the
  /// system in the successor and `fp` its stored fingerprint;
  /// `on_broke(kind)` after a step that broke a rule (`broke()`). False,
  /// with `detail`, when restoring crashed.
  template <class OnWorld, class OnBroke>
  bool take_all(const W& from, std::uint64_t& steps, OnWorld&& on_world, OnBroke&& on_broke,
                std::string& detail) {
    for (std::size_t n = 0; n < enabled_count_; ++n) {
      const Kind kind = enabled_[n];
      try {
        if (n > 0) sys_->restore(from);
      } catch (...) {
        detail = core::crash_detail("restore", std::current_exception());
        return false;
      }
      ++steps;
      const StepEnd end = stepper_.take(kind, nullptr, broke_, [&] {
        on_world(kind, state_fingerprint(*sys_, sys_->world()));
        return false;
      });
      if (end == StepEnd::broke) on_broke(kind);
    }
    return true;
  }

  /// How checking a new world ended.
  enum class Checked : std::uint8_t {
    holds,   ///< every invariant holds
    broke,   ///< an invariant broke (`broke()`); the world is still a world
    failed,  ///< something else broke (`broke()`): a crash
  };

  /// Checks world `w`, new to the search (a `Restorable` system): restores
  /// it, evaluates the invariants and, unless that failed, runs `on_new()`
  /// with the system in it (the caller's tuple and sometimes bookkeeping:
  /// see `satisfied`).
  template <class OnNew>
  Checked check_new(const W& w, OnNew&& on_new) {
    try {
      sys_->restore(w);
      Checked out = Checked::holds;
      if (stepper_.check(nullptr, broke_) == StepEnd::broke) {
        if (broke_.kind != ViolationKind::invariant) return Checked::failed;
        out = Checked::broke;
      }
      on_new();
      return out;
    } catch (...) {
      broke_ = Violation{ViolationKind::crash,
                         {},
                         {},
                         core::crash_detail("restore/tuple/sometimes", std::current_exception())};
      return Checked::failed;
    }
  }

  /// The sometimes properties of `open` that the world the system is in
  /// satisfies.
  [[nodiscard]] std::uint64_t satisfied(std::uint64_t open) const {
    return open == 0 ? 0 : sometimes_->satisfied(*sys_, open);
  }

  /// Replays `path` from reset; "" when it reached `fp`, else why not. `fp`
  /// is the stored fingerprint (`stored`: of the canonical world, for a
  /// symmetric system) or the concrete world's. `steps` counts the steps.
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

 private:
  // Puts the system into frontier world `at`; false, with why in `detail`,
  // when it cannot. Most worlds are restored, with no string made.
  bool reach(const Place& at, std::uint64_t& steps, std::string& detail) {
    if constexpr (Restorable<S>) {
      if (at.world != nullptr && !at.sampled) {
        sys_->restore(*at.world);
        return true;
      }
    }
    detail = reach_checked(at, steps);
    return detail.empty();
  }

  // Reaches frontier world `at` by replay from reset; "" on success, else
  // why not. In restore mode (a sampled world) world() after restore is
  // then checked against the world stored.
  std::string reach_checked(const Place& at, std::uint64_t& steps) {
    if constexpr (Restorable<S>) {
      if (at.world != nullptr) {
        const W& stored = *at.world;
        const Fingerprint fp = fingerprint(stored);
        std::string why = replay_to(*at.path, fp, false, steps);
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
    }
    return replay_to(*at.path, at.fp, true, steps);
  }

  // On a sampled world: the tuple of its key must be the tuple it shows.
  std::string key_problem(const TupleKeys& keys) {
    if constexpr (TupleKeyed<S>) {
      const std::uint64_t key = sys_->tuple_key();
      const auto it = keys.find(key);
      if (it == keys.end()) return {};
      std::string tuple = sys_->tuple();
      if (tuple == it->second) return {};
      return "merilo: tuple_key() returned " + std::to_string(key) +
             " for two different tuples, \"" + it->second + "\" and \"" + tuple +
             "\"; equal keys must mean equal tuples";
    } else {
      (void)keys;
      return {};
    }
  }

  S* sys_;
  Stepper<S> stepper_;
  Violation broke_;  // the violation of the last step or check that broke a rule
  const SometimesList<S>* sometimes_;
  // The enabled kinds of the world visited: the first `enabled_count_`
  // entries (sized once, to the kind count, so listing them is a store per
  // kind and no growth check).
  std::vector<Kind> enabled_;
  std::size_t enabled_count_ = 0;
};

/// One worker's system and the search state it reads.
template <System S>
class alignas(64) Expander {
 public:
  using W = world_t<S>;

  Expander(S& sys, bool restore, std::size_t sample, const VisitedSet& visited,
           const ParentLinks& parents, const TupleIds& tuples, const TupleKeys& keys,
           const SampledTuples& sampled, const SometimesList<S>& sometimes,
           const SometimesFirst& first, bool graph)
      : world_(sys, sometimes),
        graph_(graph),
        restore_(restore),
        sample_(sample),
        visited_(visited),
        parents_(parents),
        tuples_(tuples),
        keys_(keys),
        sampled_(sampled),
        first_(first) {}

  /// Makes this worker the visited set's only writer while it expands (a
  /// search on one thread): see `is_new`.
  void own(VisitedSet& visited) noexcept { owned_ = &visited; }
  /// Whether `own` was called: its candidates need no insert pass.
  [[nodiscard]] bool owns() const noexcept { return owned_ != nullptr; }

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
  using Checked = typename WorldSteps<S>::Checked;

  [[nodiscard]] S& sys() const noexcept { return world_.sys(); }

  // Puts the system into frontier world `index` and lists its enabled
  // kinds (WorldSteps::visit); false (with `out.problem` set) when the world
  // itself is a problem.
  bool prepare(const Frontier<W>& frontier, std::uint32_t index, Trace& path, ChunkResult<W>& out) {
    const std::uint32_t id = frontier.id(index);
    const bool sampled = determinism_sampled(id, sample_);
    path = restore_ && !sampled ? Trace{} : parents_.path(id);
    keep_tuples_ = tuple_sampled(id);
    typename WorldSteps<S>::Place at;
    if (restore_) {
      at.world = &frontier.world(index);
    } else {
      at.fp = frontier.fp(index);
    }
    at.path = &path;
    at.sampled = sampled;
    at.tuple_sampled = keep_tuples_;
    std::string detail;
    const ViolationKind problem = world_.visit(
        at, keys_, [&] { return parents_.path(id); }, out.steps, detail, out.usage_error);
    if (problem != ViolationKind::none) {
      out.problem = FrontierProblem{problem, index, std::move(detail)};
      return false;
    }
    if (graph_) {
      try {
        from_ = sys().tuple();
      } catch (...) {
        out.problem = FrontierProblem{
            ViolationKind::crash, index,
            core::crash_detail("reset/enabled/settled/canonical", std::current_exception())};
        return false;
      }
    }
    return true;
  }

  // Replay mode, or a graph: each successor is probed as it is taken, and
  // its invariants are checked (by the step) only when it is new.
  void expand_one(const Frontier<W>& frontier, std::uint32_t index, ChunkResult<W>& out) {
    Trace path;
    if (!prepare(frontier, index, path, out)) return;
    const Fingerprint at = restore_ ? Fingerprint{} : frontier.fp(index);
    for (std::size_t n = 0; n < world_.enabled_count(); ++n) {
      Candidate c;
      c.parent = index;
      c.kind = static_cast<std::uint32_t>(world_.enabled(n));
      try {
        if (n > 0) {
          std::string why = reach(frontier, index, at, path, out.steps);
          if (!why.empty()) {
            out.problem = FrontierProblem{ViolationKind::nondeterminism, index, std::move(why)};
            return;
          }
        }
        if (graph_) label_ = sys().describe(c.kind);
        const Step taken = step(c, out);
        if (taken != Step::failed) keep_tuple(c.fp, c.parent, c.kind, out);
        if (graph_ && taken != Step::failed) {
          out.edges.insert(TupleGraph::Edge{from_, label_, std::string(sys().tuple())});
        }
        if (taken != Step::fresh) continue;
        if (restore_) out.worlds.push_back(sys().world());
      } catch (...) {
        fail(c, ViolationKind::crash,
             core::crash_detail("reset/describe/tuple/world/sometimes", std::current_exception()),
             out);
        continue;
      }
      out.candidates.push_back(c);
    }
  }

  // Puts the system back into frontier world `index` for its next kind:
  // restore, or replay from reset to its fingerprint `fp`.
  std::string reach(const Frontier<W>& frontier, std::uint32_t index, const Fingerprint& fp,
                    const Trace& path, std::uint64_t& steps) {
    if constexpr (Restorable<S>) {
      if (restore_) {
        sys().restore(frontier.world(index));
        return {};
      }
    }
    (void)frontier;
    (void)index;
    return world_.replay_to(path, fp, true, steps);
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
      std::string why;
      const bool reached = world_.take_all(
          frontier.world(index), out.steps,
          [&](Kind k, const Fingerprint& fp) {
            const auto kind = static_cast<std::uint32_t>(k);
            pending_.push_back(Pending{fp, index, kind, sys().world()});
            keep_tuple(fp, index, kind, out);
          },
          [&](Kind k) {
            if (failure) return;
            cut = pending_.size();
            Violation& broke = world_.broke();
            failure = StepFailure{0, index, static_cast<std::uint32_t>(k), broke.kind,
                                  std::move(broke.detail)};
          },
          why);
      if (!reached) out.problem = FrontierProblem{ViolationKind::crash, index, std::move(why)};
    }
    if (out.problem) return;  // a frontier world's problem comes first
    constexpr std::size_t kAhead = 16;
    const std::size_t n = std::min(cut, pending_.size());
    for (std::size_t j = 0; j < n; ++j) {
      if (j + kAhead < n) visited_.prefetch(pending_[j + kAhead].fp);
      Pending& p = pending_[j];
      std::uint8_t fresh = 0;
      if (!is_new(p.fp, fresh)) continue;
      Candidate c;
      c.fp = p.fp;
      c.fresh = fresh;
      c.parent = p.parent;
      c.kind = p.kind;
      const Checked checked = world_.check_new(p.world, [&] {
        note_tuple(c, out);
        note_sometimes(c, out);
      });
      if (checked == Checked::failed) {
        Violation& broke = world_.broke();
        failure = StepFailure{0, c.parent, c.kind, broke.kind, std::move(broke.detail)};
        break;
      }
      if (checked == Checked::broke) note_broken(c, out);
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
    if (keep_tuples_) out.sampled.push_back(SampledTuple{fp, parent, kind, sys().tuple()});
  }

  void fail(const Candidate& c, ViolationKind problem, std::string detail, ChunkResult<W>& out) {
    if (out.failure) return;
    out.failure = StepFailure{out.candidates.size(), c.parent, c.kind, problem, std::move(detail)};
  }

  // Takes c.kind (the one step routine, step.hpp) and fills `c` unless the
  // world was seen before. Its invariants are checked only when it is new.
  Step step(Candidate& c, ChunkResult<W>& out) {
    ++out.steps;
    Violation& broke = world_.broke();
    const StepEnd end = world_.stepper().take(c.kind, nullptr, broke, [&] {
      c.fp = state_fingerprint(sys(), sys().world());
      return is_new(c.fp, c.fresh);
    });
    if (end == StepEnd::seen) return Step::seen;
    if (end == StepEnd::broke) {
      if (broke.kind != ViolationKind::invariant) {
        fail(c, broke.kind, std::move(broke.detail), out);
        return Step::failed;
      }
      note_broken(c, out);
    }
    note_tuple(c, out);
    note_sometimes(c, out);
    return Step::fresh;
  }

  // Records the broken invariant of the new world `c` (`broke()`) in its
  // extra, so the merge reports it if `c` is new.
  void note_broken(Candidate& c, ChunkResult<W>& out) {
    Violation& broke = world_.broke();
    CandidateExtra& x = out.extra_of(c);
    x.broke = true;
    x.invariant = std::move(broke.invariant);
    x.detail = std::move(broke.detail);
  }

  // Whether successor `fp` is new to the search as far as this worker can
  // tell. A sole worker owns the visited set and inserts at once, so its
  // candidates are final (`fresh`) and the merge skips its insert pass: one
  // probe of the table per successor instead of a read-only probe here and
  // an insert in the merge. Otherwise the set is read only, `local_` drops
  // the chunk's own repeats, and the merge's insert pass decides. `fresh`
  // gets the candidate's mark: final for a sole worker (1 stored, 2 did not
  // fit in a full compact table), 0 for the merge to set otherwise.
  bool is_new(const Fingerprint& fp, std::uint8_t& fresh) {
    if (owned_ != nullptr) {
      const Inserted r = owned_->insert(fp);
      fresh = r == Inserted::full ? kDidNotFit : 1;
      return r != Inserted::seen;
    }
    fresh = 0;
    return !visited_.contains(fp) && local_.insert(fp);
  }

  // Marks the open sometimes properties the new world `c` satisfies.
  void note_sometimes(Candidate& c, ChunkResult<W>& out) {
    const std::uint64_t hit = world_.satisfied(first_.open());
    if (hit != 0) out.extra_of(c).reached = hit;
  }

  // Builds the tuple string only for a tuple this worker has not met.
  void note_tuple(Candidate& c, ChunkResult<W>& out) {
    if constexpr (TupleKeyed<S>) {
      const std::uint64_t key = sys().tuple_key();
      if (!known_keys_.insert(Fingerprint{core::mix64(key), key})) return;
      if (keys_.contains(key)) return;
      CandidateExtra& x = out.extra_of(c);
      x.tuple = sys().tuple();
      x.key = key;
      x.new_tuple = true;
    } else {
      std::string tuple = sys().tuple();
      if (tuples_.contains(tuple) || known_tuples_.contains(tuple)) return;
      known_tuples_.insert(tuple);
      CandidateExtra& x = out.extra_of(c);
      x.tuple = std::move(tuple);
      x.new_tuple = true;
    }
  }

  WorldSteps<S> world_;  // what happens to one world, shared with explore_mpi
  bool graph_;
  std::string from_;   // the frontier world's tuple, with a graph
  std::string label_;  // the step's description, with a graph
  bool restore_;
  std::size_t sample_;
  const VisitedSet& visited_;
  const ParentLinks& parents_;
  const TupleIds& tuples_;
  const TupleKeys& keys_;
  const SampledTuples& sampled_;
  const SometimesFirst& first_;   // read between merges only: which are still open
  bool keep_tuples_ = false;      // the frontier world being expanded is tuple_sampled
  VisitedSet* owned_ = nullptr;   // the visited set, when this is the only worker
  FingerprintShard local_;        // successors this chunk has produced
  std::vector<Pending> pending_;  // the batched expansion's successors
  // Tuples (or keys) this worker has marked new: the first occurrence in
  // chunk order of a tuple is always marked (docs/design/explorer.md).
  FingerprintShard known_keys_;  // keys k as {mix64(k), k}: a flat set
  std::unordered_set<std::string> known_tuples_;
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_EXPANDER_HPP
