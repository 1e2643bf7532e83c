// toy_program.hpp — a tiny deterministic interpreter of threads over
// atomics and mutexes, for testing the scheduling strategies on programs
// whose every schedule can also be enumerated naively.
#ifndef MERILO_TESTS_SYNC_TOY_PROGRAM_HPP
#define MERILO_TESTS_SYNC_TOY_PROGRAM_HPP

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include <merilo/sync/detail/footprint.hpp>

namespace merilo::sync::testing {

using detail::Access;
using detail::Footprint;
using detail::kMaxThreads;
using detail::ThreadSet;

/// One operation of a toy thread.
struct Op {
  enum class Kind : std::uint8_t { load, store, add, lock, unlock } kind;
  std::uint32_t object;    ///< Atomic or mutex id (1-based; one numbering for both).
  std::int64_t value = 0;  ///< Stored or added value.
};

/// Threads of operations on `objects` objects, every atomic starting at 0.
struct Program {
  std::uint32_t objects = 0;
  std::vector<std::vector<Op>> threads;
};

/// One executed step.
struct Event {
  std::uint8_t thread;
  Footprint step;
};

/// What one execution did: its steps, what it computed, how it ended.
struct Execution {
  std::vector<Event> events;
  std::string outcome;  ///< Final values and every value loaded, in order per thread.
  bool deadlock = false;
  std::array<Footprint, kMaxThreads> left{};  ///< What each unfinished thread was about to do.
};

/// Chooses the next thread: (enabled, pending of every thread, preferred).
using Choose =
    std::function<std::uint8_t(ThreadSet, const std::array<Footprint, kMaxThreads>&, std::uint8_t)>;

inline Footprint footprint_of(const Op& op) {
  switch (op.kind) {
    case Op::Kind::load:
      return {Access::read, op.object};
    case Op::Kind::store:
    case Op::Kind::add:
      return {Access::write, op.object};
    case Op::Kind::lock:
      return {Access::lock, op.object};
    case Op::Kind::unlock:
      return {Access::unlock, op.object};
  }
  return {};
}

/// Runs `p` once, every choice made by `choose`.
inline Execution run(const Program& p, const Choose& choose) {
  Execution out;
  std::vector<std::int64_t> value(p.objects + 1, 0);
  std::vector<int> owner(p.objects + 1, -1);
  std::vector<std::size_t> pc(p.threads.size(), 0);
  std::vector<std::string> loaded(p.threads.size());
  std::uint8_t current = 0;
  for (;;) {
    ThreadSet enabled;
    std::array<Footprint, kMaxThreads> pending{};
    bool unfinished = false;
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
      if (pc[t] >= p.threads[t].size()) continue;
      unfinished = true;
      const Op& op = p.threads[t][pc[t]];
      pending[t] = footprint_of(op);
      if (op.kind != Op::Kind::lock || owner[op.object] < 0) {
        enabled.insert(static_cast<unsigned>(t));
      }
    }
    if (enabled.empty()) {
      out.deadlock = unfinished;
      out.left = pending;
      break;
    }
    const std::uint8_t t = choose(enabled, pending, current);
    current = t;
    const Op& op = p.threads[t][pc[t]++];
    out.events.push_back({t, footprint_of(op)});
    switch (op.kind) {
      case Op::Kind::load:
        loaded[t] += std::to_string(value[op.object]) + ",";
        break;
      case Op::Kind::store:
        value[op.object] = op.value;
        break;
      case Op::Kind::add:
        loaded[t] += std::to_string(value[op.object]) + ",";
        value[op.object] += op.value;
        break;
      case Op::Kind::lock:
        owner[op.object] = t;
        break;
      case Op::Kind::unlock:
        owner[op.object] = -1;
        break;
    }
  }
  for (std::size_t o = 1; o <= p.objects; ++o) out.outcome += std::to_string(value[o]) + " ";
  for (const std::string& l : loaded) out.outcome += "| " + l;
  if (out.deadlock) out.outcome += " deadlock";
  return out;
}

/// The Mazurkiewicz trace of `events`: its least linearisation (the lowest
/// thread whose next step has all its dependencies taken goes first), as
/// the sequence of threads.
inline std::string trace_of(const std::vector<Event>& events) {
  const std::size_t n = events.size();
  std::vector<bool> taken(n, false);
  std::string out;
  for (std::size_t round = 0; round < n; ++round) {
    std::size_t best = n;
    for (std::size_t k = 0; k < n; ++k) {
      if (taken[k]) continue;
      bool ready = true;
      for (std::size_t j = 0; j < k && ready; ++j) {
        if (taken[j]) continue;
        if (events[j].thread == events[k].thread ||
            detail::dependent(events[j].step, events[k].step)) {
          ready = false;
        }
      }
      if (ready && (best == n || events[k].thread < events[best].thread)) best = k;
    }
    taken[best] = true;
    out += static_cast<char>('0' + events[best].thread);
  }
  return out;
}

/// Every schedule of `p`, depth first: calls `each` per execution.
inline std::size_t enumerate_all(const Program& p,
                                 const std::function<void(const Execution&)>& each) {
  struct Node {
    ThreadSet enabled;
    std::uint8_t chosen;
  };
  std::vector<Node> path;
  std::size_t replay = 0;
  std::size_t count = 0;
  for (;;) {
    std::size_t step = 0;
    const Execution e = run(p, [&](ThreadSet enabled, const auto&, std::uint8_t) {
      const std::size_t i = step++;
      if (i < replay) return path[i].chosen;
      // New states try their threads in increasing order, lowest first.
      const auto c = static_cast<std::uint8_t>(enabled.lowest());
      path.push_back({enabled, c});
      return c;
    });
    ++count;
    each(e);
    // The deepest node with an enabled thread above the one it ran.
    bool found = false;
    while (!path.empty() && !found) {
      Node& n = path.back();
      for (unsigned t = n.chosen + 1U; t < kMaxThreads; ++t) {
        if (n.enabled.contains(t)) {
          n.chosen = static_cast<std::uint8_t>(t);
          found = true;
          break;
        }
      }
      if (!found) path.pop_back();
    }
    if (!found) return count;
    replay = path.size();
  }
}

}  // namespace merilo::sync::testing

#endif  // MERILO_TESTS_SYNC_TOY_PROGRAM_HPP
