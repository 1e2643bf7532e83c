// merilo/explore/detail/mpi_search_inl.hpp — the distributed explorer's
// body (mpi.hpp).
//
// Every rank runs one `MpiSearch`, in lock step. What happens to one world
// — reaching it, its sampled checks, its enabled kinds, its successors and
// their fingerprints, the checks of a new world — is the in-process
// explorer's own code (`WorldSteps`, expander.hpp); this file adds what is
// MPI's. A level: (1) the paths of the frontier worlds picked for a replay
// from reset are rebuilt across ranks; (2) each rank expands its own
// frontier worlds, in global-id order, one slice at a time, and sends each
// successor to its owner, which keeps the first occurrence by order key
// (parent's global id, kind) and checks each world new to it; (3) the
// holder of each range of parent ids numbers the new worlds whose parents
// fall in it, in key order, which gives every world the id the in-process
// explorer gives it; (4) the ranks agree on the level's first event, store
// the new worlds that come before it and go on or stop.
// docs/design/explorer-mpi.md says why.
#ifndef MERILO_EXPLORE_DETAIL_MPI_SEARCH_INL_HPP
#define MERILO_EXPLORE_DETAIL_MPI_SEARCH_INL_HPP

#include <algorithm>
#include <bit>  // std::countr_zero
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <merilo/core/crash.hpp>
#include <merilo/core/reentry.hpp>
#include <merilo/explore/detail/expander.hpp>  // WorldSteps
#include <merilo/explore/detail/mpi_comm.hpp>
#include <merilo/explore/detail/mpi_search.hpp>
#include <merilo/explore/detail/sometimes.hpp>  // SometimesList
#include <merilo/explore/replay.hpp>

namespace merilo::explore::detail::mpi {

/// The usage error for a distributed search that cannot run, or "".
[[nodiscard]] std::string check_mpi_options(const ExploreOptions& options, bool trivial_world);
/// Prints `r.summary()` to `out` (nothing when null), clearing a progress
/// line first on a terminal.
void print_summary(std::FILE* out, const MpiResult& r);

/// One rank's part of a distributed search.
template <System S>
class MpiSearch {
 public:
  using W = world_t<S>;

  MpiSearch(S& sys, const ExploreOptions& options)
      : sys_(sys),
        options_(options),
        sometimes_(sys),
        world_(sys, sometimes_),
        some_(sometimes_.names().size()),
        me_(rank()),
        ranks_(mpi::ranks()),
        links_(sys.kinds() * mpi::ranks()) {}

  /// A usage error in the system's invariant or sometimes list, or "".
  [[nodiscard]] const std::string& error() const noexcept {
    const std::string& invariants = world_.stepper().error();
    return invariants.empty() ? sometimes_.error() : invariants;
  }

  MpiResult run() {
    result_.require_complete = options_.require_complete;
    result_.name = options_.name;
    result_.invariants = world_.stepper().names();
    result_.symmetry = Symmetric<S>;
    if (start()) {
      for (std::size_t level = 0; expand_level(level); ++level) {
      }
    }
    return finish();
  }

 private:
  // A successor new to this rank in the current level.
  struct Pending {
    std::uint64_t key;           // order_key(parent gid, kind), the least seen
    std::uint64_t gid = kNone;   // set by number()
    std::uint32_t parent_local;  // the parent, on rank parent_rank
    std::uint32_t parent_rank;
    std::uint32_t tuple = kNoTuple;  // index into level_tuples_, when new
    std::uint64_t reached = 0;       // the sometimes properties it satisfies
    W world;
  };
  static constexpr std::uint32_t kNoTuple = 0xFFFFFFFFU;
  // A tuple first met in this level: its text and the least id showing it.
  struct LevelTuple {
    std::string text;
    std::uint64_t key = 0;
    std::uint64_t gid = kNone;
    std::uint32_t local = 0;
  };
  struct TupleAt {
    std::uint64_t gid;
    std::uint32_t local;
  };
  // The least id of a stored world satisfying one sometimes property.
  struct SomeAt {
    std::uint64_t gid = kNone;
    std::uint64_t depth = 0;
    std::uint32_t local = 0;
  };

