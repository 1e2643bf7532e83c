// merilo/sync/detail/memory_model.hpp — the C++ memory model (RC11), stated
// once: an execution graph built one event at a time, which answers the one
// question a controlled scheduler cannot answer by itself — which stores may
// this atomic load read?
//
// A controller that runs one thread at a time feeds `MemoryModel` every
// operation in the order it runs them: thread start and join, the creation
// of an atomic location with its initial value, stores, loads,
// read-modify-writes, compare-exchanges, fences and mutex lock/unlock. The
// model keeps happens-before (vector clocks over at most kMaxModelThreads
// threads, release sequences as RC11 defines them), each location's
// modification order, and the seq_cst order, and offers every choice that
// keeps the execution consistent with RC11 ("Repairing sequential
// consistency in C/C++11", Lahav et al., PLDI 2017):
//
//   - a load (or the read half of a read-modify-write or a compare-exchange)
//     is prepared, the model lists the stores it may read, and the
//     controller commits one of them;
//   - a store is prepared, the model lists the places in modification order
//     it may take, and the controller commits one of them.
//
// Choice 0 is always allowed and is the sequentially consistent one: a load
// reads the newest store in modification order, a store goes last in it.
// A run that takes choice 0 everywhere is an interleaving of a sequentially
// consistent execution; a weak behaviour is a deviation a bounded search can
// count. Loads read only stores that have already run, so (since RC11
// forbids cycles in program order plus reads-from) every RC11-consistent
// execution is reached by some interleaving and some choices, and no
// out-of-thin-air value is ever produced. The seq_cst order is checked by
// a search of RC11's psc graph while an execution has fewer than
// kExactPscEvents seq_cst events, and by a cheaper rule that can miss (never
// invent) outcomes beyond. docs/design/memory-model.md says what is
// modelled, what is not, and why.
//
//   MemoryModel m;
//   m.reset();                                    // thread 0 runs
//   const LocationId x = m.new_location(0);
//   m.spawn(0, 1);
//   (void)m.prepare_store(1, x, MemOrder::relaxed);
//   m.commit_store(0, 42);                        // x = 42, last in mo
//   auto stores = m.prepare_load(0, x, MemOrder::relaxed);  // {42, 0}
//   const std::uint64_t v = m.commit_load(1);     // reads the initial 0
//
// Values are the bits of a trivially copyable T of up to 8 bytes, widened
// to std::uint64_t; the model only copies them and compares them for
// equality (a compare-exchange), so a larger T is held as an id that is
// equal exactly when the bytes are (an interned copy kept by its atomic).
//
// NOTE: not thread-safe; the controller calls it from the thread that has
// the turn, under its own lock. Calls allocate only while a run is bigger
// than every run before it since construction: `reset()` keeps capacity.
// Misuse (an unknown thread or location, a commit without its prepare, a
// choice out of range) throws std::invalid_argument naming the problem.
#ifndef MERILO_SYNC_DETAIL_MEMORY_MODEL_HPP
#define MERILO_SYNC_DETAIL_MEMORY_MODEL_HPP

#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint8_t, std::uint32_t, std::uint64_t
#include <span>     // the candidate lists and event lists handed out
#include <string>   // format_execution
#include <vector>   // events, stores, modification orders

#include <merilo/sync/detail/footprint.hpp>  // kMaxThreads, ThreadSet
#include <merilo/sync/detail/mem_order.hpp>  // MemOrder, CasResult

