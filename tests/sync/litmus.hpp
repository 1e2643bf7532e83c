// litmus.hpp — a test-only enumerator of litmus programs through
// merilo::sync::detail::MemoryModel: every interleaving of the threads'
// operations times every store each load may read and every place each
// store may take in modification order, explored exhaustively by replaying
// a stack of choices (a stateless depth-first search), with the set of
// outcomes it produced.
//
// A program is a few threads, each a short list of operations on named
// locations (all 0 at first), loads into named registers; thread 0 creates
// the locations, runs `before`, starts the threads, joins them all and then
// reads every location (the final values). An outcome is the values of the
// observed registers and locations, as "r1=1 r2=0".
#ifndef MERILO_TESTS_SYNC_LITMUS_HPP
#define MERILO_TESTS_SYNC_LITMUS_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <merilo/sync/detail/memory_model.hpp>

namespace merilo::sync::litmus {

using detail::MemOrder;
inline constexpr MemOrder rlx = MemOrder::relaxed;
inline constexpr MemOrder acq = MemOrder::acquire;
inline constexpr MemOrder rel = MemOrder::release;
inline constexpr MemOrder ar = MemOrder::acq_rel;
inline constexpr MemOrder sc = MemOrder::seq_cst;

/// What one operation does.
enum class OpKind { store, load, fetch_add, exchange, cas, fence, lock, unlock };

/// One operation of a litmus thread.
struct Op {
  OpKind kind = OpKind::fence;
  std::string location;       // or the lock's name
  std::string reg;            // the register a read writes
  std::uint64_t value = 0;    // stored, added, exchanged, or a cas's expected value
  std::uint64_t desired = 0;  // a cas's new value
  MemOrder order = rlx;
  MemOrder failure = rlx;
};

inline Op st(std::string x, std::uint64_t v, MemOrder o) {
  return Op{OpKind::store, std::move(x), "", v, 0, o, o};
}
inline Op ld(std::string r, std::string x, MemOrder o) {
  return Op{OpKind::load, std::move(x), std::move(r), 0, 0, o, o};
}
inline Op add(std::string r, std::string x, std::uint64_t v, MemOrder o) {
  return Op{OpKind::fetch_add, std::move(x), std::move(r), v, 0, o, o};
}
inline Op xchg(std::string r, std::string x, std::uint64_t v, MemOrder o) {
  return Op{OpKind::exchange, std::move(x), std::move(r), v, 0, o, o};
}
/// compare_exchange_strong(expected, desired); the register gets the value found.
inline Op cas(std::string r, std::string x, std::uint64_t expected, std::uint64_t desired,
              MemOrder success, MemOrder failure) {
  return Op{OpKind::cas, std::move(x), std::move(r), expected, desired, success, failure};
}
inline Op fence(MemOrder o) { return Op{OpKind::fence, "", "", 0, 0, o, o}; }
inline Op lock(std::string m) { return Op{OpKind::lock, std::move(m), "", 0, 0, rlx, rlx}; }
inline Op unlock(std::string m) { return Op{OpKind::unlock, std::move(m), "", 0, 0, rlx, rlx}; }

/// A litmus program.
struct Program {
  std::string name;
  std::vector<std::string> locations;
  std::vector<std::vector<Op>> threads;  // threads 1..n
  std::vector<Op> before;                // thread 0, before it starts the others
};

/// What the enumeration found.
struct Result {
  /// Outcome -> the first execution that produced it (format_execution).
  std::map<std::string, std::string> outcomes;
  std::size_t executions = 0;
  /// A final read of thread 0 was offered more than one store (join did not
  /// make every store visible), or a lock could never be taken.
  std::string error;

  [[nodiscard]] std::set<std::string> set() const {
    std::set<std::string> out;
    for (const auto& [o, _] : outcomes) out.insert(o);
    return out;
  }
};

/// How far the search goes.
enum class Memory {
  weak,      ///< Every store a load may read, every place a store may take.
  defaults,  ///< Choice 0 at every load and store: interleavings only.
};

namespace run_detail {

/// The choice stack of the depth-first search.
class Choices {
 public:
  /// The choice among `count` at the next point.
  std::size_t next(std::size_t count) {
    if (count <= 1) return 0;
    if (depth_ < stack_.size()) {
      if (stack_[depth_].second != count) {
        throw std::logic_error("the litmus run is not deterministic under its choices");
      }
      return stack_[depth_++].first;
    }
    stack_.emplace_back(0, count);
    ++depth_;
    return 0;
  }
  /// Moves to the next execution; false when all were run.
  bool advance() {
    while (!stack_.empty() && stack_.back().first + 1 == stack_.back().second) stack_.pop_back();
    depth_ = 0;
    if (stack_.empty()) return false;
    ++stack_.back().first;
    return true;
  }

 private:
  std::vector<std::pair<std::size_t, std::size_t>> stack_;
  std::size_t depth_ = 0;
};

inline std::size_t index_of(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) throw std::logic_error("litmus: unknown name " + name);
  return static_cast<std::size_t>(it - names.begin());
}

}  // namespace run_detail

