// merilo/parallel/detail/generate_inl.hpp — drawing a case (prefix grown
// from the model, branches drawn from the post-prefix model as if alone)
// and deciding admissibility over every interleaving of the branches.
#ifndef MERILO_PARALLEL_DETAIL_GENERATE_INL_HPP
#define MERILO_PARALLEL_DETAIL_GENERATE_INL_HPP

#include <algorithm>  // std::max_element
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <merilo/parallel/detail/steps.hpp>
#include <merilo/parallel/spec.hpp>
#include <merilo/statem/gen.hpp>
#include <merilo/statem/guard.hpp>

namespace merilo::parallel::detail {

/// The number of interleavings of branches of these lengths (the
/// multinomial coefficient), saturated at `cap + 1`.
inline std::uint64_t interleavings(const std::vector<std::size_t>& lengths, std::uint64_t cap) {
  std::uint64_t result = 1;
  std::uint64_t placed = 0;
  for (std::size_t n : lengths) {
    for (std::uint64_t j = 1; j <= n; ++j) {
      ++placed;
      // result * placed / j stays an integer: it is a product of binomials.
      if (result > (cap + 1) * j) return cap + 1;
      result = result * placed / j;
      if (result > cap) return cap + 1;
    }
  }
  return result;
}

template <class Cmd>
std::vector<std::size_t> lengths(const std::vector<std::vector<Cmd>>& branches) {
  std::vector<std::size_t> out;
  out.reserve(branches.size());
  for (const auto& b : branches) out.push_back(b.size());
  return out;
}

template <class Cmd>
std::size_t non_empty(const std::vector<std::vector<Cmd>>& branches) {
  std::size_t n = 0;
  for (const auto& b : branches) {
    if (!b.empty()) ++n;
  }
  return n;
}

/// Removes the last command of the longest branch (the first of equals).
template <class Cmd>
void trim_longest(std::vector<std::vector<Cmd>>& branches) {
  auto longest = std::max_element(branches.begin(), branches.end(),
                                  [](const auto& a, const auto& b) { return a.size() < b.size(); });
  if (longest != branches.end() && !longest->empty()) longest->pop_back();
}

/// Whether every precondition holds in every interleaving of `branches`
/// from `model` (depth first over each branch's next command). Callbacks
/// may throw; the caller decides what a throw means.
template <class S>
bool every_interleaving_admitted(S& spec, const model_t<S>& model,
                                 const std::vector<std::vector<command_t<S>>>& branches,
                                 std::vector<std::size_t>& at) {
  for (std::size_t b = 0; b < branches.size(); ++b) {
    if (at[b] == branches[b].size()) continue;
    const command_t<S>& cmd = branches[b][at[b]];
    if (spec.precondition(model, cmd) == statem::Admission::reject) return false;
    const model_t<S> next = planned_next(spec, model, cmd);
    ++at[b];
    const bool ok = every_interleaving_admitted(spec, next, branches, at);
    --at[b];
    if (!ok) return false;
  }
  return true;
}

/// Admissible branches from `model`: at most `kMaxInterleavings`
/// interleavings, each admitted by every precondition. Throws what the
/// callbacks throw.
template <class S>
bool branches_admissible(S& spec, const model_t<S>& model,
                         const std::vector<std::vector<command_t<S>>>& branches) {
  if (interleavings(lengths(branches), kMaxInterleavings) > kMaxInterleavings) return false;
  std::vector<std::size_t> at(branches.size(), 0);
  return every_interleaving_admitted(spec, model, branches, at);
}

/// Whether `c` may run at all: its prefix admitted in order from
/// `initial()`, then its branches admissible from the model after it. A
/// throwing callback makes it inadmissible (shrinking skips it).
template <class S>
bool case_admissible(S& spec, const Case<command_t<S>>& c) noexcept {
  try {
    model_t<S> model = spec.initial();
    for (const command_t<S>& cmd : c.prefix) {
      if (spec.precondition(model, cmd) == statem::Admission::reject) return false;
      model = planned_next(spec, model, cmd);
    }
    return branches_admissible(spec, model, c.branches);
  } catch (...) {
    return false;
  }
}

/// Appends up to `length` admitted commands that `caller` draws from
/// `model` (advanced as they are accepted) to `out`; stops early after `kMaxConsecutiveRejections`
/// rejected or given-up draws in a row. A throwing callback is stored in
/// `crash`, and the draw stops there.
template <class S>
void grow(S& spec, statem::Rng& rng, model_t<S>& model, linearize::Caller caller,
          std::size_t length, std::vector<command_t<S>>& out, MaybeViolation& crash) {
  using Cmd = command_t<S>;
  const std::size_t stop = out.size() + length;
  while (out.size() < stop) {
    bool accepted = false;
    for (std::size_t a = 0; a < statem::kMaxConsecutiveRejections && !accepted; ++a) {
      std::optional<statem::Tree<Cmd>> tree;
      if (!statem::guarded("command", crash,
                           [&] { tree = commands_for(spec, model, caller)(rng); }))
        return;
      if (!tree) continue;
      statem::Admission admission = statem::Admission::reject;
      if (!statem::guarded("precondition", crash,
                           [&] { admission = spec.precondition(model, tree->value()); })) {
        return;
      }
      if (admission == statem::Admission::reject) continue;
      if (!statem::guarded("next_model", crash, [&] {
            model_t<S> next = planned_next(spec, model, tree->value());
            model = std::move(next);
          })) {
        return;
      }
      out.push_back(tree->value());
      accepted = true;
    }
    if (!accepted) return;
  }
}

/// A drawn case, and a crash that cut the draw.
template <class Cmd>
struct Drawn {
  Case<Cmd> c;
  MaybeViolation crash;
};

/// Draws `config.branches` branches from `model`, each from its own split
/// stream with a length in [1, max_branch].
template <class S>
std::vector<std::vector<command_t<S>>> draw_branches(S& spec, statem::Rng& rng,
                                                     const model_t<S>& model,
                                                     const CheckOptions& config,
                                                     MaybeViolation& crash) {
  std::vector<std::vector<command_t<S>>> branches(config.branches);
  for (std::size_t b = 0; b < branches.size(); ++b) {
    statem::Rng own = rng.split();
    const std::size_t length = 1 + static_cast<std::size_t>(own.below(config.max_branch));
    model_t<S> alone = model;
    grow(spec, own, alone, b, length, branches[b], crash);
    if (crash) break;
  }
  return branches;
}

/// Run `run`'s case (config already clamped and checked): see parallel.hpp.
template <class S>
Drawn<command_t<S>> draw_case(S& spec, const CheckOptions& config, std::size_t run) {
  using Cmd = command_t<S>;
  Drawn<Cmd> d;
  statem::Rng rng{statem::run_seed(*config.seed, run)};
  std::optional<model_t<S>> model;
  if (!statem::guarded("initial", d.crash, [&] { model.emplace(spec.initial()); })) return d;
  const std::size_t prefix_length =
      static_cast<std::size_t>(rng.below(static_cast<std::uint64_t>(config.max_prefix) + 1));
  grow(spec, rng, *model, kPrefixCaller, prefix_length, d.c.prefix, d.crash);
  if (d.crash) return d;

  std::vector<std::vector<Cmd>> branches;
  bool done = false;
  for (std::size_t attempt = 0; attempt <= kMaxRedraws && !done; ++attempt) {
    branches = draw_branches(spec, rng, *model, config, d.crash);
    if (d.crash) break;
    while (interleavings(lengths(branches), kMaxInterleavings) > kMaxInterleavings) {
      trim_longest(branches);
    }
    bool admitted = false;
    if (!statem::guarded("precondition", d.crash,
                         [&] { admitted = branches_admissible(spec, *model, branches); })) {
      break;
    }
    done = admitted && non_empty(branches) >= kMinBranches;
  }
  if (!done && !d.crash) {
    // Still inadmissible after the redraws: trim command by command. Each
    // trim keeps only interleavings that were prefixes of admitted ones,
    // and empty branches are admissible, so this ends.
    for (;;) {
      bool admitted = false;
      if (!statem::guarded("precondition", d.crash,
                           [&] { admitted = branches_admissible(spec, *model, branches); }) ||
          admitted) {
        break;
      }
      trim_longest(branches);
    }
  }
  for (auto& b : branches) {
    if (!b.empty()) d.c.branches.push_back(std::move(b));
  }
  return d;
}

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_GENERATE_INL_HPP
