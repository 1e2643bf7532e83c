// merilo/fuzz/detail/run_inl.hpp — the body of Runner<S>::run.
//
// The hot path of every fuzz target. Two rules keep it fast under
// AddressSanitizer and coverage instrumentation (docs/design/fuzz-speed.md):
// it does not allocate once its buffers have grown (the `Run` it fills is
// the runner's own, cleared but not freed between inputs), and it asks
// `enabled()` only as much as the choice rule needs — one call when the
// choice names an enabled, unmasked kind, a scan up to the first such kind
// in the drain, and every kind only when the choice has to be taken modulo
// the candidates.
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
bool Runner<S>::pick(const Input& in, std::size_t kinds, std::uint64_t value, explore::Kind& k) {
  if (value == 0) {
    // Value 0 (every drained step) takes the lowest candidate: the first
    // enabled unmasked kind, found without asking about the rest.
    for (explore::Kind i = 0; i < kinds; ++i) {
      if (!in.masked(i) && sys_->enabled(i)) {
        k = i;
        return true;
      }
    }
  }
  enabled_.clear();
  candidates_.clear();
  for (explore::Kind i = 0; i < kinds; ++i) {
    if (!sys_->enabled(i)) continue;
    enabled_.push_back(i);
    if (!in.masked(i)) candidates_.push_back(i);
  }
  if (enabled_.empty()) return false;
  // A mask that hides every enabled kind is ignored for this step.
  const std::span<const explore::Kind> from =
      candidates_.empty() ? std::span<const explore::Kind>(enabled_) : candidates_;
  k = choose(value, from);
  return true;
}

template <explore::System S>
bool Runner<S>::any_enabled(std::size_t kinds) const {
  for (explore::Kind i = 0; i < kinds; ++i) {
    if (sys_->enabled(i)) return true;
  }
  return false;
}

template <explore::System S>
void Runner<S>::stuck(Run& out) {
  if (sys_->settled()) {
    out.stop = RunEnd::quiescent;
    return;
  }
  out.violation.kind = explore::ViolationKind::deadlock;
  out.violation.trace = out.trace;
  out.violation.detail = "no kind is enabled and the system is not settled";
  out.stop = RunEnd::violation;
}

template <explore::System S>
void Runner<S>::steps(Input& in, std::size_t kinds, Run& out) {
  bool draining = false;
  for (;;) {
    if (out.trace.size() >= max_depth_) {
      if (any_enabled(kinds)) {
        out.stop = RunEnd::max_depth;
      } else {
        stuck(out);
      }
      return;
    }
    std::uint64_t value = 0;
    if (!draining && !in.next(value)) draining = true;
    explore::Kind k = 0;
    if (!draining && value < kinds && !in.masked(static_cast<explore::Kind>(value)) &&
        sys_->enabled(static_cast<explore::Kind>(value))) {
      // The choice names an enabled, unmasked kind: taken as it is.
      k = static_cast<explore::Kind>(value);
    } else {
      if (!pick(in, kinds, draining ? 0 : value, k)) {
        stuck(out);
        return;
      }
      if (draining && sys_->settled()) {
        out.stop = RunEnd::settled;
        return;
      }
    }
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
