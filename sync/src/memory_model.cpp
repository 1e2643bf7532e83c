// memory_model.cpp — happens-before, coherence, atomicity and the seq_cst
// order of one execution, built one event at a time
// (detail/memory_model.hpp; docs/design/memory-model.md has the argument).
#include <merilo/sync/detail/memory_model.hpp>

#include <algorithm>  // std::min, std::max, std::find
#include <stdexcept>  // std::invalid_argument: misuse of the model

#include <fmt/core.h>

namespace merilo::sync::detail {

namespace {

constexpr bool acquires(MemOrder o) noexcept {
  return o == MemOrder::consume || o == MemOrder::acquire || o == MemOrder::acq_rel ||
         o == MemOrder::seq_cst;
}

constexpr bool releases(MemOrder o) noexcept {
  return o == MemOrder::release || o == MemOrder::acq_rel || o == MemOrder::seq_cst;
}

/// The order a load runs with (see order_misuse).
constexpr MemOrder load_order(MemOrder o) noexcept {
  if (o == MemOrder::release) return MemOrder::relaxed;
  if (o == MemOrder::acq_rel) return MemOrder::acquire;
  return o;
}

/// The order a store runs with (see order_misuse).
constexpr MemOrder store_order(MemOrder o) noexcept {
  if (o == MemOrder::acquire || o == MemOrder::consume) return MemOrder::relaxed;
  if (o == MemOrder::acq_rel) return MemOrder::release;
  return o;
}

[[noreturn]] void misuse(const std::string& what) {
  throw std::invalid_argument("merilo::sync memory model: " + what);
}

}  // namespace

const char* order_name(MemOrder order) noexcept {
  switch (order) {
    case MemOrder::relaxed:
      return "relaxed";
    case MemOrder::consume:
      return "consume";
    case MemOrder::acquire:
      return "acquire";
    case MemOrder::release:
      return "release";
    case MemOrder::acq_rel:
      return "acq_rel";
    case MemOrder::seq_cst:
      return "seq_cst";
  }
  return "?";
}

const char* order_misuse(MemOrder order, bool load, bool store) noexcept {
  if (load && store) return nullptr;  // a read-modify-write takes every order
  if (load && (order == MemOrder::release || order == MemOrder::acq_rel)) {
    return "a load (or a compare-exchange's failure) cannot be release or acq_rel";
  }
  if (store &&
      (order == MemOrder::acquire || order == MemOrder::consume || order == MemOrder::acq_rel)) {
    return "a store cannot be acquire, consume or acq_rel";
  }
  return nullptr;
}

const char* kind_name(EventKind kind) noexcept {
  switch (kind) {
    case EventKind::init:
      return "init";
    case EventKind::store:
      return "store";
    case EventKind::load:
      return "load";
    case EventKind::rmw:
      return "rmw";
    case EventKind::cas_success:
      return "cas";
    case EventKind::cas_failure:
      return "cas-fail";
    case EventKind::fence:
      return "fence";
  }
  return "?";
}

MemoryModel::MemoryModel() : threads_(kMaxModelThreads) {
  thread_count_ = kMaxModelThreads;
  reset();
}

void MemoryModel::reset() noexcept {
  // Only the threads of the last execution have anything to forget (a
  // thread is reset again when it is spawned).
  for (std::size_t t = 0; t < thread_count_; ++t) {
    Thread& th = threads_[t];
    th.clock = {};
    th.fence_release = {};
    th.pending = {};
    th.last_sc_fence = 0;
    th.fence_marked = 0;
    th.events.clear();
  }
  init_events_.clear();
  stores_.clear();
  for (std::size_t x = 0; x < location_count_; ++x) {
    locations_[x].mo.clear();
    locations_[x].own_release.clear();
  }
  location_count_ = 0;
  locks_.clear();
  started_ = ThreadSet::of(0);
  thread_count_ = 1;
  seq_ = 0;
  pending_ = Pending::none;
  sc_nodes_.clear();
  psc_backward_ = false;
}

// --- lookups -----------------------------------------------------------------

MemoryModel::Thread& MemoryModel::thread(ThreadId t) {
  if (!started_.contains(t)) {
    misuse(fmt::format("thread {} is not running in this execution ({} threads started)", t,
                       started_.count()));
  }
  return threads_[t];
}

MemoryModel::Location& MemoryModel::location(LocationId x) {
  if (x >= location_count_) {
    misuse(fmt::format("location {} does not exist ({} created)", x, location_count_));
  }
  return locations_[x];
}

MemoryModel::Lock& MemoryModel::lock_object(LockId l) {
  if (l >= locks_.size())
    misuse(fmt::format("lock {} does not exist ({} created)", l, locks_.size()));
  return locks_[l];
}

std::span<const Event> MemoryModel::events(ThreadId t) const {
  if (t == kInitThread) return init_events_;
  if (t >= kMaxModelThreads) misuse(fmt::format("thread {} is out of range", t));
  if (!started_.contains(t)) return {};
  return threads_[t].events;
}

const Event& MemoryModel::event(EventRef e) const {
  const std::span<const Event> list = events(e.thread);
  if (e.index >= list.size()) {
    misuse(fmt::format("thread {} has no event {}", e.thread, e.index));
  }
  return list[e.index];
}

std::vector<EventRef> MemoryModel::modification_order(LocationId x) const {
  if (x >= location_count_) misuse(fmt::format("location {} does not exist", x));
  std::vector<EventRef> out;
  for (std::uint32_t s : locations_[x].mo) out.push_back(stores_[s].event);
  return out;
}

std::uint64_t MemoryModel::latest(LocationId x) const {
  if (x >= location_count_) misuse(fmt::format("location {} does not exist", x));
  return stores_[locations_[x].mo.back()].value;
}

// --- threads and locks ---------------------------------------------------------

void MemoryModel::spawn(ThreadId parent, ThreadId child) {
  pending_ = Pending::none;
  const VectorClock clock = thread(parent).clock;
  if (child >= kMaxModelThreads) {
    misuse(fmt::format("thread {} is beyond the model's {} threads", child, kMaxModelThreads));
  }
  if (started_.contains(child)) misuse(fmt::format("thread {} was already started", child));
  started_.insert(child);
  if (child >= thread_count_) thread_count_ = std::size_t{child} + 1;
  Thread& th = threads_[child];
  th.clock = clock;  // its own entry is 0: it had no event
  th.fence_release = {};
  th.pending = {};
  th.last_sc_fence = 0;
  th.fence_marked = 0;
  th.events.clear();
}

void MemoryModel::join(ThreadId joiner, ThreadId child) {
  pending_ = Pending::none;
  const VectorClock clock = thread(child).clock;
  thread(joiner).clock.join(clock);
}

LockId MemoryModel::new_lock() {
  pending_ = Pending::none;
  locks_.emplace_back();
  return static_cast<LockId>(locks_.size() - 1);
}

void MemoryModel::lock(ThreadId t, LockId l) {
  pending_ = Pending::none;
  const VectorClock clock = lock_object(l).all;
  thread(t).clock.join(clock);
}

void MemoryModel::unlock(ThreadId t, LockId l) {
  pending_ = Pending::none;
  const VectorClock clock = thread(t).clock;
  Lock& lk = lock_object(l);
  lk.exclusive.join(clock);
  lk.all.join(clock);
}

void MemoryModel::lock_shared(ThreadId t, LockId l) {
  pending_ = Pending::none;
  const VectorClock clock = lock_object(l).exclusive;
  thread(t).clock.join(clock);
}

void MemoryModel::unlock_shared(ThreadId t, LockId l) {
  pending_ = Pending::none;
  const VectorClock clock = thread(t).clock;
  lock_object(l).all.join(clock);
}

// --- events ------------------------------------------------------------------

Event& MemoryModel::append(ThreadId t, EventKind kind, MemOrder order, LocationId x) {
  Thread& th = threads_[t];
  th.clock.set(t, static_cast<std::uint32_t>(th.events.size() + 1));
  Event e;
  e.kind = kind;
  e.order = order;
  e.location = x;
  e.seq = ++seq_;
  e.sc_fence_upto = th.last_sc_fence;
  th.events.push_back(e);
  return th.events.back();
}

std::uint32_t MemoryModel::add_store(Event& e, ThreadId t, LocationId x, std::uint64_t value,
                                     MemOrder order, std::uint32_t position,
                                     const VectorClock* rs) {
  Location& loc = locations_[x];
  Store s;
  s.event =
      EventRef{t, static_cast<std::uint32_t>(t == kInitThread ? init_events_.size() - 1
                                                              : threads_[t].events.size() - 1)};
  s.value = value;
  s.order = order;
  s.sc = order == MemOrder::seq_cst;
  s.seq = e.seq;
  if (t != kInitThread && e.kind != EventKind::init) {
    // What an acquire reading this store synchronises with: the thread's
    // last release fence (fence; po; rs), its own release stores to this
    // location before it (RC11's po|loc step of a release sequence), this
    // store if it releases, and, for a read-modify-write, the release
    // sequences of the store it read ((rf; rmw)*).
    const Thread& th = threads_[t];
    s.release = th.fence_release;
    if (releases(order)) {
      if (loc.own_release.size() <= t) loc.own_release.resize(std::size_t{t} + 1);
      loc.own_release[t] = th.clock;
    }
    if (t < loc.own_release.size()) s.release.join(loc.own_release[t]);
    if (rs != nullptr) s.release.join(*rs);
  }
  const auto index = static_cast<std::uint32_t>(stores_.size());
  stores_.push_back(s);
  loc.mo.insert(loc.mo.begin() + position, index);
  e.written = value;
  e.store = index + 1;
  return index;
}

void MemoryModel::read(Event& e, ThreadId t, std::uint32_t store, MemOrder order) {
  Store& s = stores_[store];
  Thread& th = threads_[t];
  e.read = s.value;
  e.read_from = s.event;
  e.read_store = store + 1;
  if (s.first_reader[t] == 0) s.first_reader.set(t, static_cast<std::uint32_t>(th.events.size()));
  if (acquires(order)) {
    th.clock.join(s.release);
  } else {
    th.pending.join(s.release);  // for a later acquire fence
  }
}

LocationId MemoryModel::new_location(std::uint64_t initial) {
  pending_ = Pending::none;
  const auto x = static_cast<LocationId>(location_count_);
  if (location_count_ == locations_.size()) locations_.emplace_back();
  ++location_count_;
  Event e;
  e.kind = EventKind::init;
  e.location = x;
  e.seq = ++seq_;
  init_events_.push_back(e);
  (void)add_store(init_events_.back(), kInitThread, x, initial, MemOrder::relaxed, 0, nullptr);
  return x;
}

LocationId MemoryModel::new_location(ThreadId creator, std::uint64_t initial) {
  pending_ = Pending::none;
  (void)thread(creator);
  const auto x = static_cast<LocationId>(location_count_);
  if (location_count_ == locations_.size()) locations_.emplace_back();
  ++location_count_;
  Event& e = append(creator, EventKind::init, MemOrder::relaxed, x);
  (void)add_store(e, creator, x, initial, MemOrder::relaxed, 0, nullptr);
  seal(e, creator);
  return x;
}

// --- coherence and the seq_cst order ---------------------------------------------

bool MemoryModel::visible(const Store& s, const VectorClock& clock) const noexcept {
  // The store happens before the point, or some load that read it does
  // (then the point may not read anything older: CoWR, CoRR; a store there
  // may not go before it: CoWW, CoRW).
  if (s.event.thread == kInitThread || clock[s.event.thread] > s.event.index) return true;
  for (std::size_t u = 0; u < s.first_reader.size(); ++u) {
    if (s.first_reader[u] != 0 && clock[u] >= s.first_reader[u]) return true;
  }
  return false;
}

std::uint32_t MemoryModel::floor_of(const Location& loc, const VectorClock& clock) const noexcept {
  for (std::size_t k = loc.mo.size(); k-- > 0;) {
    if (visible(stores_[loc.mo[k]], clock)) return static_cast<std::uint32_t>(k);
  }
  return 0;
}

std::uint32_t MemoryModel::sc_fence_before(ThreadId t) const noexcept {
  // The newest seq_cst fence that happens before the calling thread's next
  // event: per thread, the latest one up to the clock's entry.
  const Thread& th = threads_[t];
  std::uint32_t latest = th.last_sc_fence;
  for (std::size_t u = 0; u < th.clock.size(); ++u) {
    const std::uint32_t n = th.clock[u];
    if (u != t && n > 0) latest = std::max(latest, threads_[u].events[n - 1].sc_fence_upto);
  }
  return latest;
}

// Both prepares walk the location's modification order from the newest
// store back. `base` and `fences` are the smallest seq_cst ranks (an
// event's `seq`) that RC11's psc would order after the new event if it
// read (or went before) every store passed so far: `base` through
// psc_base (a seq_cst store, or a seq_cst fence the store happens before),
// `fences` through psc_F (a seq_cst fence the store, or a load reading
// it, happens before). The seq_cst order is the order events run in, so
// an edge from the new event (rank `now` if it is seq_cst) or from a
// seq_cst fence before it (rank `fence`) to a smaller rank would run
// backwards: that choice, and every older one, is refused
// (docs/design/memory-model.md).
namespace {
struct PscBounds {
  std::uint32_t base = 0xffffffffU;
  std::uint32_t fences = 0xffffffffU;
  /// Whether a new event with seq_cst rank `self` (0: not seq_cst) and a
  /// seq_cst fence of rank `fence` before it (0: none) would have psc
  /// edges to the stores passed so far: then the search decides.
  [[nodiscard]] bool new_edges(bool sc, std::uint32_t fence) const noexcept {
    return (sc && base != 0xffffffffU) || (fence != 0 && std::min(base, fences) != 0xffffffffU);
  }
  /// Whether all those edges point forwards in run order, for a new event
  /// of rank `self` (its own when seq_cst, else `fence`'s).
  [[nodiscard]] bool forward(std::uint32_t self, std::uint32_t fence) const noexcept {
    return self < base && fence < fences;
  }
};
}  // namespace

std::size_t MemoryModel::prepare_store(ThreadId t, LocationId x, MemOrder order) {
  pending_ = Pending::none;
  const Thread& th = thread(t);
  const Location& loc = location(x);
  order = store_order(order);
  places_.clear();
  place_backward_.clear();
  const std::uint32_t floor = floor_of(loc, th.clock);
  const std::uint32_t fence = sc_fence_before(t);
  const bool sc = order == MemOrder::seq_cst;
  auto p = static_cast<std::uint32_t>(loc.mo.size());
  places_.push_back(p);  // last: no psc edge out of it
  place_backward_.push_back(0);
  PscBounds bounds;
  while (!newest_only_ && p > floor + 1) {
    const Store& passed = stores_[loc.mo[p - 1]];
    bounds.base = std::min({bounds.base, passed.sc ? passed.seq : kNever, passed.fence_after});
    bounds.fences = std::min({bounds.fences, passed.fence_after, passed.readers_fence_after});
    --p;
    // Between a store and the read-modify-write that read it: atomicity.
    if (stores_[loc.mo[p - 1]].rmw_read) continue;
    bool backward = false;
    if (refuse_psc(bounds.new_edges(sc, fence), bounds.forward(sc ? seq_ + 1 : fence, fence),
                   probe(t, x, sc, true, p, nullptr), backward)) {
      continue;
    }
    places_.push_back(p);
    place_backward_.push_back(backward ? 1 : 0);
  }
  pending_ = Pending::store;
  pending_thread_ = t;
  pending_location_ = x;
  pending_order_ = order;
  return places_.size();
}

std::span<const Candidate> MemoryModel::prepare_read(Pending kind, ThreadId t, LocationId x,
                                                     std::uint64_t expected, MemOrder order,
                                                     MemOrder failure) {
  pending_ = Pending::none;
  const Thread& th = thread(t);
  const Location& loc = location(x);
  candidates_.clear();
  candidate_stores_.clear();
  candidate_backward_.clear();
  const std::uint32_t floor = floor_of(loc, th.clock);
  const std::uint32_t fence = sc_fence_before(t);
  PscBounds bounds;
  for (std::size_t k = loc.mo.size(); k-- > floor;) {
    const std::uint32_t index = loc.mo[k];
    const Store& s = stores_[index];
    bool writes = kind == Pending::rmw;
    if (kind == Pending::cas) writes = s.value == expected;  // else a failure: a load
    // A store another read-modify-write read is followed by it: atomicity.
    bool take = !(writes && s.rmw_read);
    bool backward = false;
    if (take) {
      const MemOrder o = kind == Pending::cas && !writes ? failure : order;
      const bool sc = o == MemOrder::seq_cst;
      take = !refuse_psc(bounds.new_edges(sc, fence), bounds.forward(sc ? seq_ + 1 : fence, fence),
                         probe(t, x, sc, writes, static_cast<std::uint32_t>(k + 1),
                               acquires(o) ? &s.release : nullptr),
                         backward);
    }
    if (take) {
      candidates_.push_back(Candidate{s.event, s.value, s.order, writes});
      candidate_stores_.push_back(index);
      candidate_backward_.push_back(backward ? 1 : 0);
      if (newest_only_) break;
    }
    bounds.base = std::min({bounds.base, s.sc ? s.seq : kNever, s.fence_after});
    bounds.fences = std::min({bounds.fences, s.fence_after, s.readers_fence_after});
  }
  pending_ = kind;
  pending_thread_ = t;
  pending_location_ = x;
  pending_order_ = order;
  pending_failure_ = failure;
  return candidates_;
}

bool MemoryModel::refuse_psc(bool edges, bool forward, const Probe& probe, bool& backward) {
  backward = false;
  if (!edges) return false;  // only edges into the new event: no cycle
  // While every psc edge so far points forwards in run order, new edges
  // that do too close no cycle.
  if (forward && !psc_backward_) return false;
  // Otherwise search, while the graph is small; beyond, refuse (a missed
  // outcome at worst, never a forbidden one).
  if (sc_nodes_.size() >= kExactPscEvents) return true;
  if (closes_psc_cycle(probe)) return true;
  backward = !forward;
  return false;
}

MemoryModel::Probe MemoryModel::probe(ThreadId t, LocationId x, bool sc, bool writes,
                                      std::uint32_t first_after,
                                      const VectorClock* acquired) const {
  const Thread& th = threads_[t];
  Probe p;
  p.thread = t;
  p.location = x;
  p.sc = sc;
  p.writes = writes;
  p.first_after = first_after;
  p.before = th.clock;
  p.before.set(t, static_cast<std::uint32_t>(th.events.size() + 1));
  p.after = p.before;
  if (acquired != nullptr) p.after.join(*acquired);
  return p;
}

// The seq_cst search. The graph: the seq_cst events run so far, plus the
// new one (node `fresh`) when it is a seq_cst access. Its edges are RC11's
// psc, except that every happens-before pair of seq_cst events is taken as
// an edge (RC11 drops a few; taking them is sound and can only refuse
// more). psc's other edges come from a modification-order or from-read
// step x -> y at one location: from x (when seq_cst) and the seq_cst
// fences before x, to y (when seq_cst) and the seq_cst fences after y;
// between fences also to those after a load that read y (psc_F's eco;
// reads-from alone counts there too). The graph without the new event's
// edges has no cycle, and every new edge either enters the new event
// (harmless alone) or leaves it, or a seq_cst fence before it, towards
// the stores after its read or place: a cycle exists exactly when one of
// those targets reaches back.
bool MemoryModel::closes_psc_cycle(const Probe& pr) {
  const auto n = static_cast<std::uint32_t>(sc_nodes_.size());
  const std::uint32_t fresh = n;
  const Location& here = locations_[pr.location];
  const auto hb = [](EventRef a, const VectorClock& c) {
    return a.thread == kInitThread || c[a.thread] > a.index;
  };
  const auto node = [&](std::uint32_t i) -> const Event& { return event(sc_nodes_[i]); };
  const auto is_fence = [&](std::uint32_t i) { return node(i).kind == EventKind::fence; };
  const auto mo_index = [](const Location& l, std::uint32_t store) {
    return static_cast<std::size_t>(std::find(l.mo.begin(), l.mo.end(), store) - l.mo.begin());
  };
  const auto read_by_one_before = [&](std::uint32_t store, const VectorClock& clock) {
    for (std::size_t u = 0; u < thread_count_; ++u) {
      if (!started_.contains(static_cast<unsigned>(u))) continue;
      const std::vector<Event>& list = threads_[u].events;
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (list[i].read_store == store + 1 &&
            hb(EventRef{static_cast<ThreadId>(u), static_cast<std::uint32_t>(i)}, clock)) {
          return true;
        }
      }
    }
    return false;
  };
  // The psc successors of a step to each store of `l` from mo index `from`.
  const auto targets = [&](const Location& l, std::size_t from, bool fences_too, auto&& push) {
    for (std::size_t k = from; k < l.mo.size(); ++k) {
      const std::uint32_t si = l.mo[k];
      const Store& y = stores_[si];
      if (y.event.thread != kInitThread && event(y.event).node != 0) push(event(y.event).node - 1);
      for (std::uint32_t j = 0; j < n; ++j) {
        if (!is_fence(j)) continue;
        if (hb(y.event, node(j).clock) || (fences_too && read_by_one_before(si, node(j).clock))) {
          push(j);
        }
      }
    }
  };
  // Steps out of access `x`: to the stores after its own, and after the
  // store it read; from a fence also reads-from alone (psc_F).
  const auto access_steps = [&](const Event& x, bool fences_too, auto&& push) {
    const Location& l = locations_[x.location];
    if (x.store != 0) {
      targets(l, mo_index(l, x.store - 1) + 1, fences_too, push);
      if (fences_too) {
        for (std::uint32_t j = 0; j < n; ++j) {
          if (is_fence(j) && read_by_one_before(x.store - 1, node(j).clock)) push(j);
        }
      }
    }
    if (x.read_store != 0) targets(l, mo_index(l, x.read_store - 1) + 1, fences_too, push);
  };
  // Whether old node i has an edge into the new event.
  const auto enters = [&](std::uint32_t i) {
    if (!pr.sc) return false;
    const EventRef ur = sc_nodes_[i];
    if (hb(ur, pr.after)) return true;
    if (!pr.writes) return false;
    const Event& u = node(i);
    const auto before_fresh = [&](std::uint32_t store) {
      return mo_index(here, store) < pr.first_after;
    };
    if (u.kind != EventKind::fence) {
      return u.location == pr.location && ((u.store != 0 && before_fresh(u.store - 1)) ||
                                           (u.read_store != 0 && before_fresh(u.read_store - 1)));
    }
    for (std::size_t k = 0; k < pr.first_after; ++k) {
      const std::uint32_t si = here.mo[k];
      if (stores_[si].event.thread != kInitThread && hb(ur, event(stores_[si].event).clock)) {
        return true;
      }
      for (std::size_t u2 = 0; u2 < thread_count_; ++u2) {
        if (!started_.contains(static_cast<unsigned>(u2))) continue;
        for (const Event& r : threads_[u2].events) {
          if (r.read_store == si + 1 && hb(ur, r.clock)) return true;
        }
      }
    }
    return false;
  };
  const auto before_fresh_fence = [&](std::uint32_t i) {
    return is_fence(i) && hb(sc_nodes_[i], pr.before);
  };
  const auto expand = [&](std::uint32_t i, auto&& push) {
    if (i == fresh) {
      targets(here, pr.first_after, false, push);
      return;
    }
    const EventRef ur = sc_nodes_[i];
    const Event& u = node(i);
    for (std::uint32_t j = 0; j < n; ++j) {
      if (j != i && hb(ur, node(j).clock)) push(j);
    }
    if (enters(i)) push(fresh);
    if (u.kind != EventKind::fence) {
      access_steps(u, false, push);
      return;
    }
    // (Its edges towards the new event's targets, when it happens before
    // the new event, lead only to the search's starting nodes.)
    for (std::size_t t = 0; t < thread_count_; ++t) {
      if (!started_.contains(static_cast<unsigned>(t))) continue;
      const std::vector<Event>& list = threads_[t].events;
      for (std::size_t k = 0; k < list.size(); ++k) {
        const EventRef xr{static_cast<ThreadId>(t), static_cast<std::uint32_t>(k)};
        if (list[k].kind != EventKind::fence && !(xr == ur) && hb(ur, list[k].clock)) {
          access_steps(list[k], true, push);
        }
      }
    }
  };
  const auto search = [&](bool fences_too, auto&& goal) {
    visited_.assign(n + 1, 0);
    queue_.clear();
    const auto push = [&](std::uint32_t j) {
      if (visited_[j] == 0) {
        visited_[j] = 1;
        queue_.push_back(j);
      }
    };
    targets(here, pr.first_after, fences_too, push);
    for (std::size_t h = 0; h < queue_.size(); ++h) {
      const std::uint32_t i = queue_[h];
      if (goal(i)) return true;
      expand(i, push);
    }
    return false;
  };
  if (pr.sc && search(false, [&](std::uint32_t i) { return i == fresh; })) return true;
  bool fence_before = false;
  for (std::uint32_t j = 0; j < n; ++j) fence_before = fence_before || before_fresh_fence(j);
  return fence_before &&
         search(true, [&](std::uint32_t i) { return i != fresh && before_fresh_fence(i); });
}