  [[nodiscard]] bool sampled(std::uint64_t gid) const noexcept {
    return determinism_sampled(gid, options_.determinism_sample);
  }
  // The worlds whose paths are rebuilt before their level: the replayed
  // ones, and for a symmetric system those whose canonical form is checked
  // (a broken canonical() is reported with the trace).
  [[nodiscard]] bool needs_path(std::uint64_t gid) const noexcept {
    return sampled(gid) || (Symmetric<S> && tuple_sampled(static_cast<std::uint32_t>(gid)));
  }
  [[nodiscard]] unsigned owner(const Fingerprint& fp) const noexcept {
    return static_cast<unsigned>(FingerprintTable::shard_of(fp) % ranks_);
  }

  bool start() {
    Violation initial;
    if (world_.stepper().start(initial) == StepEnd::broke && initial.kind == ViolationKind::crash) {
      result_.violation = std::move(initial);
      return false;
    }
    try {
      const W& w = sys_.world();
      const Fingerprint fp = state_fingerprint(sys_, w);
      root_ = Node{owner(fp), 0};
      states_ = 1;
      level_size_ = 1;
      if (root_.rank == me_) {
        visited_.insert(fp);
        links_.add_root();
        frontier_.push(0, fp, &w);
        gids_.push_back(0);
        std::string tuple = sys_.tuple();
        if constexpr (TupleKeyed<S>) known_keys_.emplace(sys_.tuple_key(), tuple);
        tuples_.emplace(std::move(tuple), TupleAt{0, 0});
        note_some(sometimes_.satisfied(sys_, sometimes_.all()), 0, 0, 0);
      }
      if (initial.found()) {
        result_.violation = std::move(initial);
        return false;
      }
      return true;
    } catch (...) {
      result_.violation =
          Violation{ViolationKind::crash,
                    {},
                    {},
                    core::crash_detail("world/tuple/sometimes", std::current_exception())};
      return false;
    }
  }

  // One level; false when the search is over.
  bool expand_level(std::size_t level) {
    const std::uint64_t first_gid = states_ - level_size_;
    const std::vector<Trace> replays = sampled_paths();
    const std::size_t own = gids_.size();
    const std::uint64_t slices = max((own + kSlice - 1) / kSlice);
    std::size_t replay = 0;
    std::uint64_t expanded = 0;
    for (std::uint64_t s = 0; s < slices; ++s) {
      std::vector<Bytes> out(ranks_);
      local_.clear();
      const std::size_t begin = static_cast<std::size_t>(s * kSlice);
      for (std::size_t i = begin; i < std::min<std::size_t>(begin + kSlice, own); ++i) {
        const Trace* path = needs_path(gids_[i]) ? &replays[replay++] : nullptr;
        expand(i, path, out);
      }
      receive(exchange(out, &bytes_sent_));
      if (begin < own) frontier_.release(begin);
      expanded += std::min<std::size_t>(kSlice, own > begin ? own - begin : 0);
      const std::uint64_t all = sum(expanded);
      log_.progress({static_cast<std::size_t>(states_), level,
                     static_cast<std::size_t>(level_size_), static_cast<std::size_t>(all),
                     own_bytes()});
    }
    const std::uint64_t fresh = number(first_gid);
    return settle(level, first_gid, fresh);
  }

  // The paths of this rank's frontier worlds that are replayed from reset.
  std::vector<Trace> sampled_paths() {
    std::vector<Node> q;
    for (std::size_t i = 0; i < gids_.size(); ++i) {
      if (needs_path(gids_[i])) q.push_back(Node{me_, frontier_.id(i)});
    }
    return paths(links_, q, root_, ranks_, &bytes_sent_);
  }

  void problem(std::uint64_t gid, std::uint32_t local, ViolationKind kind, std::string detail) {
    if (gid >= problem_.order) return;
    problem_ = Event{gid, kind, false, Node{me_, local}, 0, {}, std::move(detail)};
  }

  void failure(std::uint64_t key, std::uint32_t local, Violation& v, bool stored) {
    const std::uint64_t order = key * 2 + 1;
    if (order >= event_.order) return;
    event_ = Event{order,
                   v.kind,
                   stored,
                   Node{me_, local},
                   kind_of_key(key),
                   std::move(v.invariant),
                   std::move(v.detail)};
  }

