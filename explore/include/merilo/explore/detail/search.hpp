// merilo/explore/detail/search.hpp — one level-synchronous search: levels
// cut into slices, slices expanded on every worker and merged in chunk order
// (docs/design/explorer.md).
//
// NOTE: included by explorer_inl.hpp only, after explore.hpp has declared
// the options and result types it uses.
#ifndef MERILO_EXPLORE_DETAIL_SEARCH_HPP
#define MERILO_EXPLORE_DETAIL_SEARCH_HPP

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <merilo/core/crash.hpp>
#include <merilo/explore/detail/chunk.hpp>
#include <merilo/explore/detail/compact_table.hpp>
#include <merilo/explore/detail/expander.hpp>
#include <merilo/explore/detail/fingerprint_table.hpp>
#include <merilo/explore/detail/frontier.hpp>
#include <merilo/explore/detail/log.hpp>
#include <merilo/explore/detail/parent_links.hpp>
#include <merilo/explore/detail/sometimes.hpp>
#include <merilo/explore/detail/spill_file.hpp>
#include <merilo/explore/detail/symmetry.hpp>
#include <merilo/explore/detail/threads.hpp>
#include <merilo/explore/replay.hpp>
#include <merilo/explore/step.hpp>

namespace merilo::explore::detail {

/// The usage error for options that cannot run, or "" when they can.
/// `spills`: the search can spill its frontier to disk (explore, not
/// explore_mpi), so it takes `frontier_bytes` and `spill_dir`.
[[nodiscard]] std::string check_options(const ExploreOptions& options, bool restorable,
                                        bool copyable, bool spills = false);
/// The usage error for a spilling restore-mode search whose world's bytes
/// cannot be written (`trivially_copyable` false), or "".
[[nodiscard]] std::string check_spilled_world(const ExploreOptions& options,
                                              bool trivially_copyable);
/// The usage error for a system with `kinds` step kinds, or "".
[[nodiscard]] std::string check_kinds(std::size_t kinds);

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
        parents_(sys.kinds()) {
    const CompactPlan plan =
        compact_plan(options.compact_bits, options.compact_bytes, options.max_states);
    if (plan.bits != 0) visited_.compact(plan);
    if (options.frontier_bytes != 0) {
      spill_dir_ = spill_directory(options.spill_dir);
      // Created now, so an unwritable directory is an error before the
      // search starts rather than in the middle of it.
      parents_.spill(std::make_unique<SpillFile>(spill_dir_, "parent links"),
                     link_block_bits(options.frontier_bytes));
    }
    frontier_ = new_frontier();
  }

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
  // Blocks of parent links of about `bytes` (a link is about 5 bytes).
  static std::size_t link_block_bits(std::size_t bytes) {
    std::size_t bits = 0;
    while (bits < ParentLinks::kMaxBlockBits && (std::size_t{10} << bits) <= bytes) ++bits;
    return bits;  // ParentLinks::spill clamps it into its range
  }