std::span<const Candidate> MemoryModel::prepare_load(ThreadId t, LocationId x, MemOrder order) {
  order = load_order(order);
  return prepare_read(Pending::load, t, x, 0, order, order);
}

std::span<const Candidate> MemoryModel::prepare_rmw(ThreadId t, LocationId x, MemOrder order) {
  return prepare_read(Pending::rmw, t, x, 0, order, order);
}

std::span<const Candidate> MemoryModel::prepare_cas(ThreadId t, LocationId x,
                                                    std::uint64_t expected, MemOrder success,
                                                    MemOrder failure) {
  return prepare_read(Pending::cas, t, x, expected, success, load_order(failure));
}

void MemoryModel::expect_pending(Pending kind, std::size_t choice, std::size_t count) const {
  static constexpr const char* kNames[] = {"nothing", "a store", "a load", "a read-modify-write",
                                           "a compare-exchange"};
  if (pending_ != kind) {
    misuse(fmt::format("committing {} but {} was prepared (commit right after its prepare)",
                       kNames[static_cast<int>(kind)], kNames[static_cast<int>(pending_)]));
  }
  if (choice >= count) {
    misuse(fmt::format("choice {} is out of range: {} were offered", choice, count));
  }
}

EventRef MemoryModel::commit_store(std::size_t choice, std::uint64_t value) {
  expect_pending(Pending::store, choice, places_.size());
  pending_ = Pending::none;
  if (place_backward_[choice] != 0) psc_backward_ = true;
  const ThreadId t = pending_thread_;
  Event& e = append(t, EventKind::store, pending_order_, pending_location_);
  (void)add_store(e, t, pending_location_, value, pending_order_, places_[choice], nullptr);
  seal(e, t);
  return EventRef{t, static_cast<std::uint32_t>(threads_[t].events.size() - 1)};
}

