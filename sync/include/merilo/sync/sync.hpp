// merilo/sync/sync.hpp — drop-in std synchronisation types that let merilo
// own the schedule: `parallel::check`'s branches and `sync::model`'s
// threads run one at a time, switching only at these types' operations.
//
// `merilo::sync` has `atomic<T>`, `atomic_flag`, `atomic_thread_fence`,
// `mutex`, `recursive_mutex`, `shared_mutex`, `condition_variable`,
// `thread` and `this_thread::yield`, with the members of their std
// namesakes. Outside a controlled run each operation is the std one,
// after one relaxed load of a process-wide count and a branch. Inside a
// controlled run (the branches of `parallel::check` with the default
// scheduler, and `sync::model`) each operation is first a scheduling
// point: the threads run one at a time, and the scheduler decides who goes
// next at every point, so
// a race a few instructions wide is found by search instead of by luck, and
// a failing schedule replays exactly.
//
// Switch a component to them with a namespace alias, so production builds
// keep the std types:
//
//   #ifdef MYLIB_UNDER_MERILO
//   namespace mylib_sync = merilo::sync;
//   #else
//   namespace mylib_sync = std;
//   #endif
//
//   class Counter {
//     mylib_sync::atomic<int> n_{0};
//     mylib_sync::mutex mu_;
//    public:
//     int increment() { int seen = n_.load(); n_.store(seen + 1); return seen + 1; }  // a race
//   };
//
// (or a template parameter; docs/parallel.md shows both).
//
// NOTE: do not name the alias `sync` at namespace scope:
// `namespace sync = merilo::sync;` in the global namespace collides with
// POSIX's `::sync()` (declared by <unistd.h>, which most standard headers
// pull in on Linux). Use another name (`mylib_sync`, `msync`), or put the
// alias inside a function or a namespace of your own.
//
// NOTE: under `sync::model` (model.hpp) atomics follow the C++ memory
// model: a load may read any store RC11 allows, so relaxed and
// acquire/release mistakes are found. `parallel::check`'s controlled runs
// stay sequentially consistent: memory orders are accepted and passed to
// std, but their reorderings are not explored there. Either way, code
// between two points runs atomically, so a data race on a plain variable
// is invisible; ThreadSanitizer on the free-running stress mode is the
// check for those.
//
// NOTE: when a controlled run ends in a deadlock or a livelock, every
// branch in `mutex::lock`, `lock_shared`, a `condition_variable` wait or
// `this_thread::yield` leaves it by throwing `sync::Cancelled`, so its
// locks unwind and the thread returns; a branch spinning on an atomic
// without a yield is parked for good and abandoned with its system.
// Do not swallow it (a `catch (...)` should rethrow), and do not block on a
// merilo::sync type inside a `noexcept` function on a path that can
// deadlock. A timed wait times out, under control, when no thread can run
// or every thread that can only waits for another (it yielded, and has only
// loaded since).
//
// NOTE: under control only the branches' threads are scheduled. A
// merilo::sync operation of another thread (one started in `run()`) on an
// object the branches use, or a branch blocked in a std::mutex held by a
// branch switched out at a point, ends the check with a usage error naming
// it; sync::mutex misuse (an unlock by a non-owner, a second unlock, a
// condition wait without the lock, a held mutex destroyed) is a verdict of
// its own (docs/parallel.md).
#ifndef MERILO_SYNC_SYNC_HPP
#define MERILO_SYNC_SYNC_HPP

#include <atomic>              // the std types underneath
#include <chrono>              // timed waits
#include <condition_variable>  // condition_variable
#include <cstddef>             // std::size_t
#include <cstdint>             // values as bits
#include <cstring>             // atomic::wait compares value representations
#include <exception>           // std::uncaught_exceptions
#include <memory>              // thread's shared state
#include <mutex>               // mutex, recursive_mutex, std::unique_lock
#include <shared_mutex>        // shared_mutex
#include <system_error>        // thread::join of a thread that is not joinable
#include <thread>              // std::this_thread::yield
#include <tuple>               // thread's arguments
#include <type_traits>         // member constraints

#include <merilo/sync/detail/controller.hpp>  // the hook every operation reads
#include <merilo/sync/detail/pool.hpp>        // sync::thread's OS threads under sync::model