namespace merilo::sync::detail {

/// Threads a model execution can have (thread ids 0..kMaxModelThreads-1):
/// the controlled scheduler's limit.
inline constexpr std::size_t kMaxModelThreads = kMaxThreads;
/// The pseudo-thread of locations created before every thread
/// (`new_location(initial)`): their initial store happens before everything.
inline constexpr std::uint8_t kInitThread = 0xff;
/// seq_cst events (accesses and fences) up to which an execution's seq_cst
/// order is checked exactly, by a search of RC11's psc graph; beyond it a
/// cheaper rule that can miss outcomes, never allow a forbidden one, takes
/// over (docs/design/memory-model.md).
inline constexpr std::size_t kExactPscEvents = 64;

/// A thread of the execution, 0..kMaxModelThreads-1 (or kInitThread).
using ThreadId = std::uint8_t;
/// An atomic location, numbered from 0 in order of creation.
using LocationId = std::uint32_t;
/// A mutex (or any lock object), numbered from 0 in order of creation.
using LockId = std::uint32_t;

/// "relaxed", "acquire", ... (for reports).
[[nodiscard]] const char* order_name(MemOrder order) noexcept;

/// Why `order` is not a valid order for a load (`load`), a store (`store`)
/// or a compare-exchange's failure (`failure`), or nullptr when it is. The
/// model itself treats an invalid order as the nearest valid one (a store
/// with acquire as relaxed, with acq_rel as release; a load with release as
/// relaxed, with acq_rel as acquire); a caller that wants to refuse it asks
/// here first.
[[nodiscard]] const char* order_misuse(MemOrder order, bool load, bool store) noexcept;

/// One event of one thread: `thread` and its 0-based position in that
/// thread's events.
struct EventRef {
  ThreadId thread = kInitThread;  ///< The thread (kInitThread: before all threads).
  std::uint32_t index = 0;        ///< Position in the thread's events.
  /// Same thread and index.
  friend bool operator==(const EventRef&, const EventRef&) = default;
};

/// What an event did.
enum class EventKind : std::uint8_t {
  init,         ///< A location's initial value.
  store,        ///< An atomic store.
  load,         ///< An atomic load.
  rmw,          ///< A read-modify-write (exchange, fetch_add, ...).
  cas_success,  ///< A compare-exchange that found the expected value and wrote.
  cas_failure,  ///< A compare-exchange that found another value (a load).
  fence,        ///< std::atomic_thread_fence.
};

/// "store", "load", ... (for reports).
[[nodiscard]] const char* kind_name(EventKind kind) noexcept;

/// A vector clock: entry t is the number of thread t's events that happen
/// before (or are) the point it describes.
///
/// It holds room for kMaxModelThreads entries but keeps only as many as
/// the highest thread it has seen (`size()`); entries beyond are 0. Copies
/// and joins touch only those, so a run of two threads pays for two
/// entries, not for the limit.
class VectorClock {
 public:
  VectorClock() noexcept = default;
  /// Copies the entries `other` holds.
  VectorClock(const VectorClock& other) noexcept : n_(other.n_) {
    for (std::uint32_t t = 0; t < n_; ++t) at_[t] = other.at_[t];
  }
  /// Copies the entries `other` holds.
  VectorClock& operator=(const VectorClock& other) noexcept {
    n_ = other.n_;
    for (std::uint32_t t = 0; t < n_; ++t) at_[t] = other.at_[t];
    return *this;
  }
  ~VectorClock() = default;

  /// Entry `t` (0 for a thread the clock has not seen).
  [[nodiscard]] std::uint32_t operator[](std::size_t t) const noexcept {
    return t < n_ ? at_[t] : 0U;
  }
  /// Sets entry `t` (< kMaxModelThreads) to `v`.
  void set(std::size_t t, std::uint32_t v) noexcept {
    widen(t + 1);
    at_[t] = v;
  }
  /// Entries held: every entry from here on is 0.
  [[nodiscard]] std::size_t size() const noexcept { return n_; }
  /// Entry-wise maximum with `other`.
  void join(const VectorClock& other) noexcept {
    widen(other.n_);
    for (std::uint32_t t = 0; t < other.n_; ++t) {
      if (other.at_[t] > at_[t]) at_[t] = other.at_[t];
    }
  }

