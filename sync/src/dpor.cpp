// dpor.cpp — source-DPOR with sleep sets (detail/dpor.hpp).
#include <merilo/sync/detail/dpor.hpp>

#include <algorithm>  // std::max

namespace merilo::sync::detail {

namespace {

/// The first thread of `set` at or after `from`, cyclically (`set` not empty).
std::uint8_t next_in(ThreadSet set, unsigned from) noexcept {
  const unsigned t = set.next_from(from);
  return static_cast<std::uint8_t>(t < kMaxThreads ? t : 0);
}

/// Whether `a` (a node's `width` steps from `at`) and `b` hold the same
/// pending steps, a missing entry being no step.
bool same_steps(const Footprint* a, std::size_t width, Pending b) noexcept {
  const std::size_t n = width > b.size() ? width : b.size();
  for (std::size_t t = 0; t < n; ++t) {
    const Footprint x = t < width ? a[t] : Footprint{};
    const Footprint y = t < b.size() ? b[t] : Footprint{};
    if (!(x == y)) return false;
  }
  return true;
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
      const ThreadSet todo = n.backtrack & ~n.done & ~n.sleep & n.enabled;
      if (!todo.empty()) {
        p = static_cast<std::uint8_t>(todo.lowest());
        found = true;
      }
    }
    if (!found) {
      complete_ = true;
      return false;
    }
    path_.resize(i + 1);
    pending_.resize(path_[i].at + path_[i].width);
    if (next_value) {
      ++path_[i].value;
    } else {
      path_[i].chosen = p;
      path_[i].done.insert(p);
      path_[i].values = 0;
      path_[i].value = 0;
    }
    replay_ = i + 1;
  } else {
    path_.clear();
    pending_.clear();
    replay_ = 0;
  }
  ++executions_;
  running_ = true;
  blocked_ = false;
  step_ = 0;
  return true;
}