  // Expands frontier world `i` (WorldSteps) into the owners' buffers.
  void expand(std::size_t i, const Trace* path, std::vector<Bytes>& out) {
    const std::uint64_t gid = gids_[i];
    const std::uint32_t local = frontier_.id(i);
    const W& from = frontier_.world(i);
    typename WorldSteps<S>::Place at;
    at.world = &from;
    at.path = path;
    at.sampled = sampled(gid);
    at.tuple_sampled = tuple_sampled(static_cast<std::uint32_t>(gid));
    std::string detail;
    std::string usage;
    const ViolationKind kind = world_.visit(
        at, known_keys_, [&] { return *path; }, steps_, detail, usage);
    if (!usage.empty()) usage_error(gid, std::move(usage));
    if (kind != ViolationKind::none) {
      problem(gid, local, kind, std::move(detail));
      return;
    }
    transitions_ += world_.enabled_count();
    const bool reached = world_.take_all(
        from, steps_,
        [&](Kind k, const Fingerprint& fp) {
          if (!local_.insert(fp)) return;  // this slice sent it already, from an earlier key
          Writer(out[owner(fp)])
              .put(static_cast<std::uint32_t>(gid), local, static_cast<std::uint16_t>(k),
                   sys_.world());
        },
        [&](Kind k) {
          failure(order_key(gid, static_cast<std::uint32_t>(k)), local, world_.broke(), false);
        },
        detail);
    if (!reached) problem(gid, local, ViolationKind::crash, std::move(detail));
  }

  // A broken adapter contract (tuple_key(), canonical()) met at frontier
  // world `gid`: the least one over the ranks ends the search as a usage
  // error, as in the in-process explorer.
  void usage_error(std::uint64_t gid, std::string text) {
    if (gid < usage_.order)
      usage_ = Event{gid, ViolationKind::none, false, {}, 0, {}, std::move(text)};
  }

  // Keeps the successors this rank owns: the first time a world is met it
  // is stored as pending and checked; again, the least key wins.
  void receive(const Received& in) {
    for (unsigned r = 0; r < ranks_; ++r) {
      Reader rd = in.from(r);
      while (!rd.done()) {
        const auto parent_gid = rd.get<std::uint32_t>();
        const auto parent_local = rd.get<std::uint32_t>();
        const auto kind = rd.get<std::uint16_t>();
        W world;
        std::memcpy(static_cast<void*>(&world), rd.skip(sizeof(W)), sizeof(W));
        const Fingerprint fp = state_fingerprint(sys_, world);
        const std::uint64_t key = order_key(parent_gid, kind);
        if (!visited_.insert(fp)) {
          const std::uint64_t at = index_.find(fp);
          if (at != kNone && key < pending_[at].key) {
            Pending& p = pending_[at];
            p.key = key;
            p.parent_local = parent_local;
            p.parent_rank = r;
            if constexpr (Symmetric<S>) {
              // Another world of the same canonical form: the in-process
              // explorer keeps (and checks) the one of the least key.
              if (std::memcmp(static_cast<const void*>(&p.world), static_cast<const void*>(&world),
                              sizeof(W)) != 0) {
                p.world = world;
                p.tuple = kNoTuple;
                p.reached = 0;
                broken_.erase(static_cast<std::uint32_t>(at));
                check(static_cast<std::uint32_t>(at));
              }
            }
          }
          continue;
        }
        const auto at = static_cast<std::uint32_t>(pending_.size());
        pending_.push_back(Pending{key, kNone, parent_local, r, kNoTuple, 0, world});
        fps_.push_back(fp);
        index_.add(at);
        check(at);
      }
    }
  }

  // The invariants, the tuple and the sometimes properties of new world
  // `at` (WorldSteps::check_new).
  void check(std::uint32_t at) {
    Pending& p = pending_[at];
    const auto checked = world_.check_new(p.world, [&] {
      p.tuple = note_tuple();
      p.reached = world_.satisfied(sometimes_.all());
    });
    if (checked != WorldSteps<S>::Checked::holds) broken_.insert_or_assign(at, world_.broke());
  }

