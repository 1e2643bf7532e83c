// A threads fuzz target: message passing with relaxed orders (a seeded bug
// the seeding search, bounded at 0 preemptions, stops short of: the fuzzer
// has to find the schedule and the stale read) or release/acquire (fixed:
// its seeds replay clean). MERILO_MP_FIXED picks the variant.
#include <atomic>

#include <merilo/fuzz/threads.hpp>
#include <merilo/sync/model.hpp>

namespace {

namespace ms = merilo::sync;

#ifdef MERILO_MP_FIXED
constexpr auto kPublish = std::memory_order_release;
constexpr auto kObserve = std::memory_order_acquire;
#else
constexpr auto kPublish = std::memory_order_relaxed;
constexpr auto kObserve = std::memory_order_relaxed;
#endif

void message_passing() {
  ms::atomic<int> data{0};
  ms::atomic<int> flag{0};
  ms::thread writer([&] {
    data.store(42, std::memory_order_relaxed);
    flag.store(1, kPublish);
  });
  if (flag.load(kObserve) == 1) MERILO_SYNC_ASSERT(data.load(std::memory_order_relaxed) == 42);
  writer.join();
}

/// Seeding runs the executions without preemptions only.
ms::ModelOptions seeding() {
  ms::ModelOptions o;
  o.preemptions = 0;
  return o;
}

}  // namespace

MERILO_THREADS_FUZZ_TARGET_WITH(message_passing, seeding());