EventRef MemoryModel::store(ThreadId t, LocationId x, std::uint64_t value, MemOrder order) {
  (void)prepare_store(t, x, order);
  return commit_store(0, value);
}

std::uint64_t MemoryModel::commit_load(std::size_t choice) {
  expect_pending(Pending::load, choice, candidates_.size());
  pending_ = Pending::none;
  if (candidate_backward_[choice] != 0) psc_backward_ = true;
  Event& e = append(pending_thread_, EventKind::load, pending_order_, pending_location_);
  read(e, pending_thread_, candidate_stores_[choice], pending_order_);
  seal(e, pending_thread_);
  return e.read;
}

std::uint64_t MemoryModel::commit_rmw(std::size_t choice, std::uint64_t written) {
  expect_pending(Pending::rmw, choice, candidates_.size());
  pending_ = Pending::none;
  if (candidate_backward_[choice] != 0) psc_backward_ = true;
  const ThreadId t = pending_thread_;
  const std::uint32_t source = candidate_stores_[choice];
  Event& e = append(t, EventKind::rmw, pending_order_, pending_location_);
  read(e, t, source, pending_order_);
  const std::vector<std::uint32_t>& mo = locations_[pending_location_].mo;
  const auto position =
      static_cast<std::uint32_t>(std::find(mo.begin(), mo.end(), source) - mo.begin() + 1);
  stores_[source].rmw_read = true;
  const VectorClock rs = stores_[source].release;  // add_store may move stores_
  (void)add_store(e, t, pending_location_, written, pending_order_, position, &rs);
  seal(e, t);
  return e.read;
}

