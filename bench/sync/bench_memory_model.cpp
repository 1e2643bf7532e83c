// bench_memory_model — what merilo::sync's memory model costs a controlled
// run: executions per second and nanoseconds per operation of the model
// alone (no threads, no hand-off), on two threads of ten operations each
// over three locations, driven as a controller would: reset, create the
// locations, start the threads, then one operation at a time with a
// pseudo-random interleaving, taking the default choice (0) or a
// pseudo-random one at every load and store. A long run (two threads of
// 2,000 operations) shows the cost as a location's history grows.
#include <chrono>
#include <cstdint>
#include <cstdio>

#include <merilo/sync/detail/memory_model.hpp>

namespace {

using merilo::sync::detail::LocationId;
using merilo::sync::detail::MemOrder;
using merilo::sync::detail::MemoryModel;
using merilo::sync::detail::ThreadId;

struct Rng {
  std::uint64_t s = 0x9e3779b97f4a7c15ULL;
  std::uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
};

/// One operation of thread `t`'s `k`-th step: a mix of stores, loads,
/// fetch_adds, a compare-exchange and (every tenth) a fence, over three
/// locations, in the given order.
void step(MemoryModel& m, Rng& rng, bool weak, ThreadId t, std::size_t k, const LocationId* x,
          MemOrder order) {
  const auto pick = [&](std::size_t n) { return weak ? rng.below(n) : 0; };
  const LocationId at = x[(k + t) % 3];
  switch (k % 5) {
    case 0:
      m.commit_store(pick(m.prepare_store(t, at, order)), k);
      break;
    case 1:
    case 3:
      (void)m.commit_load(pick(
          m.prepare_load(t, at, order == MemOrder::release ? MemOrder::acquire : order).size()));
      break;
    case 2: {
      const auto c = m.prepare_rmw(t, at, order == MemOrder::release ? MemOrder::acq_rel : order);
      const std::size_t i = pick(c.size());
      (void)m.commit_rmw(i, c[i].value + 1);
      break;
    }
    default:
      if (k % 10 == 9) {
        m.fence(t, order == MemOrder::relaxed ? MemOrder::acq_rel : order);
      } else {
        const auto c = m.prepare_cas(t, at, k, order, MemOrder::relaxed);
        (void)m.commit_cas(pick(c.size()), k + 1);
      }
  }
}

void run(const char* label, std::size_t executions, std::size_t ops, bool weak, MemOrder order) {
  MemoryModel m;
  Rng rng;
  std::uint64_t sink = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t e = 0; e < executions; ++e) {
    m.reset();
    LocationId x[3];
    for (LocationId& l : x) l = m.new_location(0, 0);
    m.spawn(0, 1);
    m.spawn(0, 2);
    std::size_t pc[2] = {0, 0};
    while (pc[0] < ops || pc[1] < ops) {
      std::size_t t = pc[0] == ops ? 1 : pc[1] == ops ? 0 : rng.below(2);
      step(m, rng, weak, static_cast<ThreadId>(t + 1), pc[t]++, x, order);
    }
    m.join(0, 1);
    m.join(0, 2);
    sink += m.latest(x[0]);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double total_ops = static_cast<double>(executions) * static_cast<double>(2 * ops + 7);
  std::printf("%-44s %10.0f executions/s  %6.1f ns/operation  (%zu executions, sink %llu)\n", label,
              static_cast<double>(executions) / seconds, seconds * 1e9 / total_ops, executions,
              static_cast<unsigned long long>(sink % 10));
}

}  // namespace

int main() {
  run("2x10 relaxed, default choices", 200000, 10, false, MemOrder::relaxed);
  run("2x10 relaxed, random choices", 200000, 10, true, MemOrder::relaxed);
  run("2x10 release/acquire, random choices", 200000, 10, true, MemOrder::release);
  run("2x10 seq_cst, random choices", 200000, 10, true, MemOrder::seq_cst);
  run("2x2000 relaxed, random choices", 200, 2000, true, MemOrder::relaxed);
  run("2x2000 seq_cst, default choices", 200, 2000, false, MemOrder::seq_cst);
  return 0;
}
