// merilo/explore/detail/fingerprint.hpp — 128-bit world fingerprints.
#ifndef MERILO_EXPLORE_DETAIL_FINGERPRINT_HPP
#define MERILO_EXPLORE_DETAIL_FINGERPRINT_HPP

#include <merilo/core/hash.hpp>
#include <merilo/fsm/world.hpp>

namespace merilo::explore::detail {

/// XXH3-128 of a world's bytes, with a fixed seed so fingerprints are the
/// same across runs and builds.
using Fingerprint = core::Hash128;

/// The fingerprint of a world.
template <fsm::World W>
[[nodiscard]] Fingerprint fingerprint(const W& w) {
  return core::hash128_of(w);
}

}  // namespace merilo::explore::detail

#endif  // MERILO_EXPLORE_DETAIL_FINGERPRINT_HPP