namespace merilo::sync {

/// Thrown out of a blocking operation of a branch when its controlled run
/// ended in a deadlock; `parallel::check` catches it. Not a std::exception,
/// so `catch (const std::exception&)` does not swallow it.
struct Cancelled {};

namespace detail {
/// T's values go through the memory model (bits of a trivially copyable T
/// of up to 8 bytes); other atomics stay sequentially consistent.
template <class T>
inline constexpr bool kModelled =
    std::is_trivially_copyable_v<T>&& std::is_default_constructible_v<T> && sizeof(T) <= 8;

/// The bits of `v`, widened to 64 (unused bytes zero).
template <class T>
[[nodiscard]] std::uint64_t to_bits(const T& v) noexcept {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
/// The T whose bits `to_bits` gave.
template <class T>
[[nodiscard]] T from_bits(std::uint64_t b) noexcept {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}
/// std::memory_order as the memory model names it.
[[nodiscard]] constexpr MemOrder mem_order(std::memory_order o) noexcept {
  switch (o) {
    case std::memory_order_relaxed:
      return MemOrder::relaxed;
    case std::memory_order_consume:
      return MemOrder::consume;
    case std::memory_order_acquire:
      return MemOrder::acquire;
    case std::memory_order_release:
      return MemOrder::release;
    case std::memory_order_acq_rel:
      return MemOrder::acq_rel;
    case std::memory_order_seq_cst:
      return MemOrder::seq_cst;
  }
  return MemOrder::seq_cst;
}
/// The failure order std derives from a compare-exchange's one order.
[[nodiscard]] constexpr std::memory_order failure_order(std::memory_order o) noexcept {
  if (o == std::memory_order_acq_rel) return std::memory_order_acquire;
  if (o == std::memory_order_release) return std::memory_order_relaxed;
  return o;
}
/// x + d as std::atomic's fetch_add computes it (integers wrap around).
template <class T, class D>
[[nodiscard]] T add(T x, D d) noexcept {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(x) + static_cast<U>(d)));
  } else {
    return x + d;
  }
}
/// x - d, likewise.
template <class T, class D>
[[nodiscard]] T sub(T x, D d) noexcept {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(x) - static_cast<U>(d)));
  } else {
    return x - d;
  }
}

/// A scheduling point before `op` on `object`, when a controlled run is active.
inline void visit(SyncOp op, const void* object) noexcept {
  if (Controller* c = controller_for(op, object)) [[unlikely]] {
    c->point(op, object);
  }
}

/// Locks `m` (a std mutex type) under control: a point, then try_lock
/// until it succeeds, blocking while another thread holds it.
template <class TryLock, class Lock>
void controlled_acquire(Controller& c, const void* self, SyncOp op, TryLock try_lock, Lock lock) {
  c.acquire_point(op, self);
  while (!try_lock()) {
    if (!c.block(op, self)) {  // control dropped: the plain operation
      lock();
      return;
    }
  }
  c.holds(self);
}

/// Unlocks a std mutex type under control with `unlock`: a point, then the
/// unlock, unless the caller does not hold it (misuse, named by the
/// controller: the unlock is skipped). `is_unlocked` tells a mutex no
/// thread holds apart from one locked before the run (by trying it).
template <class IsUnlocked, class Unlock>
void controlled_release(Controller& c, const void* self, SyncOp op, IsUnlocked is_unlocked,
                        Unlock unlock) {
  c.point(op, self);
  switch (c.releases(op, self)) {
    case Release::held:
      break;
    case Release::misuse:
      return;
    case Release::unknown:
      if (is_unlocked()) {  // a second unlock
        c.unlocked_twice(op, self);
        return;
      }
      break;
  }
  unlock();
  c.wake(self, true);
}
}  // namespace detail

/// std::atomic<T> whose every operation is a scheduling point under control.
template <class T>
class atomic {
 public:
  using value_type = T;  ///< The value held.
  /// std::atomic<T>::is_always_lock_free.
  static constexpr bool is_always_lock_free = std::atomic<T>::is_always_lock_free;

  constexpr atomic() noexcept(std::is_nothrow_default_constructible_v<T>) : a_() {}
  /// Starts at `desired` (not a scheduling point).
  constexpr atomic(T desired) noexcept : a_(desired) {}  // NOLINT(google-explicit-constructor)
  atomic(const atomic&) = delete;
  atomic& operator=(const atomic&) = delete;
  atomic& operator=(const atomic&) volatile = delete;

  /// std::atomic::is_lock_free.
  [[nodiscard]] bool is_lock_free() const noexcept { return a_.is_lock_free(); }