std::uint8_t Dpor::choose(ThreadSet enabled, Pending pending, std::uint8_t preferred) {
  const std::size_t i = step_++;
  if (pending.size() > kMaxThreads) pending = pending.first(kMaxThreads);
  if (!enabled.contains(preferred)) preferred = next_in(enabled, 0);
  if (i < replay_) {
    const Node& n = path_[i];
    if (!(n.enabled == enabled) || !same_steps(pending_.data() + n.at, n.width, pending)) {
      diverged_ = true;
    }
    if (enabled.contains(n.chosen)) return n.chosen;
    diverged_ = true;
    return preferred;
  }
  if (blocked_) return preferred;
  Node n;
  n.enabled = enabled;
  if (i > 0) {
    // Asleep here: the threads asleep or already explored at the parent,
    // other than the one it ran, whose next step commutes with that one.
    const Node& parent = path_[i - 1];
    const Footprint ran = step_of(i - 1);
    ThreadSet candidates = parent.sleep | parent.done;
    candidates.erase(parent.chosen);
    for (unsigned q = candidates.lowest(); q < kMaxThreads; q = candidates.from(q + 1)) {
      if (!dependent(pending_at(i - 1, q), ran)) n.sleep.insert(q);
    }
  }
  const ThreadSet awake = enabled & ~n.sleep;
  if (awake.empty()) {
    // Every enabled thread's next step was explored from an equivalent
    // state: whatever follows is a trace already run. A disabled thread's
    // step may still race with what ran (a lock waiting for the mutex that
    // another lock took): it takes part in the race analysis.
    blocked_ = true;
    blocked_pending_.assign(pending.size(), Footprint{});
    for (unsigned t = 0; t < pending.size(); ++t) {
      if (!enabled.contains(t)) blocked_pending_[t] = pending[t];
    }
    ++sleep_blocked_;
    return preferred;
  }
  n.chosen = next_in(awake, preferred);
  n.backtrack = ThreadSet::of(n.chosen);
  n.done = ThreadSet::of(n.chosen);
  n.at = static_cast<std::uint32_t>(pending_.size());
  n.width = static_cast<std::uint32_t>(pending.size());
  pending_.insert(pending_.end(), pending.begin(), pending.end());
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

void Dpor::end(Pending left) {
  if (!running_) return;
  running_ = false;
  if (step_ < replay_) {
    diverged_ = true;  // the replayed prefix did not run to its end
    path_.resize(step_);
    pending_.resize(path_.empty() ? 0 : path_.back().at + path_.back().width);
  }
  analyse_races(replay_ > 0 ? replay_ - 1 : 0, left);
}

std::vector<std::uint8_t> Dpor::choices() const {
  std::vector<std::uint8_t> out;
  out.reserve(path_.size());
  for (const Node& n : path_) out.push_back(n.chosen);
  return out;
}

// Happens-before of the recorded steps: clock_at(k)[t] is one more than
// the position of the last step of thread t that happens before step k or
// is step k (0: none). Step j happens before step k iff
// clock_at(k)[thread(j)] > j. A clock has `stride_` entries: as many as
// the widest state has threads, so a run of two threads pays for two.
//
// The steps still pending when the execution ended (a thread blocked for
// good, or cut off by a failure) take part too, as if each ran next: a
// lock that never got its mutex races with the lock that took it.
void Dpor::analyse_races(std::size_t from, Pending left) {
  const std::size_t n = path_.size();
  const Pending pending = blocked_ ? Pending(blocked_pending_) : left;
  std::size_t width = pending.size() < kMaxThreads ? pending.size() : kMaxThreads;
  for (const Node& node : path_) width = std::max<std::size_t>(width, node.width);
  for (const Node& node : path_) width = std::max<std::size_t>(width, node.chosen + 1U);
  stride_ = width;
  clock_.assign((n + 1) * stride_, 0);  // one spare row: a pending step's clock
  std::vector<std::size_t> last(stride_, 0);
  std::vector<bool> seen(stride_, false);
  std::vector<std::size_t> preds;
  std::vector<std::size_t> between;
  // The clock of a step `sk` of thread `tk` placed after the first `k`
  // steps, written to row `k`; its direct predecessors in `preds`.
  const auto clock_of = [&](std::size_t k, unsigned tk, Footprint sk) {
    std::uint32_t* c = clock_.data() + k * stride_;
    std::fill(c, c + stride_, 0U);
    preds.clear();
    if (seen[tk]) {
      const std::uint32_t* own = clock_at(last[tk]);
      std::copy(own, own + stride_, c);
      preds.push_back(last[tk]);
    }
    for (std::size_t j = 0; j < k; ++j) {
      if (path_[j].chosen == tk || !dependent(step_of(j), sk)) continue;
      preds.push_back(j);
      const std::uint32_t* cj = clock_at(j);
      for (std::size_t t = 0; t < stride_; ++t) c[t] = std::max(c[t], cj[t]);
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
  const auto races = [&](std::size_t k, unsigned tk, Footprint sk, const std::uint32_t* c) {
    for (std::size_t j : preds) {
      const unsigned tj = path_[j].chosen;
      if (tj == tk || is_release_of(step_of(j), sk)) continue;
      bool direct = true;
      for (std::size_t p : preds) {
        if (p != j && !is_release_of(step_of(p), sk) && clock_at(p)[tj] > j) {
          direct = false;
          break;
        }
      }
      if (!direct) continue;
      between.clear();
      for (std::size_t i = j + 1; i < k; ++i) {
        if (clock_at(i)[tj] <= j) between.push_back(i);  // i does not happen after j
      }
      add_backtrack(j, tk, c, between);
    }
  };
  for (std::size_t k = 0; k < n; ++k) {
    const unsigned tk = path_[k].chosen;
    const std::uint32_t* c = clock_of(k, tk, step_of(k));
    last[tk] = k;
    seen[tk] = true;
    if (k >= from) races(k, tk, step_of(k), c);
  }
  // A cut-short run's enabled threads sleep (their steps were explored);
  // its disabled ones, and every unfinished one of a run that ended, may
  // race.
  for (unsigned t = 0; t < width && t < pending.size(); ++t) {
    if (pending[t].access == Access::none) continue;
    const std::uint32_t* c = clock_of(n, t, pending[t]);
    races(n, t, pending[t], c);
  }
}

// At the state before step `at`, make sure some thread that can start the
// reordering "the steps `between`, then a step of `thread` with clock
// `clock`" is explored.
void Dpor::add_backtrack(std::size_t at, unsigned thread, const std::uint32_t* clock,
                         const std::vector<std::size_t>& between) {
  ThreadSet initials;
  ThreadSet seen;
  const auto consider = [&](unsigned t, const std::uint32_t* c, std::size_t upto) {
    if (seen.contains(t)) return;
    seen.insert(t);
    // Thread t's first step in the reordering starts it when no earlier
    // step of the reordering happens before it.
    for (std::size_t x = 0; x < upto; ++x) {
      const std::size_t e = between[x];
      if (c[path_[e].chosen] > e) return;
    }
    initials.insert(t);
  };
  for (std::size_t x = 0; x < between.size(); ++x) {
    consider(path_[between[x]].chosen, clock_at(between[x]), x);
  }
  consider(thread, clock, between.size());
  Node& node = path_[at];
  if (!(node.backtrack & initials).empty()) return;
  const ThreadSet startable = initials & node.enabled;
  if (!startable.empty()) {
    node.backtrack.insert(next_in(startable, thread));
  } else {
    // No initial can run here (it waits for a lock held across the
    // reordering): explore every thread that can, which is always enough.
    node.backtrack |= node.enabled;
  }
}

}  // namespace merilo::sync::detail
