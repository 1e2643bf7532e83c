// n_shapes.hpp — three families of plain threaded programs whose bug needs
// one thread to be ordered just so among N others, each with a fixed twin.
// They are the shapes that make probabilistic schedulers (PCT, random)
// pay more as N grows; tests/sync/n_shapes_test.cpp checks that the
// seeded fuzzer and the default search find each seeded one and pass each
// fixed one, and bench/sync/bench_threads_n.cpp measures executions to the
// first failure for N = 5 .. 100 (docs/benchmarks.md).
//
// Every shared variable is a seq_cst merilo::sync::atomic, so the bugs are
// interleavings (sequentially consistent) and the fixed twins are correct
// under the C++ memory model as well.
//
// 1. `flags_body(n, fixed)` — publish in two steps, read in the wrong
//    order: each of n workers sets `a` to 1 and then `b` to -1; a checker
//    reads `a` and then `b` and expects either both unset or both set. It
//    fails when it runs between some worker's two stores before any
//    worker's second one. The fixed checker reads `b` first (if `b` is
//    set, `a` is too).
// 2. `two_stage_body(m, fixed)` — a writer publishes `first` under one
//    lock and then `second = first + 1` under another; m readers each read
//    `first` under the first lock and, if it is set, `second` under the
//    second, and expect `second == first + 1`. A reader that runs between
//    the writer's two stages sees `second` still 0. The fixed writer holds
//    the first lock across both stages.
// 3. `wrong_lock_body(n, fixed)` — n workers each add one to `x` under a
//    mutex and then one to `y` by a load and a store outside it (the lock
//    is used for one of the two variables only); after joining them the
//    body expects `x == y`. Two workers whose `y` updates interleave lose
//    one. The fixed worker updates `y` under the lock too.
#ifndef MERILO_TESTS_SYNC_N_SHAPES_HPP
#define MERILO_TESTS_SYNC_N_SHAPES_HPP

#include <cstddef>
#include <mutex>
#include <vector>

#include <merilo/sync/model.hpp>

namespace merilo::sync::testing {

/// Shape 1 (see the top of this file): `n` workers and a checker.
inline void flags_body(std::size_t n, bool fixed) {
  sync::atomic<int> a{0};
  sync::atomic<int> b{0};
  std::vector<sync::thread> threads;
  threads.reserve(n + 1);
  for (std::size_t i = 0; i < n; ++i) {
    threads.emplace_back([&] {
      a.store(1);
      b.store(-1);
    });
  }
  threads.emplace_back([&, fixed] {
    if (fixed) {
      const int rb = b.load();
      const int ra = a.load();
      MERILO_SYNC_ASSERT(rb == 0 || ra == 1);
    } else {
      const int ra = a.load();
      const int rb = b.load();
      MERILO_SYNC_ASSERT((ra == 0 && rb == 0) || (ra == 1 && rb == -1));
    }
  });
  for (sync::thread& t : threads) t.join();
}

/// Shape 2: a two-stage writer and `m` readers.
inline void two_stage_body(std::size_t m, bool fixed) {
  sync::mutex first_lock;
  sync::mutex second_lock;
  sync::atomic<int> first{0};
  sync::atomic<int> second{0};
  std::vector<sync::thread> threads;
  threads.reserve(m + 1);
  threads.emplace_back([&, fixed] {
    std::unique_lock stage1(first_lock);
    first.store(1);
    if (!fixed) stage1.unlock();
    {
      const std::lock_guard stage2(second_lock);
      second.store(first.load() + 1);
    }
  });
  for (std::size_t i = 0; i < m; ++i) {
    threads.emplace_back([&] {
      int seen = 0;
      {
        const std::lock_guard stage1(first_lock);
        seen = first.load();
      }
      if (seen == 0) return;  // not published yet
      const std::lock_guard stage2(second_lock);
      MERILO_SYNC_ASSERT(second.load() == seen + 1);
    });
  }
  for (sync::thread& t : threads) t.join();
}

/// Shape 3: `n` workers, one lock, two variables.
inline void wrong_lock_body(std::size_t n, bool fixed) {
  sync::mutex lock;
  sync::atomic<int> x{0};
  sync::atomic<int> y{0};
  std::vector<sync::thread> threads;
  threads.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    threads.emplace_back([&, fixed] {
      std::unique_lock held(lock);
      x.store(x.load() + 1);
      if (!fixed) held.unlock();
      y.store(y.load() + 1);
    });
  }
  for (sync::thread& t : threads) t.join();
  MERILO_SYNC_ASSERT(x.load() == static_cast<int>(n) && y.load() == static_cast<int>(n));
}

}  // namespace merilo::sync::testing

#endif  // MERILO_TESTS_SYNC_N_SHAPES_HPP
