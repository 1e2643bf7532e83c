// merilo/parallel/detail/judge.hpp — the one place parallel talks to
// merilo::linearize: the branches' histories in, a verdict and an
// explanation in words out. A change in linearize's result types is a
// change here only.
#ifndef MERILO_PARALLEL_DETAIL_JUDGE_HPP
#define MERILO_PARALLEL_DETAIL_JUDGE_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <merilo/core/describe.hpp>
#include <merilo/core/text.hpp>  // user text in the explanation, made printable
#include <merilo/linearize/check.hpp>
#include <merilo/linearize/format.hpp>
#include <merilo/parallel/detail/steps.hpp>
#include <merilo/parallel/failure.hpp>  // History
#include <merilo/parallel/spec.hpp>     // MaybeViolation

namespace merilo::parallel::detail {

/// What the checker concluded about a race.
enum class Judged : std::uint8_t { linearizable, not_linearizable, undecided, crashed };

/// The verdict and, when it is not `linearizable`, the checker's words.
struct Judgement {
  Judged verdict = Judged::undecided;
  std::string explanation;                 ///< The checker's explanation of the failed search.
  std::vector<linearize::CallRef> placed;  ///< The calls it placed, in order.
  std::vector<StuckCall> stuck;            ///< The calls none of which could go next.
  std::string error;                       ///< What crashed (Judged::crashed) or was refused.
};

/// The spec as linearize sees it: const calls forwarded to the user's spec,
/// whose `next_model` is given the response and the branch that made the
/// call when it asks for them (the history's index is the branch's).
template <class S>
struct Oracle {
  S* spec;
  MaybeViolation postcondition(const model_t<S>& m, const command_t<S>& c,
                               const response_t<S>& r) const {
    return spec->postcondition(m, c, r);
  }
  model_t<S> next_model(const model_t<S>& m, const command_t<S>& c, const response_t<S>& r,
                        linearize::Caller branch) const {
    return observed_next(*spec, m, c, r, branch);
  }
};

/// Judges `histories` (one per branch) from `model`, spending at most
/// `budget` postcondition evaluations.
template <class S>
Judgement judge(S& spec, const model_t<S>& model,
                const std::vector<History<command_t<S>, response_t<S>>>& histories,
                std::uint64_t budget) {
  using Cmd = command_t<S>;
  using Resp = response_t<S>;
  std::size_t total = 0;
  for (const History<Cmd, Resp>& h : histories) total += h.size();
  const Oracle<S> oracle{&spec};
  const auto result = linearize::check(oracle, model, histories, budget);
  Judgement j;
  switch (result.verdict) {
    case linearize::Verdict::linearizable:
      j.verdict = Judged::linearizable;
      return j;
    case linearize::Verdict::not_linearizable:
      j.verdict = Judged::not_linearizable;
      break;
    case linearize::Verdict::undecided:
      j.verdict = Judged::undecided;
      break;
    case linearize::Verdict::crashed:
      j.verdict = Judged::crashed;
      j.error = result.error;
      return j;
    case linearize::Verdict::usage_error:
      // The runner's own histories broke a rule of the checker (a clock
      // that went backwards): undecided, which is a failure, with why.
      j.verdict = Judged::undecided;
      j.error = result.error;
      return j;
  }
  const auto describe_call = [&](linearize::CallRef c) {
    const Call<Cmd, Resp>& call = histories[c.history][c.index];
    return core::printable(core::describe(call.command)) + " -> " +
           core::printable(core::describe(call.response));
  };
  const auto describe_violation = [](const statem::Violation& v) {
    return core::printable(v.tag) + ": " + core::printable(v.detail);
  };
  j.explanation = linearize::explain(result, total, describe_call, describe_violation);
  j.placed = result.explanation.prefix;
  for (const linearize::NextCall<statem::Violation>& n : result.explanation.next) {
    StuckCall s{n.call, {}};
    const bool overtaken = n.why == linearize::Blocked::overtaken;
    s.reason = linearize::blocked_reason(
        n.why, n.violation ? describe_violation(*n.violation) : std::string(),
        overtaken ? "branch " + std::to_string(n.overtaken_by.history) + " call " +
                        std::to_string(n.overtaken_by.index)
                  : std::string(),
        overtaken ? describe_call(n.overtaken_by) : std::string());
    if (n.call == result.explanation.unplaceable) {
      s.reason += "; no valid order places this call anywhere";
    }
    j.stuck.push_back(std::move(s));
  }
  return j;
}

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_JUDGE_HPP
