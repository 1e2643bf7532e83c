// dpor.cpp — source-DPOR with sleep sets (detail/dpor.hpp).
#include <merilo/sync/detail/dpor.hpp>

#include <algorithm>  // std::max
#include <bit>        // std::countr_zero

namespace merilo::sync::detail {

namespace {

constexpr ThreadSet bit(unsigned t) noexcept { return static_cast<ThreadSet>(1U << t); }

/// The first thread of `set` at or after `from`, cyclically (`set` != 0).
std::uint8_t next_in(ThreadSet set, unsigned from) noexcept {
  for (unsigned k = 0; k < kMaxThreads; ++k) {
    const unsigned t = (from + k) % kMaxThreads;
    if ((set >> t) & 1U) return static_cast<std::uint8_t>(t);
  }
  return 0;
}

}  // namespace

Dpor::Dpor(std::size_t max_executions) : max_executions_(max_executions) {}

bool Dpor::begin() {
  if (complete_ || executions_ >= max_executions_) return false;
  if (executions_ > 0) {
    // The deepest state with a thread still to explore that is not asleep.
    std::size_t i = path_.size();
    std::uint8_t p = 0;
    bool found = false;
    bool next_value = false;
    while (i > 0 && !found) {
      --i;
      const Node& n = path_[i];
      if (n.value + 1 < n.values) {  // the same step, reading another store
        next_value = true;
        found = true;
        break;
      }
      const auto todo = static_cast<ThreadSet>(n.backtrack & ~n.done & ~n.sleep & n.enabled);
      if (todo != 0) {
        p = static_cast<std::uint8_t>(std::countr_zero(todo));
        found = true;
      }
    }
    if (!found) {
      complete_ = true;
      return false;
    }
    path_.resize(i + 1);
    if (next_value) {
      ++path_[i].value;
    } else {
      path_[i].chosen = p;
      path_[i].done |= bit(p);
      path_[i].values = 0;
      path_[i].value = 0;
    }
    replay_ = i + 1;
  } else {
    path_.clear();
    replay_ = 0;
  }
  ++executions_;
  running_ = true;
  blocked_ = false;
  step_ = 0;
  return true;
}

std::uint8_t Dpor::choose(ThreadSet enabled, const Pending& pending, std::uint8_t preferred) {
  const std::size_t i = step_++;
  if (preferred >= kMaxThreads || ((enabled >> preferred) & 1U) == 0) {
    preferred = next_in(enabled, 0);
  }
  if (i < replay_) {
    const Node& n = path_[i];
    if (n.enabled != enabled || n.pending != pending) diverged_ = true;
    if ((enabled >> n.chosen) & 1U) return n.chosen;
    diverged_ = true;
    return preferred;
  }
  if (blocked_) return preferred;
  Node n;
  n.enabled = enabled;
  n.pending = pending;
  if (i > 0) {
    // Asleep here: the threads asleep or already explored at the parent,
    // other than the one it ran, whose next step commutes with that one.
    const Node& parent = path_[i - 1];
    const Footprint ran = parent.pending[parent.chosen];
    const auto candidates =
        static_cast<ThreadSet>((parent.sleep | parent.done) & ~bit(parent.chosen));
    for (unsigned q = 0; q < kMaxThreads; ++q) {
      if (((candidates >> q) & 1U) && !dependent(parent.pending[q], ran)) n.sleep |= bit(q);
    }
  }
  const auto awake = static_cast<ThreadSet>(enabled & ~n.sleep);
  if (awake == 0) {
    // Every enabled thread's next step was explored from an equivalent
    // state: whatever follows is a trace already run. A disabled thread's
    // step may still race with what ran (a lock waiting for the mutex that
    // another lock took): it takes part in the race analysis.
    blocked_ = true;
    blocked_pending_ = {};
    for (unsigned t = 0; t < kMaxThreads; ++t) {
      if (((enabled >> t) & 1U) == 0) blocked_pending_[t] = pending[t];
    }
    ++sleep_blocked_;
    return preferred;
  }
  n.chosen = next_in(awake, preferred);
  n.backtrack = bit(n.chosen);
  n.done = bit(n.chosen);
  path_.push_back(n);
  return n.chosen;
}

std::size_t Dpor::choose_value(std::size_t count) {
  if (blocked_ || step_ == 0 || step_ > path_.size() || count < 2) return 0;
  Node& n = path_[step_ - 1];
  if (n.values == 0) {
    n.values = static_cast<std::uint32_t>(count);
    n.value = 0;
  } else if (n.values != count) {
    diverged_ = true;
    return 0;
  }
  return n.value;
}

void Dpor::end(const Pending& left) {
  if (!running_) return;
  running_ = false;
  if (step_ < replay_) {
    diverged_ = true;  // the replayed prefix did not run to its end
    path_.resize(step_);
  }
  analyse_races(replay_ > 0 ? replay_ - 1 : 0, left);
}

std::vector<std::uint8_t> Dpor::choices() const {
  std::vector<std::uint8_t> out;
  out.reserve(path_.size());
  for (const Node& n : path_) out.push_back(n.chosen);
  return out;
}

// Happens-before of the recorded steps: clock_[k][t] is one more than the
// position of the last step of thread t that happens before step k or is
// step k (0: none). Step j happens before step k iff clock_[k][thread(j)] > j.
//
// The steps still pending when the execution ended (a thread blocked for
// good, or cut off by a failure) take part too, as if each ran next: a
// lock that never got its mutex races with the lock that took it.
void Dpor::analyse_races(std::size_t from, const Pending& left) {
  const std::size_t n = path_.size();
  clock_.assign(n, {});
  std::array<std::size_t, kMaxThreads> last{};
  std::array<bool, kMaxThreads> seen{};
  std::vector<std::size_t> preds;
  std::vector<std::size_t> between;
  // The clock of a step `sk` of thread `tk` placed after the first `k`
  // steps; its direct predecessors in `preds`.
  const auto clock_of = [&](std::size_t k, unsigned tk, Footprint sk) {
    Clock c{};
    preds.clear();
    if (seen[tk]) {
      c = clock_[last[tk]];
      preds.push_back(last[tk]);
    }
    for (std::size_t j = 0; j < k; ++j) {
      if (path_[j].chosen == tk || !dependent(step_of(j), sk)) continue;
      preds.push_back(j);
      for (std::size_t t = 0; t < kMaxThreads; ++t) c[t] = std::max(c[t], clock_[j][t]);
    }
    c[tk] = static_cast<std::uint32_t>(k + 1);
    return c;
  };
  // Races of a step of thread `tk` with clock `c`: dependent steps j of
  // other threads that happen before it directly, not through another of
  // its predecessors.
  // An acquisition and the release it waited for are no race; two
  // acquisitions of a mutex race directly even though the first one's
  // release lies between them.
  const auto races = [&](std::size_t k, unsigned tk, Footprint sk, const Clock& c) {
    for (std::size_t j : preds) {
      const unsigned tj = path_[j].chosen;
      if (tj == tk || is_release_of(step_of(j), sk)) continue;
      bool direct = true;
      for (std::size_t p : preds) {
        if (p != j && !is_release_of(step_of(p), sk) && clock_[p][tj] > j) {
          direct = false;
          break;
        }
      }
      if (!direct) continue;
      between.clear();
      for (std::size_t i = j + 1; i < k; ++i) {
        if (clock_[i][tj] <= j) between.push_back(i);  // i does not happen after j
      }
      add_backtrack(j, tk, c, between);
    }
  };
  for (std::size_t k = 0; k < n; ++k) {
    const unsigned tk = path_[k].chosen;
    clock_[k] = clock_of(k, tk, step_of(k));
    last[tk] = k;
    seen[tk] = true;
    if (k >= from) races(k, tk, step_of(k), clock_[k]);
  }
  // A cut-short run's enabled threads sleep (their steps were explored);
  // its disabled ones, and every unfinished one of a run that ended, may
  // race.
  const Pending& pending = blocked_ ? blocked_pending_ : left;
  for (unsigned t = 0; t < kMaxThreads; ++t) {
    if (pending[t].access == Access::none) continue;
    const Clock c = clock_of(n, t, pending[t]);
    races(n, t, pending[t], c);
  }
}

// At the state before step `at`, make sure some thread that can start the
// reordering "the steps `between`, then a step of `thread` with clock
// `clock`" is explored.
void Dpor::add_backtrack(std::size_t at, unsigned thread, const Clock& clock,
                         const std::vector<std::size_t>& between) {
  ThreadSet initials = 0;
  ThreadSet seen = 0;
  const auto consider = [&](unsigned t, const Clock& c, std::size_t upto) {
    if ((seen >> t) & 1U) return;
    seen |= bit(t);
    // Thread t's first step in the reordering starts it when no earlier
    // step of the reordering happens before it.
    for (std::size_t x = 0; x < upto; ++x) {
      const std::size_t e = between[x];
      if (c[path_[e].chosen] > e) return;
    }
    initials |= bit(t);
  };
  for (std::size_t x = 0; x < between.size(); ++x) {
    consider(path_[between[x]].chosen, clock_[between[x]], x);
  }
  consider(thread, clock, between.size());
  Node& node = path_[at];
  if ((node.backtrack & initials) != 0) return;
  const auto startable = static_cast<ThreadSet>(initials & node.enabled);
  if (startable != 0) {
    node.backtrack |= bit(next_in(startable, thread));
  } else {
    // No initial can run here (it waits for a lock held across the
    // reordering): explore every thread that can, which is always enough.
    node.backtrack |= node.enabled;
  }
}

}  // namespace merilo::sync::detail
