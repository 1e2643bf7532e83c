// merilo/explore/detail/symmetry.hpp — symmetry reduction: the fingerprint a
// search stores for a world, and the check of a system's canonical form.
//
// A search engine stores `state_fingerprint(sys, w)` for every world: the
// fingerprint of `canonical(w)` for a `Symmetric` system, of `w` otherwise.
// It keeps the concrete world (restore mode) and the concrete step that
// reached it (its parent link), so traces replay as they are. On the worlds
// it samples it calls `canonical_problem`, which tries the rules a canonical
// form must keep; a search that gets a problem back stops with it as a usage
// error (docs/design/symmetry.md says which rules and why these).
#ifndef MERILO_EXPLORE_DETAIL_SYMMETRY_HPP
#define MERILO_EXPLORE_DETAIL_SYMMETRY_HPP

#include <cstddef>
#include <cstdint>
#include <string>

#include <merilo/explore/detail/fingerprint.hpp>
#include <merilo/explore/detail/sometimes.hpp>
#include <merilo/explore/step.hpp>
#include <merilo/explore/system.hpp>

namespace merilo::explore::detail {

/// The fingerprint a search stores for world `w` of `sys`.
template <System S>
[[nodiscard]] Fingerprint state_fingerprint(const S& sys, const world_t<S>& w) {
  if constexpr (Symmetric<S>) {
    const world_t<S> c = sys.canonical(w);
    return fingerprint(c);
  } else {
    (void)sys;
    return fingerprint(w);
  }
}

/// What one world shows of itself, compared between a world and its
/// canonical form.
struct Observed {
  std::size_t enabled = 0;
  bool settled = false;
  std::string tuple;
  std::uint64_t sometimes = 0;  // the properties it satisfies
};

/// The text of the first difference between `w` (a world) and `c` (its
/// canonical form), or "". `sometimes` names the properties' bits.
[[nodiscard]] std::string observed_difference(const Observed& w, const Observed& c,
                                              const std::vector<std::string>& sometimes);

/// The usage error for a canonical form that broke a rule, `rule` saying
/// which, at the world the trace `path` reaches.
[[nodiscard]] std::string canonical_error(const std::string& rule, const Trace& path);

/// What the system shows in its current world.
template <System S>
[[nodiscard]] Observed observe(const S& sys, const SometimesList<S>& sometimes) {
  Observed o;
  const std::size_t kinds = sys.kinds();
  for (Kind k = 0; k < kinds; ++k) {
    if (sys.enabled(k)) ++o.enabled;
  }
  o.settled = sys.settled();
  o.tuple = sys.tuple();
  o.sometimes = sometimes.satisfied(sys, sometimes.all());
  return o;
}

/// Checks the canonical form of `sys` on the world it is in, a stored world
/// whose invariants hold: `canonical` must be idempotent and, when the
/// system is `Restorable` (so the canonical world can be visited), the
/// canonical world must keep every invariant and show what this world
/// shows (`Observed`). Leaves the system in the world it found it in.
/// Returns "" or which rule broke (without the trace; see
/// `canonical_error`). Exceptions from the adapter propagate.
template <System S>
[[nodiscard]] std::string canonical_problem(S& sys, Stepper<S>& stepper,
                                            const SometimesList<S>& sometimes) {
  if constexpr (Symmetric<S>) {
    using W = world_t<S>;
    const W here = sys.world();
    const W c = sys.canonical(here);
    const W cc = sys.canonical(c);
    if (!(fingerprint(cc) == fingerprint(c))) {
      return "canonical(canonical(w)) differs from canonical(w); a canonical form must map every "
             "world of a group to one world, itself included";
    }
    if constexpr (Restorable<S>) {
      const Observed mine = observe(sys, sometimes);
      sys.restore(c);
      Violation v;
      const StepEnd end = stepper.check(nullptr, v);
      const Observed theirs = observe(sys, sometimes);
      sys.restore(here);
      if (end == StepEnd::broke) {
        return v.kind == ViolationKind::invariant
                   ? "invariant \"" + v.invariant + "\" holds in w but not in canonical(w)"
                   : "checking the invariants in canonical(w): " + v.detail;
      }
      return observed_difference(mine, theirs, sometimes.names());
    }
    return {};
  } else {
    (void)sys;
    (void)stepper;
    (void)sometimes;
    return {};
  }
}

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_SYMMETRY_HPP