  // The level tuple of the world the system is in, or kNoTuple when this
  // rank stored it in an earlier level.
  std::uint32_t note_tuple() {
    if constexpr (TupleKeyed<S>) {
      const std::uint64_t key = sys_.tuple_key();
      if (known_keys_.contains(key)) return kNoTuple;
      const auto [it, added] =
          level_keys_.try_emplace(key, static_cast<std::uint32_t>(level_tuples_.size()));
      if (added) level_tuples_.push_back(LevelTuple{sys_.tuple(), key});
      return it->second;
    } else {
      std::string tuple = sys_.tuple();
      if (tuples_.contains(tuple)) return kNoTuple;
      const auto [it, added] =
          level_names_.try_emplace(tuple, static_cast<std::uint32_t>(level_tuples_.size()));
      if (added) level_tuples_.push_back(LevelTuple{std::move(tuple)});
      return it->second;
    }
  }

  // Numbers the level's new worlds: the holder of each range of parent
  // ids sorts the keys of the new worlds whose parents fall in it; ranges
  // are numbered in rank order. Returns how many there are.
  std::uint64_t number(std::uint64_t first_gid) {
    const auto holder = [&](std::uint64_t key) {
      const std::uint64_t pos = parent_of_key(key) - first_gid;
      return static_cast<unsigned>(pos * ranks_ / level_size_);
    };
    std::vector<Bytes> out(ranks_);
    for (const Pending& p : pending_) Writer(out[holder(p.key)]).put(p.key);
    const Received in = exchange(out, &bytes_sent_);
    std::vector<std::pair<std::uint64_t, std::size_t>> keys;  // key, position in `in`
    keys.reserve(in.data.size() / 8);
    for (std::size_t at = 0; at < in.data.size(); at += 8) {
      std::uint64_t k = 0;
      std::memcpy(&k, in.data.data() + at, 8);
      keys.emplace_back(k, at / 8);
    }
    std::sort(keys.begin(), keys.end());
    const std::uint64_t base = states_ + sum_before(keys.size());
    std::vector<std::uint64_t> gid_at(keys.size());
    for (std::size_t j = 0; j < keys.size(); ++j) gid_at[keys[j].second] = base + j;
    std::vector<Bytes> back(ranks_);
    for (unsigned r = 0; r < ranks_; ++r) {
      for (std::size_t at = in.offsets[r] / 8; at < in.offsets[r + 1] / 8; ++at) {
        Writer(back[r]).put(gid_at[at]);
      }
    }
    const Received gids = exchange(back, &bytes_sent_);
    std::vector<Reader> from;
    for (unsigned r = 0; r < ranks_; ++r) from.push_back(gids.from(r));
    for (Pending& p : pending_) {
      const unsigned h = holder(p.key);
      p.gid = from[h].get<std::uint64_t>();
    }
    peak_bytes_ = std::max(peak_bytes_, own_bytes());
    return sum(pending_.size());
  }

  // New worlds of this level with a key below `key`, over every rank.
  std::uint64_t fresh_below(std::uint64_t key) {
    std::uint64_t n = 0;
    for (const Pending& p : pending_) n += p.key < key ? 1 : 0;
    return sum(n);
  }

  // The level's first successor event: a failed step, a broken invariant,
  // or the first new world beyond max_states.
  Event first_event(std::uint64_t fresh) {
    for (auto& [at, v] : broken_) {
      const Pending& p = pending_[at];
      Violation copy = v;
      const std::uint64_t order = p.key * 2 + 1;
      if (order >= event_.order) continue;
      event_ = Event{order,
                     copy.kind,
                     copy.kind == ViolationKind::invariant,
                     Node{p.parent_rank, p.parent_local},
                     kind_of_key(p.key),
                     std::move(copy.invariant),
                     std::move(copy.detail)};
    }
    if (states_ + fresh > options_.max_states) {
      for (const Pending& p : pending_) {
        if (p.gid == options_.max_states && p.key * 2 < event_.order) {
          event_ = Event{
              p.key * 2, ViolationKind::none, false, Node{p.parent_rank, p.parent_local}, 0, {},
              {}};
        }
      }
    }
    return agree(event_, &bytes_sent_);
  }

  // The states stored when the search stops at successor event `e`.
  std::uint64_t states_at(const Event& e) {
    if (e.kind == ViolationKind::none) return options_.max_states;
    return states_ + fresh_below(e.order / 2) + (e.stored ? 1 : 0);
  }

