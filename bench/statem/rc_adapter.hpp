// rc_adapter.hpp — runs a statem spec (the shape of tests/statem/deep_systems.hpp:
// initial, precondition, next_model, new_sut, execute, finish, teardown)
// through RapidCheck's state-machine testing, so the peer column of
// bench_statem_rc tests the very same system, model and checks as merilo.
// Only the command generator is RapidCheck's own (a `rc::Gen` of the spec's
// command type, written to draw what the spec's `command()` draws).
//
// One check is `rc::detail::checkProperty` with an explicit `TestParams`
// (seed, 100 tests, max size 100) and an empty reproduce map, so neither
// RC_PARAMS nor a previous check changes it. A listener counts the shrink
// executions; the property records the command list of every failing
// execution, and the last one is the shrunk counterexample (RapidCheck
// accepts every failing shrink candidate and stops after the last one).
//
// NOTE: bench-only code; it uses RapidCheck's `rc::detail` entry points,
// which are the only way the installed version offers to pass a seed per
// check. Its headers are system headers (/usr/include), so merilo's
// warning flags do not reach them.
#ifndef MERILO_BENCH_STATEM_RC_ADAPTER_HPP
#define MERILO_BENCH_STATEM_RC_ADAPTER_HPP

#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <merilo/statem/statem.hpp>

namespace rc_peer {

/// What one RapidCheck check of a spec found.
template <class Cmd>
struct PeerResult {
  bool found = false;                 ///< A test case failed.
  std::string error;                  ///< RapidCheck gave up or reported an error (then !found).
  std::size_t runs = 0;               ///< Test cases run, the failing one included.
  std::size_t shrink_executions = 0;  ///< Shrink candidates executed.
  std::size_t shrinks_accepted = 0;   ///< Of those, the ones that failed (and were kept).
  std::size_t commands_run = 0;       ///< Commands executed, shrink executions included.
  std::vector<Cmd> shrunk;            ///< The shrunk counterexample (empty when !found).
  std::string counterexample;         ///< RapidCheck's own rendering of it.
};

/// One command of `Spec` as a RapidCheck command: the spec's precondition,
/// model step and `execute` check.
template <class Spec>
class Step final : public rc::state::Command<typename Spec::model_type, typename Spec::sut_type> {
 public:
  using Cmd = typename Spec::command_type;
  using Model = typename Spec::model_type;
  using Sut = typename Spec::sut_type;

  Step(std::shared_ptr<const Spec> spec, Cmd c) : spec_(std::move(spec)), cmd_(std::move(c)) {}

  /// The wrapped command.
  [[nodiscard]] const Cmd& command() const noexcept { return cmd_; }

  void checkPreconditions(const Model& m) const override {
    if (spec_->precondition(m, cmd_) != merilo::statem::Admission::admit) {
      throw rc::detail::CaseResult(rc::detail::CaseResult::Type::Discard, "precondition");
    }
  }
  void apply(Model& m) const override { m = spec_->next_model(std::move(m), cmd_); }
  void run(const Model& m, Sut& sut) const override {
    const merilo::statem::MaybeViolation v = spec_->execute(sut, m, cmd_);
    if (v) {
      throw rc::detail::CaseResult(rc::detail::CaseResult::Type::Failure,
                                   v->tag + ": " + v->detail);
    }
  }
  void show(std::ostream& os) const override { os << merilo_describe(cmd_); }

 private:
  std::shared_ptr<const Spec> spec_;
  Cmd cmd_;
};

/// Counts the shrink candidates RapidCheck executes.
class ShrinkCounter final : public rc::detail::TestListener {
 public:
  std::size_t tried = 0;     ///< Shrink candidates executed.
  std::size_t accepted = 0;  ///< Candidates that failed (kept).

  void onTestCaseFinished(const rc::detail::CaseDescription& /*d*/) override {}
  void onShrinkTried(const rc::detail::CaseDescription& /*d*/, bool ok) override {
    ++tried;
    if (ok) ++accepted;
  }
  void onTestFinished(const rc::detail::TestMetadata& /*m*/,
                      const rc::detail::TestResult& /*r*/) override {}
};

/// Checks `spec` with RapidCheck: `tests` test cases up to size `max_size`,
/// seeded with `seed`, commands drawn by `command_gen`.
template <class Spec>
PeerResult<typename Spec::command_type> check(
    const Spec& spec, const rc::Gen<typename Spec::command_type>& command_gen, std::uint64_t seed,
    int tests = 100, int max_size = 100) {
  using Cmd = typename Spec::command_type;
  using Base = rc::state::Command<typename Spec::model_type, typename Spec::sut_type>;
  using Ptr = std::shared_ptr<const Base>;

  const auto shared_spec = std::make_shared<const Spec>(spec);
  const rc::Gen<Ptr> step_gen = rc::gen::map(command_gen, [shared_spec](Cmd c) {
    return Ptr(std::make_shared<const Step<Spec>>(shared_spec, std::move(c)));
  });
  std::vector<Cmd> failing;
  std::size_t commands_run = 0;

  const auto property = rc::detail::toProperty([&] {
    const auto steps = *rc::state::gen::commands(
        [shared_spec] { return shared_spec->initial(); },
        [step_gen](const typename Spec::model_type& /*m*/) { return step_gen; });
    std::vector<Cmd> list;
    list.reserve(steps.size());
    for (const Ptr& p : steps) list.push_back(static_cast<const Step<Spec>&>(*p).command());

    auto model = shared_spec->initial();
    auto sut = shared_spec->new_sut();
    try {
      for (const Ptr& p : steps) {
        ++commands_run;
        p->run(model, sut);
        p->apply(model);
      }
      const merilo::statem::MaybeViolation v = shared_spec->finish(sut, model);
      if (v) {
        throw rc::detail::CaseResult(rc::detail::CaseResult::Type::Failure,
                                     v->tag + ": " + v->detail);
      }
    } catch (...) {
      shared_spec->teardown(sut);
      failing = std::move(list);
      throw;
    }
    shared_spec->teardown(sut);
  });

  rc::detail::TestMetadata metadata;
  metadata.id = "merilo-peer";
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = tests;
  params.maxSize = max_size;
  ShrinkCounter counter;
  const std::unordered_map<std::string, rc::detail::Reproduce> no_reproduce;
  const rc::detail::TestResult result =
      rc::detail::checkProperty(property, metadata, params, counter, no_reproduce);

  PeerResult<Cmd> out;
  out.shrink_executions = counter.tried;
  out.shrinks_accepted = counter.accepted;
  out.commands_run = commands_run;
  rc::detail::FailureResult failure;
  rc::detail::SuccessResult success;
  rc::detail::GaveUpResult gave_up;
  rc::detail::Error error;
  if (result.match(failure)) {
    out.found = true;
    out.runs = static_cast<std::size_t>(failure.numSuccess) + 1;
    out.shrunk = std::move(failing);
    for (const auto& [type, value] : failure.counterExample) out.counterexample += value + "\n";
  } else if (result.match(success)) {
    out.runs = static_cast<std::size_t>(success.numSuccess);
  } else if (result.match(gave_up)) {
    out.error = "RapidCheck gave up: " + gave_up.description;
  } else if (result.match(error)) {
    out.error = "RapidCheck error: " + error.description;
  }
  return out;
}

}  // namespace rc_peer

#endif  // MERILO_BENCH_STATEM_RC_ADAPTER_HPP