  /// std::atomic::load. Under `sync::model` it may read any store the
  /// C++ memory model allows it to.
  T load(std::memory_order order = std::memory_order_seq_cst) const noexcept {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::load, this)) [[unlikely]] {
      c->point(detail::SyncOp::load, this, order == std::memory_order_seq_cst);
      if constexpr (detail::kModelled<T>) {
        if (c->models_memory()) {
          return detail::from_bits<T>(c->model_load(this, detail::mem_order(order), bits_now()));
        }
      }
    }
    return a_.load(order);
  }
  /// std::atomic::store.
  void store(T desired, std::memory_order order = std::memory_order_seq_cst) noexcept {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::store, this)) [[unlikely]] {
      c->point(detail::SyncOp::store, this, order == std::memory_order_seq_cst);
      if constexpr (detail::kModelled<T>) {
        if (c->models_memory()) {
          keep(
              c->model_store(this, detail::mem_order(order), detail::to_bits(desired), bits_now()));
          return;
        }
      }
    }
    a_.store(desired, order);
  }
  /// load().
  operator T() const noexcept { return load(); }  // NOLINT(google-explicit-constructor)
  /// store(desired); returns desired.
  T operator=(T desired) noexcept {
    store(desired);
    return desired;
  }
  /// std::atomic::exchange.
  T exchange(T desired, std::memory_order order = std::memory_order_seq_cst) noexcept {
    return rmw(
        order, bits_of(desired), [](std::uint64_t, std::uint64_t d) noexcept { return d; },
        [&] { return a_.exchange(desired, order); });
  }
  /// std::atomic::compare_exchange_weak (never fails spuriously under control).
  bool compare_exchange_weak(T& expected, T desired, std::memory_order success,
                             std::memory_order failure) noexcept {
    return cas(expected, desired, success, failure,
               [&] { return a_.compare_exchange_weak(expected, desired, success, failure); });
  }
  /// See the four-argument overload.
  bool compare_exchange_weak(T& expected, T desired,
                             std::memory_order order = std::memory_order_seq_cst) noexcept {
    return compare_exchange_weak(expected, desired, order, detail::failure_order(order));
  }
  /// std::atomic::compare_exchange_strong.
  bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                               std::memory_order failure) noexcept {
    return cas(expected, desired, success, failure,
               [&] { return a_.compare_exchange_strong(expected, desired, success, failure); });
  }
  /// See the four-argument overload.
  bool compare_exchange_strong(T& expected, T desired,
                               std::memory_order order = std::memory_order_seq_cst) noexcept {
    return compare_exchange_strong(expected, desired, order, detail::failure_order(order));
  }

  /// std::atomic::fetch_add (integral, floating-point and pointer T).
  template <class D = T>
  requires requires(std::atomic<D>& a, typename std::atomic<D>::difference_type d) {
    a.fetch_add(d);
  }
  T fetch_add(typename std::atomic<D>::difference_type arg,
              std::memory_order order = std::memory_order_seq_cst) noexcept {
    using Diff = typename std::atomic<D>::difference_type;
    return rmw(
        order, bits_of(arg),
        [](std::uint64_t r, std::uint64_t a) noexcept {
          return bits_of(detail::add(detail::from_bits<T>(r), detail::from_bits<Diff>(a)));
        },
        [&] { return a_.fetch_add(arg, order); });
  }
  /// std::atomic::fetch_sub.
  template <class D = T>
  requires requires(std::atomic<D>& a, typename std::atomic<D>::difference_type d) {
    a.fetch_sub(d);
  }
  T fetch_sub(typename std::atomic<D>::difference_type arg,
              std::memory_order order = std::memory_order_seq_cst) noexcept {
    using Diff = typename std::atomic<D>::difference_type;
    return rmw(
        order, bits_of(arg),
        [](std::uint64_t r, std::uint64_t a) noexcept {
          return bits_of(detail::sub(detail::from_bits<T>(r), detail::from_bits<Diff>(a)));
        },
        [&] { return a_.fetch_sub(arg, order); });
  }
  /// std::atomic::fetch_and (integral T).
  template <class D = T>
  requires std::is_integral_v<D> T fetch_and(T arg,
                                             std::memory_order order = std::memory_order_seq_cst)
  noexcept {
    return rmw(
        order, bits_of(arg), [](std::uint64_t r, std::uint64_t a) noexcept { return r & a; },
        [&] { return a_.fetch_and(arg, order); });
  }
  /// std::atomic::fetch_or (integral T).
  template <class D = T>
  requires std::is_integral_v<D> T fetch_or(T arg,
                                            std::memory_order order = std::memory_order_seq_cst)
  noexcept {
    return rmw(
        order, bits_of(arg), [](std::uint64_t r, std::uint64_t a) noexcept { return r | a; },
        [&] { return a_.fetch_or(arg, order); });
  }
  /// std::atomic::fetch_xor (integral T).
  template <class D = T>
  requires std::is_integral_v<D> T fetch_xor(T arg,
                                             std::memory_order order = std::memory_order_seq_cst)
  noexcept {
    return rmw(
        order, bits_of(arg), [](std::uint64_t r, std::uint64_t a) noexcept { return r ^ a; },
        [&] { return a_.fetch_xor(arg, order); });
  }

  /// ++a, a++, --a, a-- and the compound assignments, as std::atomic has them.
  template <class D = T>
  requires(std::is_integral_v<D> || std::is_pointer_v<D>) T operator++() noexcept {
    return fetch_add(1) + 1;
  }
  /// See operator++().
  template <class D = T>
  requires(std::is_integral_v<D> || std::is_pointer_v<D>) T operator++(int) noexcept {
    return fetch_add(1);
  }
  /// See operator++().
  template <class D = T>
  requires(std::is_integral_v<D> || std::is_pointer_v<D>) T operator--() noexcept {
    return fetch_sub(1) - 1;
  }
  /// See operator++().
  template <class D = T>
  requires(std::is_integral_v<D> || std::is_pointer_v<D>) T operator--(int) noexcept {
    return fetch_sub(1);
  }
  /// See operator++().
  template <class D = T>
  requires requires(std::atomic<D>& a, typename std::atomic<D>::difference_type d) {
    a.fetch_add(d);
  }
  T operator+=(typename std::atomic<D>::difference_type arg) noexcept {
    return fetch_add(arg) + arg;
  }
  /// See operator++().
  template <class D = T>
  requires requires(std::atomic<D>& a, typename std::atomic<D>::difference_type d) {
    a.fetch_sub(d);
  }
  T operator-=(typename std::atomic<D>::difference_type arg) noexcept {
    return fetch_sub(arg) - arg;
  }
  /// See operator++().
  template <class D = T>
  requires std::is_integral_v<D> T operator&=(T arg) noexcept { return fetch_and(arg) & arg; }
  /// See operator++().
  template <class D = T>
  requires std::is_integral_v<D> T operator|=(T arg) noexcept { return fetch_or(arg) | arg; }
  /// See operator++().
  template <class D = T>
  requires std::is_integral_v<D> T operator^=(T arg) noexcept { return fetch_xor(arg) ^ arg; }

  /// std::atomic::wait: returns once the value differs from `old`. Under
  /// control the thread blocks until a notify.
  void wait(T old, std::memory_order order = std::memory_order_seq_cst) const noexcept {
    detail::Controller* c = detail::controller_for(detail::SyncOp::atomic_wait, this);
    if (c == nullptr) {
      a_.wait(old, order);
      return;
    }
    for (;;) {
      c->point(detail::SyncOp::atomic_wait, this);
      T now = a_.load(order);
      if constexpr (detail::kModelled<T>) {
        if (c->models_memory()) {
          now = detail::from_bits<T>(c->model_load(this, detail::mem_order(order), bits_now()));
        }
      }
      if (std::memcmp(&now, &old, sizeof(T)) != 0) return;
      bool controlled = false;
      try {
        controlled = c->block(detail::SyncOp::atomic_wait, this);
      } catch (const Cancelled&) {
        // A deadlock, and this wait is noexcept: park for good, as a point
        // does, instead of waiting in std for a notify that never comes.
        c->park_if_cancelled();
      }
      if (!controlled) {
        a_.wait(old, order);
        return;
      }
    }
  }
  /// std::atomic::notify_one.
  void notify_one() noexcept {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::atomic_notify, this)) {
      c->point(detail::SyncOp::atomic_notify, this);
      c->wake(this, false);
    }
    a_.notify_one();
  }
  /// std::atomic::notify_all.
  void notify_all() noexcept {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::atomic_notify, this)) {
      c->point(detail::SyncOp::atomic_notify, this);
      c->wake(this, true);
    }
    a_.notify_all();
  }

 private:
  /// The bits of `v` (0 for a T the model does not hold).
  template <class V>
  static std::uint64_t bits_of(const V& v) noexcept {
    if constexpr (detail::kModelled<V>) {
      return detail::to_bits(v);
    } else {
      return 0;
    }
  }
  /// The value held now, as bits (the location's value when a run first
  /// uses it).
  std::uint64_t bits_now() const noexcept { return bits_of(a_.load(std::memory_order_relaxed)); }
  /// Keeps the value newest in modification order in the std atomic, so
  /// code outside the run reads it.
  void keep(std::uint64_t latest) noexcept {
    if constexpr (detail::kModelled<T>)
      a_.store(detail::from_bits<T>(latest), std::memory_order_relaxed);
  }
  /// A read-modify-write: through the model under `sync::model`, else `plain`.
  template <class Plain>
  T rmw(std::memory_order order, std::uint64_t arg, detail::Controller::Modify modify,
        Plain plain) noexcept {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::rmw, this)) [[unlikely]] {
      c->point(detail::SyncOp::rmw, this, order == std::memory_order_seq_cst);
      if constexpr (detail::kModelled<T>) {
        if (c->models_memory()) {
          std::uint64_t latest = 0;
          const std::uint64_t read =
              c->model_rmw(this, detail::mem_order(order), bits_now(), modify, arg, latest);
          keep(latest);
          return detail::from_bits<T>(read);
        }
      }
    }
    return plain();
  }
  /// A compare-exchange: through the model under `sync::model`, else `plain`.
  template <class Plain>
  bool cas(T& expected, T desired, std::memory_order success, std::memory_order failure,
           Plain plain) noexcept {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::cas, this)) [[unlikely]] {
      c->point(detail::SyncOp::cas, this,
               success == std::memory_order_seq_cst || failure == std::memory_order_seq_cst);
      if constexpr (detail::kModelled<T>) {
        if (c->models_memory()) {
          std::uint64_t latest = 0;
          const detail::CasResult r = c->model_cas(
              this, detail::to_bits(expected), detail::to_bits(desired), detail::mem_order(success),
              detail::mem_order(failure), bits_now(), latest);
          keep(latest);
          if (!r.success) expected = detail::from_bits<T>(r.read);
          return r.success;
        }
      }
    }
    return plain();
  }

  std::atomic<T> a_;
};

