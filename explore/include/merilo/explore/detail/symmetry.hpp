// merilo/explore/detail/symmetry.hpp — symmetry reduction: the fingerprint a
// search stores for a world, and the check of a system's canonical form.
//
// A search engine stores `state_fingerprint(sys, w)` for every world: the
// fingerprint of `canonical(w)` for a `Symmetric` system, of `w` otherwise.
// It keeps the concrete world (restore mode) and the concrete step that
// reached it (its parent link), so traces replay as they are. On the worlds
// it samples it calls `canonical_problem`, which tries the rules a canonical
// form must keep, one step of the search from both worlds included; a search that gets a problem
// back stops with it as a usage error (docs/design/symmetry.md says which rules and why these).
#ifndef MERILO_EXPLORE_DETAIL_SYMMETRY_HPP
#define MERILO_EXPLORE_DETAIL_SYMMETRY_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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

/// A step a successor check took: the kind and the stored fingerprint of
/// the world it reached (`kFailedStep` when `apply` failed).
struct Successor {
  Fingerprint fp;
  Kind kind = 0;
};

/// The fingerprint a successor check records for a step whose `apply`
/// failed: every failed step counts as one outcome, whatever its kind.
inline constexpr Fingerprint kFailedStep{~std::uint64_t{0}, ~std::uint64_t{0}};

/// Which successor of the two lists reaches a canonical form the other
/// list does not: the index into `from_w` (`in_w` true) or into `from_c`.
struct SuccessorMismatch {
  bool found = false;
  bool in_w = false;
  std::size_t index = 0;
};

/// Compares the successors of a world (`from_w`) with those of its
/// canonical form (`from_c`) as sets of stored fingerprints. The first step
/// of `from_c`, in kind order, whose fingerprint `from_w` lacks is named
/// first, then the first of `from_w` that `from_c` lacks.
[[nodiscard]] SuccessorMismatch successor_mismatch(const std::vector<Successor>& from_w,
                                                   const std::vector<Successor>& from_c);

/// The rule text for a successor mismatch: step `step` from the world
/// `from` ("w" or "canonical(w)") reaches a canonical form no step from the
/// other reaches; `shown` is " (w shows ..., canonical(w) shows ...)" or "".
[[nodiscard]] std::string successor_rule(const std::string& step, bool from_w,
                                         const std::string& shown);

/// The " (w shows \"...\", canonical(w) shows \"...\")" part of a message.
[[nodiscard]] std::string shown_worlds(const std::string& w, const std::string& c);

/// Every step from world `from` (restored before each), as the kinds
/// enabled there and the stored fingerprints they reach, into `out`.
template <System S>
requires Restorable<S>
void successors(S& sys, const world_t<S>& from, std::vector<Successor>& out) {
  out.clear();
  sys.restore(from);
  const std::size_t kinds = sys.kinds();
  std::vector<Kind> enabled;
  for (Kind k = 0; k < kinds; ++k) {
    if (sys.enabled(k)) enabled.push_back(k);
  }
  for (const Kind k : enabled) {
    sys.restore(from);
    const Status s = sys.apply(k);
    out.push_back(Successor{s.ok() ? state_fingerprint(sys, sys.world()) : kFailedStep, k});
  }
}

/// One step of the search from `w` and from `c = canonical(w)` (`c` not
/// `w`): the canonical forms reached must be the same set, or the search,
/// which expands only the one of the two it met first, misses what the
/// other reaches. "" or the rule broken. Leaves the system in `c`.
template <System S>
requires Restorable<S>
[[nodiscard]] std::string successor_problem(S& sys, const world_t<S>& w, const world_t<S>& c) {
  std::vector<Successor> from_w;
  std::vector<Successor> from_c;
  successors(sys, w, from_w);
  successors(sys, c, from_c);
  const SuccessorMismatch m = successor_mismatch(from_w, from_c);
  if (!m.found) return {};
  std::string step;
  std::string shown;
  if constexpr (Shows<S>) {
    sys.restore(w);
    const std::string in_w = sys.show();
    sys.restore(c);
    shown = shown_worlds(in_w, sys.show());
  }
  sys.restore(m.in_w ? w : c);
  step = sys.describe((m.in_w ? from_w : from_c)[m.index].kind);
  return successor_rule(step, m.in_w, shown);
}

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
/// canonical world must keep every invariant, show what this world shows
/// (`Observed`) and, when it is another world, reach the same canonical
/// forms in one step (`successor_problem`). Leaves the system in the world
/// it found it in.
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
      std::string rule = observed_difference(mine, theirs, sometimes.names());
      if (rule.empty() && !(fingerprint(c) == fingerprint(here))) {
        rule = successor_problem(sys, here, c);
        sys.restore(here);
      }
      return rule;
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