  // Agrees on how the level ends, stores the new worlds before that, and
  // says whether the search goes on.
  bool settle(std::size_t level, std::uint64_t first_gid, std::uint64_t fresh) {
    if (const Event u = agree(usage_, &bytes_sent_); u.found()) {
      result_.error = u.detail;
      return false;
    }
    const Event e = first_event(fresh);
    const Event p = agree(problem_, &bytes_sent_);
    std::uint64_t stored = states_ + fresh;
    committing_depth_ = level + 1;
    if (p.found()) {
      // The in-process explorer merges a slice before it expands the next:
      // the slices before the problem's are stored.
      const std::uint64_t slice = first_gid + (p.order - first_gid) / kSlice * kSlice;
      const std::uint64_t cut = order_key(slice, 0) * 2;
      stored =
          e.found() && e.order < cut ? states_at(e) : states_ + fresh_below(order_key(slice, 0));
    } else if (e.found()) {
      stored = states_at(e);
    }
    commit(stored);
    if (p.found()) {
      result_.violation = Violation{p.kind, trace_to(p.at), {}, p.detail};
      result_.depth = level == 0 ? 0 : level - 1;
      return false;
    }
    if (e.found()) {
      result_.depth = level;
      if (e.kind != ViolationKind::none) {
        Trace t = trace_to(e.at);
        t.push_back(e.step);
        result_.violation = Violation{e.kind, std::move(t), e.invariant, e.detail};
      }
      return false;
    }
    if (level_size_ == 0) {
      result_.complete = true;
      result_.depth = level;
      return false;
    }
    result_.depth = level + 1;
    return true;
  }

