// config.cpp — checking and clamping a parallel CheckOptions; evidence names.
#include <algorithm>  // std::clamp
#include <string>     // std::to_string

#include <merilo/parallel/failure.hpp>
#include <merilo/parallel/parallel.hpp>

namespace merilo::parallel {

std::string_view name(Evidence evidence) noexcept {
  switch (evidence) {
    case Evidence::in_prefix:
      return "in prefix";
    case Evidence::raced:
      return "raced";
    case Evidence::after_race:
      return "after race";
    case Evidence::unrecorded:
      return "unrecorded";
    case Evidence::no_race:
      return "no race";
  }
  return "?";
}

std::string_view name(ShrinkEnd end) noexcept {
  switch (end) {
    case ShrinkEnd::converged:
      return "converged";
    case ShrinkEnd::bound_hit:
      return "bound hit";
    case ShrinkEnd::out_of_retries:
      return "out of retries";
  }
  return "?";
}

std::string_view name(Scheduler scheduler) noexcept {
  switch (scheduler) {
    case Scheduler::automatic:
      return "automatic";
    case Scheduler::preemption_bounded:
      return "preemption-bounded";
    case Scheduler::pct:
      return "pct";
    case Scheduler::random:
      return "random";
    case Scheduler::stress:
      return "stress";
    case Scheduler::os:
      return "os";
  }
  return "?";
}

namespace detail {

std::string config_error(const CheckOptions& config) {
  if (!config.seed) {
    return "merilo::parallel: CheckOptions::seed is required (there is no default seed; pick any "
           "64-bit value, e.g. .seed = 1)";
  }
  if (config.test_count == 0)
    return "merilo::parallel: CheckOptions::test_count must be at least 1";
  if (config.repeat == 0) return "merilo::parallel: CheckOptions::repeat must be at least 1";
  if (config.deadline.count() <= 0) {
    return "merilo::parallel: CheckOptions::deadline must be positive";
  }
  if (static_cast<unsigned>(config.scheduler) > static_cast<unsigned>(Scheduler::os)) {
    return "merilo::parallel: CheckOptions::scheduler is not a Scheduler value";
  }
  if (config.stress_time.count() < 0 || config.stall_time.count() < 0) {
    return "merilo::parallel: CheckOptions::stress_time and stall_time must not be negative";
  }
  if (config.schedules == 0) return "merilo::parallel: CheckOptions::schedules must be at least 1";
  if (config.max_steps == 0) return "merilo::parallel: CheckOptions::max_steps must be at least 1";
  if (config.pct_depth == 0 || config.pct_depth > kMaxPctDepth) {
    return "merilo::parallel: CheckOptions::pct_depth must be in 1.." +
           std::to_string(kMaxPctDepth);
  }
  if (config.search_budget == 0) {
    return "merilo::parallel: CheckOptions::search_budget must be at least 1";
  }
  if (config.max_prefix > kMaxPrefixLimit) {
    return "merilo::parallel: CheckOptions::max_prefix is " + std::to_string(config.max_prefix) +
           ", above the limit of " + std::to_string(kMaxPrefixLimit) +
           " commands (kMaxPrefixLimit)";
  }
  return {};
}

CheckOptions clamped(const CheckOptions& config) {
  CheckOptions out = config;
  out.branches = std::clamp(config.branches, kMinBranches, kMaxBranches);
  out.max_branch = std::clamp(config.max_branch, kMinBranchLength, kMaxBranchLength);
  return out;
}

}  // namespace detail

}  // namespace merilo::parallel