/// Runs every execution of `p` and collects the outcomes over `observe`
/// (register and location names; a location's value is its final one).
/// `max_deviations` bounds the memory choices other than 0 in one
/// execution (as a search would bound them, fewest first).
inline Result enumerate(const Program& p, const std::vector<std::string>& observe,
                        Memory memory = Memory::weak,
                        std::size_t max_deviations = static_cast<std::size_t>(-1)) {
  using detail::LocationId;
  using detail::ThreadId;
  Result result;
  detail::MemoryModel m;
  run_detail::Choices choices;
  std::vector<std::string> locks;
  for (const auto& ops : p.threads) {
    for (const Op& op : ops) {
      if (op.kind == OpKind::lock &&
          std::find(locks.begin(), locks.end(), op.location) == locks.end()) {
        locks.push_back(op.location);
      }
    }
  }
  std::size_t deviations = 0;
  const auto memory_choice = [&](std::size_t count) -> std::size_t {
    if (memory != Memory::weak || deviations == max_deviations) return 0;
    const std::size_t k = choices.next(count);
    if (k != 0) ++deviations;
    return k;
  };
  do {
    m.reset();
    deviations = 0;
    std::map<std::string, std::uint64_t> regs;
    std::vector<LocationId> loc;
    for (std::size_t x = 0; x < p.locations.size(); ++x) loc.push_back(m.new_location(0, 0));
    std::vector<detail::LockId> lock_ids;
    std::vector<int> holder(locks.size(), -1);
    for (std::size_t l = 0; l < locks.size(); ++l) lock_ids.push_back(m.new_lock());
    const auto exec = [&](ThreadId t, const Op& op) {
      const auto x = [&] { return loc[run_detail::index_of(p.locations, op.location)]; };
      switch (op.kind) {
        case OpKind::store: {
          const std::size_t n = m.prepare_store(t, x(), op.order);
          m.commit_store(memory_choice(n), op.value);
          break;
        }
        case OpKind::load: {
          const auto c = m.prepare_load(t, x(), op.order);
          regs[op.reg] = m.commit_load(memory_choice(c.size()));
          break;
        }
        case OpKind::fetch_add:
        case OpKind::exchange: {
          const auto c = m.prepare_rmw(t, x(), op.order);
          const std::size_t k = memory_choice(c.size());
          const std::uint64_t old = c[k].value;
          regs[op.reg] = m.commit_rmw(k, op.kind == OpKind::fetch_add ? old + op.value : op.value);
          break;
        }
        case OpKind::cas: {
          const auto c = m.prepare_cas(t, x(), op.value, op.order, op.failure);
          regs[op.reg] = m.commit_cas(memory_choice(c.size()), op.desired).read;
          break;
        }
        case OpKind::fence:
          m.fence(t, op.order);
          break;
        case OpKind::lock: {
          const std::size_t l = run_detail::index_of(locks, op.location);
          holder[l] = t;
          m.lock(t, lock_ids[l]);
          break;
        }
        case OpKind::unlock: {
          const std::size_t l = run_detail::index_of(locks, op.location);
          holder[l] = -1;
          m.unlock(t, lock_ids[l]);
          break;
        }
      }
    };
    for (const Op& op : p.before) exec(0, op);
    const std::size_t n = p.threads.size();
    for (std::size_t t = 0; t < n; ++t) m.spawn(0, static_cast<ThreadId>(t + 1));
    std::vector<std::size_t> pc(n, 0);
    for (;;) {
      std::vector<std::size_t> enabled;
      bool unfinished = false;
      for (std::size_t t = 0; t < n; ++t) {
        if (pc[t] == p.threads[t].size()) continue;
        unfinished = true;
        const Op& op = p.threads[t][pc[t]];
        if (op.kind == OpKind::lock && holder[run_detail::index_of(locks, op.location)] != -1) {
          continue;
        }
        enabled.push_back(t);
      }
      if (!unfinished) break;
      if (enabled.empty()) {
        result.error = "deadlock";
        return result;
      }
      const std::size_t t = enabled[choices.next(enabled.size())];
      exec(static_cast<ThreadId>(t + 1), p.threads[t][pc[t]]);
      ++pc[t];
    }
    for (std::size_t t = 0; t < n; ++t) m.join(0, static_cast<ThreadId>(t + 1));
    for (std::size_t x = 0; x < p.locations.size(); ++x) {
      const auto c = m.prepare_load(0, loc[x], rlx);
      if (c.size() != 1) {
        result.error = "a final read after joining every thread was offered " +
                       std::to_string(c.size()) + " stores of " + p.locations[x];
      }
      regs[p.locations[x]] = m.commit_load(0);
    }
    std::string outcome;
    for (const std::string& name : observe) {
      if (!regs.contains(name)) throw std::logic_error("litmus: nothing named " + name);
      outcome += (outcome.empty() ? "" : " ") + name + "=" + std::to_string(regs[name]);
    }
    ++result.executions;
    if (!result.outcomes.contains(outcome)) {
      result.outcomes.emplace(outcome, detail::format_execution(m, p.locations));
    }
  } while (choices.advance());
  return result;
}

}  // namespace merilo::sync::litmus

#endif  // MERILO_TESTS_SYNC_LITMUS_HPP