  // An empty level: spilling past `frontier_bytes` when asked.
  Frontier<W> new_frontier() {
    if (options_.frontier_bytes == 0) return Frontier<W>(restore_);
    return Frontier<W>(restore_, spill_dir_, options_.frontier_bytes, std::move(spare_buffer_));
  }

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
      (void)visited_.insert(fp);
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
      frontier_.seal();
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
    if (expanders_.size() == 1) expanders_[0].own(visited_);
  }

  // At most this many sampled tuples are kept (see keep_tuples).
  static constexpr std::size_t kMaxSampledTuples = std::size_t{1} << 22;
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
    Frontier<W> next = new_frontier();
    bool ended = false;
    for (std::size_t first = 0; first < size; first += Frontier<W>::kBlock) {
      const std::size_t last = std::min(first + Frontier<W>::kBlock, size);
      frontier_.load(first, last);  // read back, when the level spilled
      std::vector<ChunkResult<W>>& out = expand_slice(level, first, last, next);
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
    next.seal();
    spilled_bytes_ = std::max(spilled_bytes_, parents_.spilled_bytes() + frontier_.spilled_bytes() +
                                                  next.spilled_bytes());
    log_.progress({result_.states, level + 1, next.size(), 0, stored_bytes()});
    if (ended) return false;
    spare_buffer_ = frontier_.take_buffer();
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
  // The results live in `slice_`, reused from slice to slice so that their
  // vectors keep their capacity instead of growing again every slice.
  std::vector<ChunkResult<W>>& expand_slice(std::size_t level, std::size_t first, std::size_t last,
                                            const Frontier<W>& next) {
    const std::size_t chunks = (last - first + kChunk - 1) / kChunk;
    std::vector<ChunkResult<W>>& out = slice_;
    out.resize(chunks);
    for (ChunkResult<W>& c : out) c.reset();
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
  // A sole worker has inserted its candidates already (Expander::is_new).
  void mark_fresh(std::vector<ChunkResult<W>>& out) {
    if (expanders_[0].owns()) return;
    const std::size_t threads = std::min({expanders_.size(), out.size(), visited_.shards()});
    run_on_threads(threads, [&](std::size_t t) {
      constexpr std::size_t kAhead = 16;
      for (auto& chunk : out) {
        auto& cands = chunk.candidates;
        const std::size_t n = chunk.failure ? chunk.failure->position : cands.size();
        for (std::size_t i = 0; i < n; ++i) {
          if (i + kAhead < n) {
            const std::size_t s = visited_.shard_of(cands[i + kAhead].fp);
            if (s % threads == t) visited_.prefetch(cands[i + kAhead].fp);
          }
          const std::size_t s = visited_.shard_of(cands[i].fp);
          if (s % threads != t) continue;
          const Inserted r = visited_.insert_in(s, cands[i].fp);
          cands[i].fresh = r == Inserted::fresh ? 1 : r == Inserted::full ? kDidNotFit : 0;
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
        if (c.fresh == kDidNotFit) {  // a full compact table: truncated as at max_states
          result_.compact_full = true;
          result_.depth = level;
          return false;
        }
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
      chunk.reset();
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
  // At most `kMaxSampledTuples` are kept: past that a sampled successor is
  // still compared with the tuple kept for its world, if there is one, but
  // a new one is not kept, so the check's memory stays bounded (a few
  // hundred MB) on searches of billions of worlds. The cap is reached in
  // chunk order, so what is kept does not depend on the thread count.
  void keep_tuples(ChunkResult<W>& chunk) {
    for (SampledTuple& s : chunk.sampled) {
      const auto it = sampled_tuples_.find(s.fp);
      if (it == sampled_tuples_.end()) {
        if (sampled_tuples_.size() < kMaxSampledTuples) {
          sampled_tuples_.emplace(s.fp, std::move(s.tuple));
        }
        continue;
      }
      if (it->second == s.tuple || tuple_mismatch_) continue;
      Trace t = parents_.path(frontier_.id(s.parent));
      t.push_back(s.kind);
      std::string detail = tuple_mismatch(it->second, s.tuple, "along another path");
      if constexpr (Symmetric<S>) {
        detail +=
            " (with canonical(), worlds of one canonical form count as one world, so they "
            "must show one tuple)";
      }
      tuple_mismatch_ =
          Violation{ViolationKind::nondeterminism, std::move(t), {}, std::move(detail)};
    }
    chunk.sampled.clear();
  }

  // Hash compaction: the counterexample is followed again from reset
  // before it is reported, and dropped (the search then counts as
  // incomplete) unless the same rule breaks at its end. A collision can
  // hide worlds, never invent a path, so this is a guard, not a filter
  // expected to fire; nondeterminism, which a replay need not repeat, is
  // reported as found.
  void recheck_violation() {
    Violation& v = result_.violation;
    if (!v.found() || v.kind == ViolationKind::nondeterminism) return;
    if (!reproduces(stepper_, v)) {
      result_.violation = Violation{};
      result_.complete = false;
      result_.unconfirmed_counterexample = true;
    }
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
    result_.spilled_bytes = std::max(spilled_bytes_, parents_.spilled_bytes());
    if (const CompactTable* t = visited_.compact_table(); t != nullptr) {
      result_.compact_bits = t->bits();
      result_.compact_slots = t->slots();
      result_.miss_probability = compact_miss_bound(result_.states, t->slots(), t->bits());
      recheck_violation();
    }
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
  VisitedSet visited_;
  ParentLinks parents_;
  TupleIds tuple_ids_;
  TupleKeys tuple_keys_;  // only for systems with tuple_key()
  SampledTuples sampled_tuples_;
  std::optional<Violation> tuple_mismatch_;  // found while keeping sampled tuples
  Edges edges_;                              // only with a graph
  std::string spill_dir_;                    // with frontier_bytes: where spill files go
  std::vector<std::byte> spare_buffer_;      // a spilled level's buffer, for the next one
  Frontier<W> frontier_{restore_};
  std::size_t peak_bytes_ = 0;
  std::uint64_t spilled_bytes_ = 0;  // peak bytes on disk, at level ends
  // One copy of the system per extra worker, each on its own cache lines.
  struct alignas(64) Copy {
    S sys;
  };
  std::vector<Copy> copies_;
  std::vector<Expander<S>> expanders_;
  std::vector<ChunkResult<W>> slice_;  // the slice being expanded and merged
};

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_SEARCH_HPP
