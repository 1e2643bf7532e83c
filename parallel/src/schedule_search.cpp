// schedule_search.cpp — iterative preemption bounding over one case
// (detail/schedule_search.hpp).
#include <merilo/parallel/detail/schedule_search.hpp>

#include <string>

#include <fmt/core.h>

namespace merilo::parallel::detail {

std::size_t preemptions(const std::vector<Decision>& decisions) noexcept {
  std::size_t n = 0;
  for (const Decision& d : decisions) {
    if (is_preemption(d, d.chosen)) ++n;
  }
  return n;
}

std::vector<std::uint8_t> schedule_of(const std::vector<Decision>& decisions) {
  std::size_t keep = decisions.size();
  while (keep > 0 && decisions[keep - 1].chosen == default_choice(decisions[keep - 1])) --keep;
  std::vector<std::uint8_t> out;
  out.reserve(keep);
  for (std::size_t i = 0; i < keep; ++i) out.push_back(decisions[i].chosen);
  return out;
}

std::vector<Switch> switches_of(const std::vector<Decision>& decisions) {
  std::vector<Switch> out;
  for (const Decision& d : decisions) {
    if (d.current == kNoThread || d.chosen == d.current) continue;
    Switch s;
    s.at = d.at;
    s.from = d.current;
    s.to = d.chosen;
    s.preemption = is_preemption(d, d.chosen);
    s.before = d.op == SyncOp::call ? std::string("its next call")
                                    : fmt::format("{} #{}", name(d.op), d.object);
    if (!d.current_runnable) s.before += " (blocked)";
    out.push_back(std::move(s));
  }
  return out;
}

ScheduleSearch::ScheduleSearch(std::size_t max_bound, std::size_t max_schedules)
    : max_bound_(max_bound), max_schedules_(max_schedules) {}

bool ScheduleSearch::next(std::vector<std::uint8_t>& forced) {
  if (schedules_ >= max_schedules_) {
    budget_spent_ = true;
    return false;
  }
  if (!started_) {
    started_ = true;
    per_round_.push_back(0);
    forced.clear();
    forced_len_ = 0;
    path_.clear();
    ++schedules_;
    ++per_round_.back();
    return true;
  }
  while (!path_.empty()) {
    Node& node = path_.back();
    const std::size_t i = path_.size() - 1;
    for (unsigned c = 0; c < kMaxControlledThreads; ++c) {
      if (!node.decision.runnable.contains(c) || node.tried.contains(c)) continue;
      node.tried.insert(c);
      const auto choice = static_cast<std::uint8_t>(c);
      if (node.preemptions + (is_preemption(node.decision, choice) ? 1 : 0) > bound_) continue;
      node.decision.chosen = choice;
      forced.clear();
      for (std::size_t j = 0; j <= i; ++j) forced.push_back(path_[j].decision.chosen);
      forced_len_ = i + 1;
      ++schedules_;
      ++per_round_.back();
      return true;
    }
    path_.pop_back();
  }
  // The round is complete.
  rounds_done_ = bound_ + 1;
  if (bound_ >= max_bound_) return false;
  ++bound_;
  started_ = false;
  return next(forced);
}

void ScheduleSearch::record(const std::vector<Decision>& decisions) {
  const std::size_t known = forced_len_ < path_.size() ? forced_len_ : path_.size();
  for (std::size_t i = 0; i < known && i < decisions.size(); ++i) {
    const Decision& was = path_[i].decision;
    const Decision& now = decisions[i];
    if (was.runnable != now.runnable || was.current != now.current || was.op != now.op ||
        now.chosen != was.chosen) {
      diverged_ = true;
    }
  }
  if (decisions.size() < known) diverged_ = true;
  path_.resize(known);
  std::size_t pre = 0;
  if (known > 0) {
    const Node& last = path_[known - 1];
    pre = last.preemptions;
    if (is_preemption(last.decision, last.decision.chosen)) ++pre;
  }
  for (std::size_t i = known; i < decisions.size(); ++i) {
    Node node;
    node.decision = decisions[i];
    node.tried = sync::detail::ThreadSet::of(decisions[i].chosen);
    node.preemptions = pre;
    if (is_preemption(decisions[i], decisions[i].chosen)) ++pre;
    path_.push_back(node);
  }
}

}  // namespace merilo::parallel::detail