/// std::atomic_flag whose operations are scheduling points under control.
class atomic_flag {
 public:
  constexpr atomic_flag() noexcept = default;
  atomic_flag(const atomic_flag&) = delete;
  atomic_flag& operator=(const atomic_flag&) = delete;

  /// std::atomic_flag::test_and_set.
  bool test_and_set(std::memory_order order = std::memory_order_seq_cst) noexcept {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::rmw, this)) [[unlikely]] {
      c->point(detail::SyncOp::rmw, this, order == std::memory_order_seq_cst);
      if (c->models_memory()) {
        std::uint64_t latest = 0;
        const std::uint64_t read = c->model_rmw(
            this, detail::mem_order(order), now(),
            [](std::uint64_t, std::uint64_t) noexcept { return std::uint64_t{1}; }, 0, latest);
        keep(latest);
        return read != 0;
      }
    }
    return f_.test_and_set(order);
  }
  /// std::atomic_flag::clear.
  void clear(std::memory_order order = std::memory_order_seq_cst) noexcept {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::store, this)) [[unlikely]] {
      c->point(detail::SyncOp::store, this, order == std::memory_order_seq_cst);
      if (c->models_memory()) {
        keep(c->model_store(this, detail::mem_order(order), 0, now()));
        return;
      }
    }
    f_.clear(order);
  }
  /// std::atomic_flag::test.
  [[nodiscard]] bool test(std::memory_order order = std::memory_order_seq_cst) const noexcept {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::load, this)) [[unlikely]] {
      c->point(detail::SyncOp::load, this, order == std::memory_order_seq_cst);
      if (c->models_memory()) return c->model_load(this, detail::mem_order(order), now()) != 0;
    }
    return f_.test(order);
  }

 private:
  std::uint64_t now() const noexcept { return f_.test(std::memory_order_relaxed) ? 1 : 0; }
  void keep(std::uint64_t latest) noexcept {
    if (latest != 0) {
      (void)f_.test_and_set(std::memory_order_relaxed);
    } else {
      f_.clear(std::memory_order_relaxed);
    }
  }

  std::atomic_flag f_;
};

