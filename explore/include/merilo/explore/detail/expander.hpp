// merilo/explore/detail/expander.hpp — one worker's expansion of frontier
// chunks into candidates: reaching each world (restore or replay), taking
// every enabled kind, probing the visited set, checking new worlds.
//
// NOTE: included by explorer_inl.hpp only, after explore.hpp has declared
// the options and result types it uses.
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

/// One worker's system and the search state it reads.
template <System S>
class alignas(64) Expander {
 public:
  using W = world_t<S>;

  Expander(S& sys, bool restore, std::size_t sample, const VisitedSet& visited,
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
      if (enabled_.size() < kinds) enabled_.resize(kinds);
      enabled_count_ = 0;
      for (Kind k = 0; k < kinds; ++k) {
        enabled_[enabled_count_] = k;
        enabled_count_ += static_cast<std::size_t>(sys_->enabled(k));
      }
      if (enabled_count_ == 0 && !sys_->settled()) {
        out.problem = FrontierProblem{ViolationKind::deadlock, index, std::string(kDeadlockDetail)};
        return false;
      }
      if (graph_) from_ = sys_->tuple();
    } catch (...) {
      out.problem = FrontierProblem{
          ViolationKind::crash, index,
          core::crash_detail("reset/enabled/settled/canonical", std::current_exception())};
      return false;
    }
    return true;
  }

  void expand_one(const Frontier<W>& frontier, std::uint32_t index, ChunkResult<W>& out) {
    Trace path;
    if (!prepare(frontier, index, path, out)) return;
    for (std::size_t n = 0; n < enabled_count_; ++n) {
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
      for (std::size_t n = 0; n < enabled_count_; ++n) {
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
      std::uint8_t fresh = 0;
      if (!is_new(p.fp, fresh)) continue;
      Candidate c;
      c.fp = p.fp;
      c.fresh = fresh;
      c.parent = p.parent;
      c.kind = p.kind;
      try {
        sys_->restore(p.world);
        if (stepper_.check(nullptr, broke_) == StepEnd::broke && !note_broken(c, out)) {
          failure = StepFailure{0, c.parent, c.kind, broke_.kind, std::move(broke_.detail)};
          break;
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
      return is_new(c.fp, c.fresh);
    });
    if (end == StepEnd::seen) return Step::seen;
    if (end == StepEnd::broke && !note_broken(c, out)) {
      fail(c, broke_.kind, std::move(broke_.detail), out);
      return Step::failed;
    }
    note_tuple(c, out);
    note_sometimes(c, out);
    return Step::fresh;
  }

  // After a step whose checks broke a rule (`broke_`): records a broken
  // invariant in `c`'s extra, so the merge reports it if `c` is new; false
  // when what broke is not an invariant, which fails the step instead.
  bool note_broken(Candidate& c, ChunkResult<W>& out) {
    if (broke_.kind != ViolationKind::invariant) return false;
    CandidateExtra& x = out.extra_of(c);
    x.broke = true;
    x.invariant = std::move(broke_.invariant);
    x.detail = std::move(broke_.detail);
    return true;
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
    const std::uint64_t open = first_.open();
    if (open == 0) return;
    const std::uint64_t hit = sometimes_.satisfied(*sys_, open);
    if (hit != 0) out.extra_of(c).reached = hit;
  }

  // Builds the tuple string only for a tuple this worker has not met.
  void note_tuple(Candidate& c, ChunkResult<W>& out) {
    if constexpr (TupleKeyed<S>) {
      const std::uint64_t key = sys_->tuple_key();
      if (!known_keys_.insert(Fingerprint{core::mix64(key), key})) return;
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
  const VisitedSet& visited_;
  const ParentLinks& parents_;
  const TupleIds& tuples_;
  const TupleKeys& keys_;
  const SampledTuples& sampled_;
  const SometimesList<S>& sometimes_;
  const SometimesFirst& first_;  // read between merges only: which are still open
  bool keep_tuples_ = false;     // the frontier world being expanded is tuple_sampled
  VisitedSet* owned_ = nullptr;  // the visited set, when this is the only worker
  FingerprintShard local_;       // successors this chunk has produced
  // The enabled kinds of the world being expanded: the first
  // `enabled_count_` entries (sized once, to the kind count, so listing them
  // is a store per kind and no growth check).
  std::vector<Kind> enabled_;
  std::size_t enabled_count_ = 0;
  std::vector<Pending> pending_;  // the batched expansion's successors
  // Tuples (or keys) this worker has marked new: the first occurrence in
  // chunk order of a tuple is always marked (docs/design/explorer.md).
  FingerprintShard known_keys_;  // keys k as {mix64(k), k}: a flat set
  std::unordered_set<std::string> known_tuples_;
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_EXPANDER_HPP
