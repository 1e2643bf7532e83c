// merilo/fuzz/detail/run_inl.hpp — the body of Runner<S>::run.
//
// The hot path of every fuzz target. It does not allocate once its buffers
// have grown: the `Run` it fills is the runner's own, cleared but not freed
// between inputs (docs/design/fuzz-speed.md).
#ifndef MERILO_FUZZ_DETAIL_RUN_INL_HPP
#define MERILO_FUZZ_DETAIL_RUN_INL_HPP

#include <algorithm>
#include <exception>
#include <utility>

#include <merilo/core/crash.hpp>
#include <merilo/core/reentry.hpp>

namespace merilo::fuzz {

namespace detail {
/// The most trace entries a runner reserves up front (a larger `max_depth`
/// grows the trace as needed instead).
inline constexpr std::size_t kTraceReserve = 4096;
}  // namespace detail

template <explore::System S>
const Run& Runner<S>::run(std::span<const std::uint8_t> input) {
  Run& out = last_;
  // Clear, do not reassign: the buffers' capacity carries over to the next
  // input, so a run after the first few allocates nothing.
  out.error.clear();
  out.trace.clear();
  out.input_steps = 0;
  out.stop = RunEnd::none;
  out.violation.kind = explore::ViolationKind::none;
  out.violation.trace.clear();
  out.violation.invariant.clear();
  out.violation.detail.clear();
  out.error = detail::check_max_depth(max_depth_);
  if (out.error.empty()) out.error = stepper_.error();
  if (out.error.empty() && core::inside_merilo()) {
    out.error = core::kReentryError;
  }
  if (!out.error.empty()) {
    out.stop = RunEnd::error;
    return out;
  }
  core::EntryGuard guard;
  if (stepper_.start(out.violation) == explore::StepEnd::broke) {
    out.stop = RunEnd::violation;
    return out;
  }
  const char* where = "kinds";
  try {
    const auto kinds = static_cast<std::size_t>(sys_->kinds());
    if (enabled_.capacity() < kinds) {
      enabled_.reserve(kinds);
      candidates_.reserve(kinds);
    }
    if (out.trace.capacity() == 0) out.trace.reserve(std::min(max_depth_, detail::kTraceReserve));
    Input in(input, kinds);
    where = "enabled/settled";
    steps(in, kinds, out);
  } catch (...) {
    out.violation = {explore::ViolationKind::crash,
                     out.trace,
                     {},
                     core::crash_detail(where, std::current_exception())};
    out.stop = RunEnd::violation;
  }
  return out;
}

template <explore::System S>
void Runner<S>::steps(Input& in, std::size_t kinds, Run& out) {
  bool draining = false;
  for (;;) {
    // Every kind is asked on every step, on purpose: under libFuzzer the
    // comparisons in `enabled()` are coverage of the world's state, and
    // asking only as the choice needs made the seeded bugs take up to 2x
    // more executions to find (docs/design/fuzz-speed.md).
    enabled_.clear();
    for (explore::Kind k = 0; k < kinds; ++k) {
      if (sys_->enabled(k)) enabled_.push_back(k);
    }
    if (enabled_.empty()) {
      if (sys_->settled()) {
        out.stop = RunEnd::quiescent;
      } else {
        out.violation.kind = explore::ViolationKind::deadlock;
        out.violation.trace = out.trace;
        out.violation.detail = std::string(explore::kDeadlockDetail);
        out.stop = RunEnd::violation;
      }
      return;
    }
    if (out.trace.size() >= max_depth_) {
      out.stop = RunEnd::max_depth;
      return;
    }
    std::uint64_t value = 0;
    if (!draining && !in.next(value)) draining = true;
    if (draining) {
      if (sys_->settled()) {
        out.stop = RunEnd::settled;
        return;
      }
      value = 0;
    }
    candidates_.clear();
    for (explore::Kind k : enabled_) {
      if (!in.masked(k)) candidates_.push_back(k);
    }
    // A mask that hides every enabled kind is ignored for this step.
    const std::span<const explore::Kind> from =
        candidates_.empty() ? std::span<const explore::Kind>(enabled_) : candidates_;
    const explore::Kind k = choose(value, from);
    if (!draining) ++out.input_steps;
    // The one step routine (explore/step.hpp): the kind joins the trace
    // before it is applied, so a violation's trace ends with its step.
    if (stepper_.take(k, &out.trace, out.violation) == explore::StepEnd::broke) {
      out.stop = RunEnd::violation;
      return;
    }
  }
}

}  // namespace merilo::fuzz

#endif  // MERILO_FUZZ_DETAIL_RUN_INL_HPP