CasResult MemoryModel::commit_cas(std::size_t choice, std::uint64_t desired) {
  expect_pending(Pending::cas, choice, candidates_.size());
  pending_ = Pending::none;
  if (candidate_backward_[choice] != 0) psc_backward_ = true;
  const ThreadId t = pending_thread_;
  const std::uint32_t source = candidate_stores_[choice];
  if (!candidates_[choice].writes) {
    Event& e = append(t, EventKind::cas_failure, pending_failure_, pending_location_);
    read(e, t, source, pending_failure_);
    seal(e, t);
    return CasResult{false, e.read};
  }
  Event& e = append(t, EventKind::cas_success, pending_order_, pending_location_);
  read(e, t, source, pending_order_);
  const std::vector<std::uint32_t>& mo = locations_[pending_location_].mo;
  const auto position =
      static_cast<std::uint32_t>(std::find(mo.begin(), mo.end(), source) - mo.begin() + 1);
  stores_[source].rmw_read = true;
  const VectorClock rs = stores_[source].release;
  (void)add_store(e, t, pending_location_, desired, pending_order_, position, &rs);
  seal(e, t);
  return CasResult{true, e.read};
}

void MemoryModel::fence(ThreadId t, MemOrder order) {
  pending_ = Pending::none;
  Thread& th = thread(t);
  if (order == MemOrder::relaxed) return;  // no effect
  Event& e = append(t, EventKind::fence, order, 0);
  if (acquires(order)) th.clock.join(th.pending);
  if (releases(order)) th.fence_release = th.clock;
  if (order == MemOrder::seq_cst) {
    th.last_sc_fence = e.seq;
    e.sc_fence_upto = e.seq;
    mark_fence(t, e.seq);
  }
  seal(e, t);
}