 private:
  void widen(std::size_t n) noexcept {
    while (n_ < n) at_[n_++] = 0;
  }
  std::uint32_t n_ = 0;
  std::uint32_t at_[kMaxModelThreads];  // [0, n_) in use; the rest never read
};

/// One event, as a report shows it, plus the model's bookkeeping.
struct Event {
  EventKind kind = EventKind::init;  ///< What it did.
  MemOrder order =
      MemOrder::relaxed;    ///< Its order (a failed compare-exchange: the failure order).
  LocationId location = 0;  ///< The location (not for fences).
  std::uint64_t read = 0;   ///< The value read (load, rmw, compare-exchange).
  std::uint64_t written =
      0;                  ///< The value written (init, store, rmw, successful compare-exchange).
  EventRef read_from{};   ///< The store whose value was read (reads only).
  std::uint32_t seq = 0;  ///< Position in the order the events ran, from 1.
  // Bookkeeping (the model's, not a report's):
  std::uint32_t store = 0;       ///< Index of its store record + 1 when it writes, else 0.
  std::uint32_t read_store = 0;  ///< Index of the store record read + 1 when it reads, else 0.
  /// seq of the latest seq_cst fence of its thread up to it, or 0.
  std::uint32_t sc_fence_upto = 0;
  std::uint32_t node = 0;  ///< Index + 1 among the seq_cst events (accesses and fences), or 0.
  VectorClock clock{};     ///< What happens before it, itself included.
};

/// A store a prepared load may read.
struct Candidate {
  EventRef store{};                    ///< The store.
  std::uint64_t value = 0;             ///< Its value.
  MemOrder order = MemOrder::relaxed;  ///< Its order (relaxed for an initial value).
  bool writes =
      false;  ///< A compare-exchange: reading it succeeds (the value is the expected one).
};

/// The execution graph of one run under RC11 (see the top of this file).
class MemoryModel {
 public:
  MemoryModel();

  /// Starts a new execution: thread 0 running with nothing before it, no
  /// other thread, no location, no lock. Keeps every buffer's capacity.
  void reset() noexcept;

  // --- threads and locks --------------------------------------------------

  /// Thread `parent` starts thread `child` (not started before in this
  /// execution): everything before the spawn happens before the child.
  void spawn(ThreadId parent, ThreadId child);
  /// Thread `joiner` joins thread `child`: everything `child` did happens
  /// before what `joiner` does next.
  void join(ThreadId joiner, ThreadId child);
  /// A new lock object (a mutex).
  [[nodiscard]] LockId new_lock();
  /// `t` locks `lock`: it synchronises with every earlier unlock.
  void lock(ThreadId t, LockId lock);
  /// `t` unlocks `lock` (releases it to the next lock).
  void unlock(ThreadId t, LockId lock);
  /// `t` takes `lock` shared: it synchronises with every earlier exclusive unlock.
  void lock_shared(ThreadId t, LockId lock);
  /// `t` releases its shared hold of `lock` (to the next exclusive lock).
  void unlock_shared(ThreadId t, LockId lock);

  // --- locations ------------------------------------------------------------

  /// A location whose initial store happens before every event.
  [[nodiscard]] LocationId new_location(std::uint64_t initial);
  /// A location created by thread `creator` (its initial store is an event
  /// of `creator`, seen by others through happens-before, as a
  /// constructor's write is).
  [[nodiscard]] LocationId new_location(ThreadId creator, std::uint64_t initial);
  /// Locations created.
  [[nodiscard]] std::size_t locations() const noexcept { return location_count_; }
  /// Offers only choice 0 from now on (kept across `reset`): every load
  /// reads the newest store and every store goes last, so an execution is
  /// a sequentially consistent interleaving whose reads-from edges are
  /// still recorded (`sync::model` with `ModelOptions::memory_model` off).
  void set_newest_only(bool on) noexcept { newest_only_ = on; }
  /// Whether only choice 0 is offered.
  [[nodiscard]] bool newest_only() const noexcept { return newest_only_; }

  // --- operations: prepare, then commit -----------------------------------

  /// Prepares a store by `t` to `x`; returns how many places in `x`'s
  /// modification order it may take (at least 1). Place 0 is last (the
  /// sequentially consistent one); place k is before the k newest stores
  /// it may precede.
  [[nodiscard]] std::size_t prepare_store(ThreadId t, LocationId x, MemOrder order);
  /// Commits the prepared store at place `choice`, writing `value`.
  EventRef commit_store(std::size_t choice, std::uint64_t value);
  /// A store at place 0 (prepare and commit).
  EventRef store(ThreadId t, LocationId x, std::uint64_t value, MemOrder order);

