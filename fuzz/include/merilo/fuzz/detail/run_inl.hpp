// merilo/fuzz/detail/run_inl.hpp — the body of Runner<S>::run.
#ifndef MERILO_FUZZ_DETAIL_RUN_INL_HPP
#define MERILO_FUZZ_DETAIL_RUN_INL_HPP

#include <exception>
#include <utility>

#include <merilo/core/crash.hpp>
#include <merilo/core/reentry.hpp>

namespace merilo::fuzz {

template <explore::System S>
Run Runner<S>::run(std::span<const std::uint8_t> input) {
  Run out;
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
    Input in(input, static_cast<std::size_t>(sys_->kinds()));
    where = "enabled/settled";
    steps(in, out);
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
void Runner<S>::steps(Input& in, Run& out) {
  using explore::ViolationKind;
  const std::size_t kinds = static_cast<std::size_t>(sys_->kinds());
  bool draining = false;
  for (;;) {
    enabled_.clear();
    for (explore::Kind k = 0; k < kinds; ++k) {
      if (sys_->enabled(k)) enabled_.push_back(k);
    }
    if (enabled_.empty()) {
      if (sys_->settled()) {
        out.stop = RunEnd::quiescent;
      } else {
        out.violation = {ViolationKind::deadlock,
                         out.trace,
                         {},
                         "no kind is enabled and the system is not settled"};
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