  // Stores the pending worlds with an id below `stored`, in id order: parent
  // links, tuples and the next frontier.
  void commit(std::uint64_t stored) {
    std::vector<std::uint32_t> order;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      if (pending_[i].gid < stored) order.push_back(static_cast<std::uint32_t>(i));
    }
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return pending_[a].gid < pending_[b].gid; });
    Frontier<W> next(true);
    std::vector<std::uint64_t> next_gids;
    next_gids.reserve(order.size());
    for (std::uint32_t i : order) {
      const Pending& p = pending_[i];
      const auto local = static_cast<std::uint32_t>(links_.size());
      links_.add(p.parent_local, std::size_t{kind_of_key(p.key)} * ranks_ + p.parent_rank);
      next.push(local, fps_[i], &p.world);
      next_gids.push_back(p.gid);
      if (p.tuple != kNoTuple && p.gid < level_tuples_[p.tuple].gid) {
        level_tuples_[p.tuple].gid = p.gid;
        level_tuples_[p.tuple].local = local;
      }
      note_some(p.reached, p.gid, committing_depth_, local);
    }
    for (LevelTuple& t : level_tuples_) {
      if (t.gid == kNone) continue;
      if constexpr (TupleKeyed<S>) known_keys_.emplace(t.key, t.text);
      tuples_.emplace(std::move(t.text), TupleAt{t.gid, t.local});
    }
    peak_bytes_ = std::max(peak_bytes_, own_bytes() + next.memory_bytes());
    states_ = stored;
    level_size_ = sum(order.size());
    result_.states = static_cast<std::size_t>(states_);
    frontier_ = std::move(next);
    gids_ = std::move(next_gids);
    pending_.clear();
    fps_.clear();
    index_.clear();
    broken_.clear();
    level_tuples_.clear();
    level_keys_.clear();
    level_names_.clear();
    event_ = Event{};
    problem_ = Event{};
  }

  // Keeps `gid` (stored as `local`, at `depth`) as the least id satisfying
  // each property in `mask`, when it is below the one kept.
  void note_some(std::uint64_t mask, std::uint64_t gid, std::uint64_t depth, std::uint32_t local) {
    for (std::uint64_t rest = mask; rest != 0; rest &= rest - 1) {
      SomeAt& at = some_[static_cast<std::size_t>(std::countr_zero(rest))];
      if (gid < at.gid) at = SomeAt{gid, depth, local};
    }
  }

  // Each sometimes property's least stored id over every rank, its depth,
  // and (with sometimes_traces) its path: the in-process explorer's report.
  void gather_sometimes() {
    if (some_.empty()) return;
    Bytes mine;
    Writer w(mine);
    for (const SomeAt& at : some_) {
      w.put(at.gid);
      w.put(at.depth);
      w.put(at.local);
    }
    std::vector<std::pair<SomeAt, unsigned>> best(some_.size(), {SomeAt{}, 0U});
    const std::vector<Bytes> all = gather_all(mine);
    for (unsigned r = 0; r < ranks_; ++r) {
      Reader rd(all[r]);
      for (auto& [at, rank_of] : best) {
        SomeAt got;
        got.gid = rd.get<std::uint64_t>();
        got.depth = rd.get<std::uint64_t>();
        got.local = rd.get<std::uint32_t>();
        if (got.gid < at.gid) at = got, rank_of = r;
      }
    }
    std::vector<Node> q;
    for (std::size_t i = 0; i < best.size(); ++i) {
      const auto& [at, rank_of] = best[i];
      SometimesReport report{sometimes_.names()[i],
                             at.gid != kNone,
                             static_cast<std::size_t>(at.gid != kNone ? at.depth : 0),
                             {}};
      result_.sometimes.push_back(std::move(report));
      if (at.gid != kNone && options_.sometimes_traces) q.push_back(Node{rank_of, at.local});
    }
    if (q.empty()) return;
    std::vector<Trace> traces = paths(links_, q, root_, ranks_, &bytes_sent_);
    std::size_t next = 0;
    for (SometimesReport& report : result_.sometimes) {
      if (report.reached) report.trace = std::move(traces[next++]);
    }
  }

  Trace trace_to(const Node& n) { return paths(links_, {n}, root_, ranks_, &bytes_sent_).front(); }

  [[nodiscard]] std::size_t own_bytes() const noexcept {
    return visited_.memory_bytes() + links_.memory_bytes() + frontier_.memory_bytes() +
           gids_.capacity() * sizeof(std::uint64_t) +
           pending_.size() * (sizeof(Pending) + sizeof(Fingerprint)) + index_.memory_bytes();
  }

  // The tuples of every rank, the least id of each, and their paths.
  void gather_tuples() {
    Bytes mine;
    Writer w(mine);
    for (const auto& [text, at] : tuples_) {
      w.put_string(text);
      w.put(at.gid);
      w.put(at.local);
    }
    std::map<std::string, std::pair<std::uint64_t, Node>> best;
    const std::vector<Bytes> all = gather_all(mine);
    for (unsigned r = 0; r < ranks_; ++r) {
      Reader rd(all[r]);
      while (!rd.done()) {
        std::string text = rd.get_string();
        const auto gid = rd.get<std::uint64_t>();
        const auto local = rd.get<std::uint32_t>();
        auto [it, added] = best.try_emplace(std::move(text), gid, Node{r, local});
        if (!added && gid < it->second.first) it->second = {gid, Node{r, local}};
      }
    }
    std::vector<Node> q;
    for (auto& [text, at] : best) {
      result_.tuples.push_back(text);
      q.push_back(at.second);
    }
    result_.tuple_traces = paths(links_, q, root_, ranks_, &bytes_sent_);
  }

  MpiResult finish() {
    gather_tuples();
    gather_sometimes();
    MpiResult out;
    out.ranks = ranks_;
    result_.steps = sum(steps_);
    peak_bytes_ = std::max(peak_bytes_, own_bytes());
    result_.memory_bytes = static_cast<std::size_t>(sum(peak_bytes_));
    out.transitions = sum(transitions_);
    Bytes rss;
    Writer(rss).put(static_cast<std::uint64_t>(peak_rss_bytes()));
    for (const Bytes& b : gather_all(rss)) {
      out.peak_rss.push_back(static_cast<std::size_t>(Reader(b).get<std::uint64_t>()));
    }
    out.bytes_sent = sum(bytes_sent_);
    result_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    out.search = std::move(result_);
    log_.end(out);
    return out;
  }

  // Progress lines through the explorer's own log; the summary line is
  // MpiResult's, from rank 0 only.
  class MpiLog {
   public:
    explicit MpiLog(std::FILE* out) : out_(out), log_(out) {}
    void progress(const Progress& p) { log_.progress(p); }
    void end(const MpiResult& r) { print_summary(out_, r); }

   private:
    std::FILE* out_;
    Log log_;
  };

  static constexpr std::size_t kSlice = Frontier<W>::kBlock;

  S& sys_;
  const ExploreOptions& options_;
  SometimesList<S> sometimes_;
  WorldSteps<S> world_;                 // what happens to one world, shared with explore()
  std::vector<SomeAt> some_;            // by property
  std::uint64_t committing_depth_ = 0;  // the depth of the worlds commit() stores
  unsigned me_;
  unsigned ranks_;
  MpiLog log_{me_ == 0 && !options_.quiet ? (options_.log != nullptr ? options_.log : stderr)
                                          : nullptr};
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  ExploreResult result_;
  Node root_;
  std::uint64_t states_ = 0;         // stored, over every rank
  std::uint64_t level_size_ = 0;     // the current frontier, over every rank
  FingerprintTable visited_;         // this rank's shards only
  ParentLinks links_;                // by local id; kind * ranks + parent rank
  Frontier<W> frontier_{true};       // this rank's part, in id order
  std::vector<std::uint64_t> gids_;  // the global id of each frontier world
  FingerprintShard local_;           // successors this slice has sent
  std::deque<Pending> pending_;
  std::deque<Fingerprint> fps_;  // pending_[i]'s fingerprint
  PendingIndex index_{fps_};
  std::unordered_map<std::uint32_t, Violation> broken_;  // pending worlds that broke a rule
  std::vector<LevelTuple> level_tuples_;
  std::unordered_map<std::uint64_t, std::uint32_t> level_keys_;  // tuple_key() systems
  std::unordered_map<std::string, std::uint32_t> level_names_;   // the others
  TupleKeys known_keys_;
  std::unordered_map<std::string, TupleAt> tuples_;
  Event event_;    // this rank's first successor event of the level
  Event problem_;  // this rank's first frontier problem of the level
  Event usage_;    // this rank's first broken adapter contract (by frontier id)
  std::uint64_t steps_ = 0;
  std::uint64_t transitions_ = 0;
  std::uint64_t bytes_sent_ = 0;
  std::size_t peak_bytes_ = 0;
};

}  // namespace merilo::explore::detail::mpi