namespace detail {
/// A std mutex type `Native` whose lock, try_lock and unlock are
/// scheduling points under control; a thread that finds it held is not
/// runnable until it is free. `mutex` and `recursive_mutex` are this.
template <class Native>
class basic_mutex {
 public:
  basic_mutex() = default;
  basic_mutex(const basic_mutex&) = delete;
  basic_mutex& operator=(const basic_mutex&) = delete;
  /// Under control, destroying a mutex a thread holds is named as misuse
  /// (the calling thread's own holds are released first).
  ~basic_mutex() {
    if (Controller* c = active_controller()) [[unlikely]] {
      for (std::size_t n = c->destroying(this); n > 0; --n) m_.unlock();
    }
  }

  /// Native::lock. Under control may throw `Cancelled` (a deadlock).
  void lock() {
    if (Controller* c = controller_for(SyncOp::lock, this)) {
      controlled_acquire(
          *c, this, SyncOp::lock, [&] { return m_.try_lock(); }, [&] { m_.lock(); });
      return;
    }
    m_.lock();
  }
  /// Native::try_lock.
  bool try_lock() {
    if (Controller* c = controller_for(SyncOp::try_lock, this)) {
      c->point(SyncOp::try_lock, this);
      const bool ok = m_.try_lock();
      if (ok) c->holds(this);
      return ok;
    }
    return m_.try_lock();
  }
  /// Native::unlock. Under control, an unlock by a thread that does not
  /// hold the mutex is named as misuse and skipped.
  void unlock() {
    if (Controller* c = controller_for(SyncOp::unlock, this)) {
      controlled_release(
          *c, this, SyncOp::unlock,
          [&] {
            if (!m_.try_lock()) return false;
            m_.unlock();
            return true;
          },
          [&] { m_.unlock(); });
      return;
    }
    m_.unlock();
  }
  /// The std mutex underneath (condition_variable waits on it).
  Native& native() noexcept { return m_; }

