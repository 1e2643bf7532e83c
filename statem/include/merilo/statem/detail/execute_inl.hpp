// merilo/statem/detail/execute_inl.hpp — drawing a run's list (growing it
// by threading the model) and executing a list with crash capture. Included
// by statem_inl.hpp.
#ifndef MERILO_STATEM_DETAIL_EXECUTE_INL_HPP
#define MERILO_STATEM_DETAIL_EXECUTE_INL_HPP

#include <exception>  // std::current_exception: user crashes become violations

#include <merilo/statem/guard.hpp>  // guarded

namespace merilo::statem {

namespace detail {

/// `cmd` through `core::describe`; a throwing describe prints a placeholder.
template <class Cmd>
std::string print(const Cmd& cmd) noexcept {
  try {
    return core::describe(cmd);
  } catch (...) {
    return "<describe threw>";
  }
}

/// The values of a list of trees.
template <class Cmd>
std::vector<Cmd> values(const std::vector<Tree<Cmd>>& trees) {
  std::vector<Cmd> out;
  out.reserve(trees.size());
  for (const Tree<Cmd>& t : trees) out.push_back(t.value());
  return out;
}

/// A drawn list: the trees of its commands, a crash that cut the draw, a
/// usage error (an invalid generator), and whether it came out starved.
template <class Cmd>
struct Grown {
  std::vector<Tree<Cmd>> trees;
  MaybeViolation crash;
  std::string error;
  bool starved = false;
};

/// Draws run `run`'s list at `size`: a length in [1, bound], then one
/// command at a time from `command(model)`, threading the model through
/// `next_model`. A rejected (or given-up) draw is retried; after
/// `kMaxConsecutiveRejections` in a row the list ends early.
///
/// `g` is cleared first and filled in place, so a check that draws many
/// runs reuses one buffer for their trees.
template <class S>
void grow_into(S& spec, std::uint64_t seed, std::size_t run, std::uint64_t size, std::size_t bound,
               Grown<command_t<S>>& g) {
  using Cmd = command_t<S>;
  g.trees.clear();
  g.crash.reset();
  g.error.clear();
  g.starved = false;
  Rng rng{run_seed(seed, run), size};
  const std::size_t length =
      1 + static_cast<std::size_t>(rng.below(static_cast<std::uint64_t>(bound)));
  std::optional<model_t<S>> model;
  if (!guarded("initial", g.crash, [&] { model.emplace(spec.initial()); })) return;
  while (g.trees.size() < length) {
    bool accepted = false;
    for (std::size_t attempt = 0; attempt < kMaxConsecutiveRejections && !accepted; ++attempt) {
      std::optional<Tree<Cmd>> tree;
      std::string invalid;
      if (!guarded("command", g.crash, [&] {
            const Gen<Cmd> gen = spec.command(*model);
            if (!gen.error().empty()) {
              invalid = std::string(gen.error());
              return;
            }
            tree = gen(rng);
          })) {
        return;
      }
      if (!invalid.empty()) {
        g.error = invalid_generator(invalid);
        return;
      }
      if (!tree) continue;
      Admission admission = Admission::reject;
      MaybeViolation ignored;
      if (!guarded("precondition", ignored,
                   [&] { admission = spec.precondition(*model, tree->value()); })) {
        // Keep the command: executing the list reproduces this crash.
        g.trees.push_back(std::move(*tree));
        return;
      }
      if (admission == Admission::reject) continue;
      g.trees.push_back(std::move(*tree));
      if (!guarded("next_model", ignored, [&] {
            // The model is not needed after this step: moved in, so a spec
            // whose next_model takes it by value updates it in place.
            model_t<S> next = spec.next_model(std::move(*model), g.trees.back().value());
            model.emplace(std::move(next));
          })) {
        return;  // executing the list reproduces this crash too
      }
      accepted = true;
    }
    if (!accepted) {
      g.starved = g.trees.size() * 2 < length;
      break;
    }
  }
}

/// `grow_into` a fresh `Grown`.
template <class S>
Grown<command_t<S>> grow(S& spec, std::uint64_t seed, std::size_t run, std::uint64_t size,
                         std::size_t bound) {
  Grown<command_t<S>> g;
  grow_into(spec, seed, run, size, bound, g);
  return g;
}

/// Executes a list once on a fresh system: preconditions, execute,
/// next_model, finish; teardown on every path where a system exists.
///
/// The list is `count` commands, command i being `at(i)` (a `const
/// command_t<S>&`), so a drawn list runs straight from its trees without
/// copying the commands out.
template <class S, class At>
Execution execute_each(S& spec, std::size_t count, const At& at) {
  Execution out;
  std::optional<model_t<S>> model;
  if (!guarded("initial", out.violation, [&] { model.emplace(spec.initial()); })) {
    out.stage = FailureStage::setup;
    return out;
  }
  std::optional<sut_t<S>> sut;
  if (!guarded("new_sut", out.violation, [&] { sut.emplace(spec.new_sut()); })) {
    out.stage = FailureStage::setup;
    return out;
  }
  out.stage = FailureStage::command;
  for (std::size_t i = 0; i < count && !out.violation; ++i) {
    out.step = i;
    const command_t<S>& cmd = at(i);
    Admission admission = Admission::reject;
    if (!guarded("precondition", out.violation,
                 [&] { admission = spec.precondition(*model, cmd); })) {
      break;
    }
    if (admission == Admission::reject) {
      out.violation = inadmissible(i, print(cmd));
      break;
    }
    if (!guarded("execute", out.violation,
                 [&] { out.violation = spec.execute(*sut, *model, cmd); }) ||
        out.violation) {
      break;
    }
    guarded("next_model", out.violation, [&] {
      model_t<S> next = spec.next_model(std::move(*model), cmd);
      model.emplace(std::move(next));
    });
  }
  if (!out.violation) {
    out.stage = FailureStage::finish;
    out.step = count;
    guarded("finish", out.violation, [&] { out.violation = spec.finish(*sut, *model); });
  }
  try {
    spec.teardown(*sut);
  } catch (...) {  // NOLINT(bugprone-empty-catch): a teardown crash is discarded by contract
  }
  return out;
}

/// `execute_each` over the commands of `list`.
template <class S>
Execution execute_list(S& spec, const std::vector<command_t<S>>& list) {
  return execute_each(spec, list.size(),
                      [&list](std::size_t i) -> const command_t<S>& { return list[i]; });
}

/// `execute_each` over the values of `trees` (a drawn list, not copied).
template <class S>
Execution execute_trees(S& spec, const std::vector<Tree<command_t<S>>>& trees) {
  return execute_each(spec, trees.size(),
                      [&trees](std::size_t i) -> const command_t<S>& { return trees[i].value(); });
}

/// The index of the first command of `list` its precondition rejects in
/// the model the earlier ones lead to, or `list.size()` when all are
/// admitted. A crash counts as admitted: executing the list reproduces it
/// as a `statem.crash` violation, judged like any other.
template <class S>
std::size_t first_inadmissible(S& spec, const std::vector<command_t<S>>& list) noexcept {
  std::size_t i = 0;
  try {
    std::optional<model_t<S>> model;
    model.emplace(spec.initial());
    for (; i < list.size(); ++i) {
      if (spec.precondition(*model, list[i]) == Admission::reject) return i;
      model_t<S> next = spec.next_model(std::move(*model), list[i]);
      model.emplace(std::move(next));
    }
  } catch (...) {
    return list.size();
  }
  return list.size();
}

}  // namespace detail

}  // namespace merilo::statem

#endif  // MERILO_STATEM_DETAIL_EXECUTE_INL_HPP