namespace merilo::explore {

template <System S>
MpiResult explore_mpi(S& sys, const ExploreOptions& options) {
  detail::check_system<S>();
  MpiResult refused;
  std::string& error = refused.search.error;
  if (!detail::mpi::initialized()) {
    error =
        "merilo: explore_mpi needs MPI initialized (make a merilo::explore::MpiSession in main)";
    return refused;
  }
  refused.ranks = detail::mpi::ranks();
  if (core::inside_merilo()) {
    error = core::kReentryError;
    return refused;
  }
  core::EntryGuard guard;
  if constexpr (!Restorable<S>) {
    error =
        "merilo: explore_mpi needs a Restorable system (restore(world)): worlds travel "
        "between ranks as bytes";
    return refused;
  } else {
    error = detail::check_options(options, true, true);
    if (error.empty()) {
      error = detail::mpi::check_mpi_options(options, std::is_trivially_copyable_v<world_t<S>>);
    }
    if (!error.empty()) return refused;
    try {
      error = detail::check_kinds(static_cast<std::size_t>(sys.kinds()));
      if (!error.empty()) return refused;
      if constexpr (std::is_trivially_copyable_v<world_t<S>>) {
        detail::mpi::MpiSearch<S> search(sys, options);
        if (!search.error().empty()) {
          error = search.error();
          return refused;
        }
        return search.run();
      }
    } catch (const std::exception& e) {
      detail::mpi::abort_job(std::string("internal error during the search: ") + e.what());
    } catch (...) {
      detail::mpi::abort_job("internal error during the search");
    }
    return refused;
  }
}

template <System S>
int mpi_main(S& sys, const ExploreOptions& options) {
  const MpiResult r = explore_mpi(sys, options);
  const bool first = !detail::mpi::initialized() || detail::mpi::rank() == 0;
  if (first && !r.search.error.empty()) std::fprintf(stderr, "%s\n", r.search.error.c_str());
  if (first && r.search.violation.found()) {
    std::fprintf(stderr, "merilo: %s\n", r.search.violation.summary().c_str());
    std::fputs(format(sys, r.search.violation.trace).c_str(), stderr);
  }
  if (!r.search.error.empty()) return 2;
  return r.search.ok() ? 0 : 1;
}

}  // namespace merilo::explore

#endif  // MERILO_EXPLORE_DETAIL_MPI_SEARCH_INL_HPP