 private:
  Native m_;
};
}  // namespace detail

/// std::mutex whose lock, try_lock and unlock are scheduling points under
/// control; a thread that finds it held is not runnable until it is free.
using mutex = detail::basic_mutex<std::mutex>;

/// std::recursive_mutex, scheduled as `mutex` is.
using recursive_mutex = detail::basic_mutex<std::recursive_mutex>;

/// std::shared_mutex, scheduled as `mutex` is, shared ownership included.
class shared_mutex {
 public:
  shared_mutex() = default;
  shared_mutex(const shared_mutex&) = delete;
  shared_mutex& operator=(const shared_mutex&) = delete;
  /// Under control, destroying a mutex a thread holds is named as misuse
  /// (the calling thread's own holds are released first).
  ~shared_mutex() {
    if (detail::Controller* c = detail::active_controller()) [[unlikely]] {
      // Shared and exclusive holds are not told apart here: release the
      // way the std mutex is held.
      for (std::size_t n = c->destroying(this); n > 0; --n) {
        if (m_.try_lock_shared()) {  // not held exclusively: one of ours is shared
          m_.unlock_shared();
          m_.unlock_shared();
        } else {
          m_.unlock();
        }
      }
    }
  }

  /// std::shared_mutex::lock. Under control may throw `Cancelled`.
  void lock() {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::lock, this)) {
      detail::controlled_acquire(
          *c, this, detail::SyncOp::lock, [&] { return m_.try_lock(); }, [&] { m_.lock(); });
      return;
    }
    m_.lock();
  }
  /// std::shared_mutex::try_lock.
  bool try_lock() {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::try_lock, this)) {
      c->point(detail::SyncOp::try_lock, this);
      const bool ok = m_.try_lock();
      if (ok) c->holds(this);
      return ok;
    }
    return m_.try_lock();
  }
  /// std::shared_mutex::unlock. Under control, an unlock by a thread that
  /// does not hold the mutex is named as misuse and skipped.
  void unlock() {
    release(detail::SyncOp::unlock, [&] { m_.unlock(); });
  }
  /// std::shared_mutex::lock_shared. Under control may throw `Cancelled`.
  void lock_shared() {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::lock_shared, this)) {
      detail::controlled_acquire(
          *c, this, detail::SyncOp::lock_shared, [&] { return m_.try_lock_shared(); },
          [&] { m_.lock_shared(); });
      return;
    }
    m_.lock_shared();
  }
  /// std::shared_mutex::try_lock_shared.
  bool try_lock_shared() {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::lock_shared, this)) {
      c->point(detail::SyncOp::lock_shared, this);
      const bool ok = m_.try_lock_shared();
      if (ok) c->holds(this);
      return ok;
    }
    return m_.try_lock_shared();
  }
  /// std::shared_mutex::unlock_shared.
  void unlock_shared() {
    release(detail::SyncOp::unlock_shared, [&] { m_.unlock_shared(); });
  }

 private:
  template <class Unlock>
  void release(detail::SyncOp op, Unlock unlock) {
    if (detail::Controller* c = detail::controller_for(op, this)) {
      detail::controlled_release(
          *c, this, op,
          [&] {
            if (!m_.try_lock()) return false;
            m_.unlock();
            return true;
          },
          unlock);
      return;
    }
    unlock();
  }

  std::shared_mutex m_;
};

/// std::condition_variable over `std::unique_lock<sync::mutex>`. Under
/// control a waiter is not runnable until notified (notify_one wakes the
/// thread that waited first); a timed wait times out when no thread can
/// run, or every thread that can is only waiting (it yielded, and has only
/// loaded since). No spurious wake-ups are made.
class condition_variable {
 public:
  condition_variable() = default;
  condition_variable(const condition_variable&) = delete;
  condition_variable& operator=(const condition_variable&) = delete;