void MemoryModel::seal(Event& e, ThreadId t) {
  e.clock = threads_[t].clock;
  if (e.order == MemOrder::seq_cst && e.kind != EventKind::init) {
    sc_nodes_.push_back(EventRef{t, static_cast<std::uint32_t>(threads_[t].events.size() - 1)});
    e.node = static_cast<std::uint32_t>(sc_nodes_.size());
  }
}

void MemoryModel::mark_fence(ThreadId t, std::uint32_t seq) {
  // Every event that happens before this fence and before no earlier
  // seq_cst fence now has one after it: record it on the stores it wrote
  // and read. Per thread such events are a prefix, so each event is
  // visited once per execution.
  const VectorClock& clock = threads_[t].clock;
  for (std::size_t u = 0; u < clock.size(); ++u) {
    Thread& other = threads_[u];
    for (std::uint32_t i = other.fence_marked; i < clock[u]; ++i) {
      const Event& ev = other.events[i];
      if (ev.store != 0) {
        std::uint32_t& after = stores_[ev.store - 1].fence_after;
        after = std::min(after, seq);
      }
      if (ev.read_store != 0) {
        std::uint32_t& after = stores_[ev.read_store - 1].readers_fence_after;
        after = std::min(after, seq);
      }
    }
    other.fence_marked = std::max(other.fence_marked, clock[u]);
  }
}

}  // namespace merilo::sync::detail