  /// Prepares a load by `t` of `x`; returns the stores it may read, newest
  /// in modification order first (index 0 is the sequentially consistent
  /// choice). Never empty. Valid until the next call of the model.
  [[nodiscard]] std::span<const Candidate> prepare_load(ThreadId t, LocationId x, MemOrder order);
  /// Commits the prepared load reading candidate `choice`; returns the value.
  std::uint64_t commit_load(std::size_t choice);

  /// Prepares a read-modify-write by `t` on `x`: the stores it may read
  /// (a store another read-modify-write already read is not one: atomicity).
  [[nodiscard]] std::span<const Candidate> prepare_rmw(ThreadId t, LocationId x, MemOrder order);
  /// Commits the prepared read-modify-write: it reads candidate `choice`
  /// and writes `written` (computed by the caller from the candidate's
  /// value) immediately after it in modification order. Returns the value read.
  std::uint64_t commit_rmw(std::size_t choice, std::uint64_t written);

  /// Prepares a compare-exchange by `t` on `x` expecting `expected`:
  /// the stores it may read, each marked with whether reading it succeeds
  /// (then it is a read-modify-write with order `success`) or fails (then
  /// it is a load with order `failure`).
  [[nodiscard]] std::span<const Candidate> prepare_cas(ThreadId t, LocationId x,
                                                       std::uint64_t expected, MemOrder success,
                                                       MemOrder failure);
  /// Commits the prepared compare-exchange reading candidate `choice`;
  /// writes `desired` when it succeeds.
  CasResult commit_cas(std::size_t choice, std::uint64_t desired);

  /// std::atomic_thread_fence(order) by `t` (relaxed: nothing).
  void fence(ThreadId t, MemOrder order);

  // --- the execution, for reports ----------------------------------------

  /// Thread `t`'s events in program order (kInitThread: the initial stores
  /// of locations made by `new_location(initial)`).
  [[nodiscard]] std::span<const Event> events(ThreadId t) const;
  /// One event.
  [[nodiscard]] const Event& event(EventRef e) const;
  /// `x`'s stores in modification order (allocates: for reports).
  [[nodiscard]] std::vector<EventRef> modification_order(LocationId x) const;
  /// The value of the newest store to `x` in modification order.
  [[nodiscard]] std::uint64_t latest(LocationId x) const;
  /// Threads started in this execution.
  [[nodiscard]] ThreadSet started() const noexcept { return started_; }
  /// One more than the highest thread started in this execution.
  [[nodiscard]] std::size_t thread_count() const noexcept { return thread_count_; }

 private:
  static constexpr std::uint32_t kNever = 0xffffffffU;

  struct Thread {
    VectorClock clock;          // what happens before its next event
    VectorClock fence_release;  // clock at its last release fence
    VectorClock pending;        // released clocks its relaxed reads saw (for an acquire fence)
    std::uint32_t last_sc_fence = 0;
    std::uint32_t fence_marked = 0;  // its events known to precede some seq_cst fence
    std::vector<Event> events;
  };
  struct Store {
    EventRef event;
    std::uint64_t value = 0;
    MemOrder order = MemOrder::relaxed;
    bool sc = false;        // a seq_cst write
    bool rmw_read = false;  // a read-modify-write reads it (and so follows it in mo)
    std::uint32_t seq = 0;
    std::uint32_t fence_after = kNever;          // first seq_cst fence it happens before
    std::uint32_t readers_fence_after = kNever;  // same, for any load reading it
    VectorClock release;                         // what an acquire reading it gets
    VectorClock first_reader;                    // per thread: index+1 of its first read, 0 none
  };
  struct Location {
    std::vector<std::uint32_t> mo;  // store indices, in modification order
    // Clock at each thread's last release store (a thread beyond the end
    // made none).
    std::vector<VectorClock> own_release;
  };
  struct Lock {
    VectorClock exclusive;  // released by exclusive unlocks
    VectorClock all;        // released by every unlock
  };
  enum class Pending : std::uint8_t { none, store, load, rmw, cas };
  /// An event about to be added, as the seq_cst search sees it.
  struct Probe {
    ThreadId thread = 0;
    LocationId location = 0;
    bool sc = false;                // a seq_cst access
    bool writes = false;            // it writes (goes at mo index `first_after`)
    std::uint32_t first_after = 0;  // mo index of the first store it reads or goes before
    VectorClock before;             // what happens before it (its own entry included)
    VectorClock after;              // the same, with what its read acquires
  };