  /// std::condition_variable::notify_one.
  void notify_one() noexcept {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::cv_notify, this)) {
      c->point(detail::SyncOp::cv_notify, this);
      c->wake(this, false);
      return;
    }
    cv_.notify_one();
  }
  /// std::condition_variable::notify_all.
  void notify_all() noexcept {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::cv_notify, this)) {
      c->point(detail::SyncOp::cv_notify, this);
      c->wake(this, true);
      return;
    }
    cv_.notify_all();
  }

  /// std::condition_variable::wait. Under control may throw `Cancelled`
  /// (with `lock` held again).
  void wait(std::unique_lock<mutex>& lock) {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::cv_wait, this)) {
      (void)controlled_wait(*c, lock, false);
      return;
    }
    std::unique_lock<std::mutex> native(lock.mutex()->native(), std::adopt_lock);
    cv_.wait(native);
    native.release();
  }
  /// Waits until `stop()` holds.
  template <class Predicate>
  void wait(std::unique_lock<mutex>& lock, Predicate stop) {
    while (!stop()) wait(lock);
  }
  /// std::condition_variable::wait_until.
  template <class Clock, class Duration>
  std::cv_status wait_until(std::unique_lock<mutex>& lock,
                            const std::chrono::time_point<Clock, Duration>& deadline) {
    if (detail::Controller* c = detail::controller_for(detail::SyncOp::cv_wait, this)) {
      return controlled_wait(*c, lock, true) ? std::cv_status::timeout : std::cv_status::no_timeout;
    }
    std::unique_lock<std::mutex> native(lock.mutex()->native(), std::adopt_lock);
    const std::cv_status s = cv_.wait_until(native, deadline);
    native.release();
    return s;
  }
  /// Waits until `stop()` holds or `deadline` passes; returns `stop()`.
  template <class Clock, class Duration, class Predicate>
  bool wait_until(std::unique_lock<mutex>& lock,
                  const std::chrono::time_point<Clock, Duration>& deadline, Predicate stop) {
    while (!stop()) {
      if (wait_until(lock, deadline) == std::cv_status::timeout) return stop();
    }
    return true;
  }
  /// std::condition_variable::wait_for.
  template <class Rep, class Period>
  std::cv_status wait_for(std::unique_lock<mutex>& lock,
                          const std::chrono::duration<Rep, Period>& timeout) {
    return wait_until(lock, std::chrono::steady_clock::now() + timeout);
  }
  /// Waits until `stop()` holds or `timeout` passes; returns `stop()`.
  template <class Rep, class Period, class Predicate>
  bool wait_for(std::unique_lock<mutex>& lock, const std::chrono::duration<Rep, Period>& timeout,
                Predicate stop) {
    return wait_until(lock, std::chrono::steady_clock::now() + timeout, std::move(stop));
  }

 private:
  /// Releases `lock`, blocks until notified (or timed out), locks again.
  /// Returns whether it timed out.
  bool controlled_wait(detail::Controller& c, std::unique_lock<mutex>& lock, bool timed) {
    c.point(detail::SyncOp::cv_wait, this);
    if (!c.waits_holding(this, lock.mutex(), lock.owns_lock())) {
      // Misuse, named by the controller: this branch ends here.
      if (std::uncaught_exceptions() == 0) throw Cancelled{};
      return true;
    }
    mutex& m = *lock.mutex();
    (void)c.releases(detail::SyncOp::cv_wait, &m);
    m.native().unlock();
    c.wake(&m, true);
    bool timed_out = false;
    try {
      if (!c.block(detail::SyncOp::cv_wait, this, timed, &timed_out)) {
        // Control was dropped while waiting: nobody will notify through
        // the controller, so return as a spurious wake-up would.
        timed_out = false;
      }
    } catch (const Cancelled&) {
      m.native().lock();  // leave as std does: with the lock held
      throw;
    }
    m.lock();
    return timed_out;
  }

  std::condition_variable cv_;
};

/// std::atomic_thread_fence. Under `sync::model` it orders the calling
/// thread's atomics as the C++ memory model says; elsewhere it is std's.
inline void atomic_thread_fence(std::memory_order order) noexcept {
  if (detail::Controller* c = detail::controller_for(detail::SyncOp::fence, nullptr)) [[unlikely]] {
    c->point(detail::SyncOp::fence, nullptr, order == std::memory_order_seq_cst);
    if (c->models_memory()) {
      c->model_fence(detail::mem_order(order));
      return;
    }
  }
  std::atomic_thread_fence(order);
}

namespace detail {
/// The spawn step of a sync::thread under control: returns the new
/// thread's index. Too many threads is misuse (recorded): the caller's
/// thread leaves with `Cancelled`.
inline std::uint8_t start_thread(Controller& c, const void* start, const void* finish) {
  c.point(SyncOp::spawn, start);
  const std::uint8_t t = c.spawn(start, finish);
  if (t == kNoThread) throw Cancelled{};
  return t;
}
/// The body of a sync::thread's OS thread under control.
template <class F>
void run_thread(Controller& c, std::uint8_t t, const void* finish, F& call) noexcept {
  c.enter(t);
  bool cancelled = false;
  try {
    call();
  } catch (const Cancelled&) {
    cancelled = true;
  } catch (...) {
    c.thread_failed(std::current_exception());
  }
  if (!cancelled) c.point(SyncOp::finish, finish);
  c.leave(t);
}
/// sync::thread::join under control: runs once thread `t` has ended.
inline void join_thread(Controller& c, std::uint8_t t, const void* finish) {
  c.acquire_point(SyncOp::join, finish);
  c.joined(t);
}
}  // namespace detail