  Thread& thread(ThreadId t);
  Location& location(LocationId x);
  Lock& lock_object(LockId l);
  std::uint32_t floor_of(const Location& loc, const VectorClock& clock) const noexcept;
  std::uint32_t sc_fence_before(ThreadId t) const noexcept;
  bool visible(const Store& s, const VectorClock& clock) const noexcept;
  std::span<const Candidate> prepare_read(Pending kind, ThreadId t, LocationId x,
                                          std::uint64_t expected, MemOrder order, MemOrder failure);
  Event& append(ThreadId t, EventKind kind, MemOrder order, LocationId x);
  std::uint32_t add_store(Event& e, ThreadId t, LocationId x, std::uint64_t value, MemOrder order,
                          std::uint32_t position, const VectorClock* rs);
  void read(Event& e, ThreadId t, std::uint32_t store, MemOrder order);
  void mark_fence(ThreadId t, std::uint32_t seq);
  void seal(Event& e, ThreadId t);
  [[nodiscard]] bool closes_psc_cycle(const Probe& probe);
  /// Whether a choice with psc edges out of the new event (`edges`), all
  /// pointing forwards in run order or not (`forward`), is refused; sets
  /// `backward` when it is accepted with an edge pointing backwards.
  [[nodiscard]] bool refuse_psc(bool edges, bool forward, const Probe& probe, bool& backward);
  [[nodiscard]] Probe probe(ThreadId t, LocationId x, bool sc, bool writes,
                            std::uint32_t first_after, const VectorClock* acquired) const;
  void expect_pending(Pending kind, std::size_t choice, std::size_t count) const;

  std::vector<Thread> threads_;  // kMaxModelThreads of them; [0, thread_count_) used this run
  std::vector<Event> init_events_;
  std::vector<Store> stores_;
  std::vector<Location> locations_;  // [0, location_count_) in use; the rest keep capacity
  std::size_t location_count_ = 0;
  std::vector<Lock> locks_;
  ThreadSet started_{};
  std::size_t thread_count_ = 0;  // one more than the highest started
  std::uint32_t seq_ = 0;
  bool newest_only_ = false;
  // The prepared operation.
  Pending pending_ = Pending::none;
  ThreadId pending_thread_ = 0;
  LocationId pending_location_ = 0;
  MemOrder pending_order_ = MemOrder::relaxed;
  MemOrder pending_failure_ = MemOrder::relaxed;
  std::vector<Candidate> candidates_;
  std::vector<std::uint32_t> candidate_stores_;   // store index per candidate
  std::vector<std::uint32_t> places_;             // mo insertion index per store place
  std::vector<EventRef> sc_nodes_;                // seq_cst accesses and fences, in run order
  bool psc_backward_ = false;                     // a psc edge points against the run order
  std::vector<std::uint8_t> candidate_backward_;  // per candidate: committing it sets psc_backward_
  std::vector<std::uint8_t> place_backward_;      // the same per store place
  std::vector<std::uint8_t> visited_;             // the seq_cst search's scratch
  std::vector<std::uint32_t> queue_;
};

/// One line per event of each thread, with the store each read read
/// (reads-from) and each location's modification order; locations are
/// named `names[x]` where given, else "x<id>".
/// One event as `format_execution` shows it ("load  x -> 0 (relaxed)
/// reads-from init ...").
[[nodiscard]] std::string describe_event(const MemoryModel& model, EventRef event,
                                         std::span<const std::string> names = {});

[[nodiscard]] std::string format_execution(const MemoryModel& model,
                                           std::span<const std::string> names = {});

}  // namespace merilo::sync::detail

#endif  // MERILO_SYNC_DETAIL_MEMORY_MODEL_HPP