/// std::thread. Started inside `sync::model` it is a thread of the run:
/// it starts, runs and ends under the controller, and `join` waits for it
/// under control; a failure inside it (a `MERILO_SYNC_ASSERT`, an
/// exception) fails the execution. Elsewhere it is a std::thread. There is
/// no `detach`: every thread of a checked run must be joined.
class thread {
 public:
  /// The id of a std::thread.
  using id = std::thread::id;

  thread() noexcept = default;
  /// Starts `f(args...)` on a new thread.
  template <class F, class... Args>
  requires(!std::is_same_v<std::remove_cvref_t<F>, thread>) explicit thread(F&& f, Args&&... args)
      : state_(std::make_unique<State>()) {
    auto call = [fn = std::decay_t<F>(std::forward<F>(f)),
                 tuple =
                     std::make_tuple(std::decay_t<Args>(std::forward<Args>(args))...)]() mutable {
      std::apply(fn, std::move(tuple));
    };
    detail::Controller* c = detail::controller_for(detail::SyncOp::spawn, state_.get());
    if (c == nullptr) {
      state_->os = std::thread(std::move(call));
      return;
    }
    state_->controller = c;
    state_->index = detail::start_thread(*c, &state_->start, &state_->finish);
    const std::uint8_t index = state_->index;
    const void* finish = &state_->finish;
    state_->job = detail::run_pooled([c, index, finish, call = std::move(call)]() mutable {
      detail::run_thread(*c, index, finish, call);
    });
  }
  thread(thread&&) noexcept = default;
  /// A joinable thread cannot be assigned over (std::terminate in std).
  thread& operator=(thread&& other) noexcept {
    if (this != &other) {
      end_unjoined();
      state_ = std::move(other.state_);
    }
    return *this;
  }
  thread(const thread&) = delete;
  thread& operator=(const thread&) = delete;
  /// A thread still joinable here is joined; under `sync::model` that is
  /// reported (`sync.not_joined`), where std would call std::terminate.
  ~thread() { end_unjoined(); }

  /// Whether the thread has not been joined yet.
  [[nodiscard]] bool joinable() const noexcept {
    return state_ && (state_->os.joinable() || state_->job != nullptr);
  }
  /// Waits until the thread ends (under control: a step that can run only
  /// once it has ended).
  void join() {
    if (!joinable()) throw std::system_error(std::make_error_code(std::errc::invalid_argument));
    if (state_->job != nullptr) {
      std::shared_ptr<detail::Job> job = std::move(state_->job);
      if (state_->controller == detail::active_controller()) {
        detail::join_thread(*state_->controller, state_->index, &state_->finish);
      }
      // In a cancelled run, while this thread unwinds, the other may still
      // be unwinding too (wait for it: it may hold this thread's objects)
      // or parked for good (it is abandoned with its run).
      if (state_->controller->wait_gone(state_->index)) job->wait();
      return;
    }
    state_->os.join();
  }
  /// The std::thread's id (a default id for a thread of a `sync::model`
  /// run, which runs on a pooled OS thread).
  [[nodiscard]] id get_id() const noexcept { return state_ ? state_->os.get_id() : id{}; }
  /// std::thread::hardware_concurrency.
  [[nodiscard]] static unsigned hardware_concurrency() noexcept {
    return std::thread::hardware_concurrency();
  }

 private:
  struct State {
    std::thread os;                    // outside a controlled run
    std::shared_ptr<detail::Job> job;  // inside one: its pooled thread's task
    detail::Controller* controller = nullptr;
    std::uint8_t index = 0;
    char start = 0;   // the token of its first step
    char finish = 0;  // the token of its last step (and of its joiner's)
  };
  void end_unjoined() noexcept {
    if (!joinable()) return;
    if (state_->controller != nullptr && std::uncaught_exceptions() == 0) {
      state_->controller->not_joined();
    }
    try {
      join();
    } catch (...) {  // NOLINT(bugprone-empty-catch): a cancelled run; the task ends by itself
      state_->job = nullptr;
      if (state_->os.joinable()) state_->os.join();
    }
  }

  std::unique_ptr<State> state_;
};

/// std::this_thread, as far as scheduling goes.
namespace this_thread {
/// std::this_thread::yield. Under control a yield lets another runnable
/// thread go first, and switching there is not counted as a preemption:
/// call it in every loop that waits for another thread without blocking.
/// Unlike std's it is not noexcept: in a controlled run that ended in a
/// livelock it throws `Cancelled`, so the loop ends.
inline void yield() {
  if (detail::Controller* c = detail::controller_for(detail::SyncOp::yield, nullptr)) {
    c->yield_point();
    return;
  }
  std::this_thread::yield();
}
}  // namespace this_thread

}  // namespace merilo::sync

#endif  // MERILO_SYNC_SYNC_HPP
