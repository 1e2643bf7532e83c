// merilo/parallel/detail/fuzz_inl.hpp — template bodies of fuzz.hpp: one
// case as a `sync::run_input` body (the prefix on branch 0's thread, the
// branches on sync::threads, the checker's verdict), the verdict of the
// execution, the shortest schedule that repeats a failure, and seeding.
#ifndef MERILO_PARALLEL_DETAIL_FUZZ_INL_HPP
#define MERILO_PARALLEL_DETAIL_FUZZ_INL_HPP

#include <atomic>      // std::memory_order_seq_cst
#include <cstddef>     // std::size_t
#include <cstdint>     // std::int64_t
#include <exception>   // a callback's exception
#include <functional>  // the body
#include <memory>      // the shared race
#include <mutex>       // std::unique_lock over the gate
#include <optional>    // responses, the model
#include <span>        // the schedule
#include <string>      // texts
#include <utility>     // std::move, std::forward
#include <vector>      // threads, histories

#include <merilo/core/type_name.hpp>  // the pinned test's spec
#include <merilo/parallel/detail/controlled.hpp>
#include <merilo/parallel/detail/generate_inl.hpp>  // draw_case
#include <merilo/parallel/detail/judge.hpp>         // judge
#include <merilo/parallel/detail/steps.hpp>         // observed_next
#include <merilo/statem/guard.hpp>                  // guarded, crash_violation
#include <merilo/sync/sync.hpp>                     // thread, mutex, atomic

namespace merilo::parallel::detail {

/// The usage error of `options` ("" when they are usable).
[[nodiscard]] std::string fuzz_options_error(const FuzzOptions& options);
/// The check whose runs are the cases (clamped).
[[nodiscard]] CheckOptions fuzz_config(const FuzzOptions& options);
/// The run an input's header picks.
[[nodiscard]] std::size_t case_of(std::span<const std::uint8_t> input, std::size_t cases) noexcept;
/// `info`'s pin token for a case whose `case_check` is `case_hash`.
[[nodiscard]] std::string fuzz_token(const FuzzRunInfo& info, std::uint64_t case_hash);

/// A parsed fuzz pin token.
struct FuzzPin {
  std::string_view body;  ///< The token up to its check.
  std::uint64_t check = 0;
  std::uint64_t seed = 0;
  std::size_t run = 0;
  std::size_t branches = 0;
  std::size_t max_prefix = 0;
  std::size_t max_branch = 0;
  bool memory_model = true;
  std::vector<std::uint8_t> schedule;
};
/// Parses `token`; returns "" or what is wrong with it.
[[nodiscard]] std::string parse_fuzz_token(std::string_view token, FuzzPin& pin);

/// An input's commands and responses in words.
struct FuzzText {
  std::vector<std::string> prefix;
  std::vector<std::vector<std::string>> branches;
  std::vector<std::string> prefix_responses;
  std::vector<std::vector<CallText>> histories;
};
[[nodiscard]] std::string format_fuzz_report(const FuzzRunInfo& info, const FuzzText& text);

/// The verdict of an execution whose body left `own` (the case's own
/// verdict, may be empty) and that `sync` classified as `failure` (may be
/// empty): misuse first, then the case's verdict, then a deadlock or
/// livelock in parallel's words.
[[nodiscard]] MaybeViolation fuzz_verdict(const MaybeViolation& own,
                                          const std::optional<sync::ModelFailure>& failure);

/// Thrown by the body when the case failed, so that the execution fails.
struct CaseFailed : std::exception {
  [[nodiscard]] const char* what() const noexcept override {
    return "the case broke a rule (its verdict is in the report above)";
  }
};

/// What one execution's threads share.
template <class S>
struct FuzzRace {
  using Cmd = command_t<S>;
  using Resp = response_t<S>;
  std::shared_ptr<S> spec;
  const Case<Cmd>* tested = nullptr;
  std::uint64_t search_budget = 0;
  std::optional<sut_t<S>> sut;
  std::optional<model_t<S>> model;  // before the prefix; branch 0 moves it past it
  std::vector<Resp> prefix_responses;
  MaybeViolation prefix_verdict;
  std::size_t prefix_step = 0;
  bool prefix_done = false;  // guarded by `gate`
  bool prefix_ok = false;    // every prefix call returned and was right
  sync::mutex gate;
  sync::condition_variable opened;
  std::vector<History<Cmd, Resp>> histories;
  std::vector<MaybeViolation> crashes;
  sync::atomic<std::int64_t> clock{1};  // the calls' logical instants
  // The case's verdict.
  MaybeViolation violation;
  Evidence evidence = Evidence::unrecorded;
  std::string explanation;
  std::vector<StuckCall> stuck;
};

/// Runs `f`, turning an exception other than `sync::Cancelled` into the
/// crash of `callback`; a `sync::Cancelled` (the run was cancelled: a
/// deadlock) goes on, so the thread unwinds.
template <class F>
bool guarded_run(std::string_view callback, MaybeViolation& out, F&& f) {
  try {
    f();
    return true;
  } catch (const sync::Cancelled&) {
    throw;
  } catch (...) {
    try {
      out = statem::crash_violation(callback, std::current_exception());
    } catch (...) {  // NOLINT(bugprone-empty-catch): out of memory; a crash without its text
      out = statem::Violation{std::string(statem::kCrashTag), ""};
    }
    return false;
  }
}

/// The prefix, call by call, each response judged from the model (on
/// branch 0's thread, before its branch).
template <class S>
void run_fuzz_prefix(FuzzRace<S>& r) {
  S& s = *r.spec;
  bool ok = true;
  for (std::size_t k = 0; k < r.tested->prefix.size() && ok; ++k) {
    r.prefix_step = k;
    const command_t<S>& cmd = r.tested->prefix[k];
    std::optional<response_t<S>> response;
    ok = guarded_run("run", r.prefix_verdict, [&] { response.emplace(s.run(*r.sut, cmd)); }) &&
         statem::guarded("postcondition", r.prefix_verdict,
                         [&] { r.prefix_verdict = s.postcondition(*r.model, cmd, *response); }) &&
         !r.prefix_verdict && statem::guarded("next_model", r.prefix_verdict, [&] {
           model_t<S> next = observed_next(s, *r.model, cmd, *response, kPrefixCaller);
           r.model.emplace(std::move(next));
         });
    if (response) r.prefix_responses.push_back(std::move(*response));
  }
  r.prefix_ok = ok;
}

/// Branch `b`'s calls, each stamped with the race's clock at its
/// invocation and its return; stops at a crash.
template <class S>
void run_fuzz_branch(FuzzRace<S>& r, std::size_t b) {
  S& s = *r.spec;
  for (const command_t<S>& cmd : r.tested->branches[b]) {
    // The instants are the race's clock, an atomic counter: a call that
    // returned before another began did so in the clock's order, and its
    // return synchronises with that invocation, so the later call sees its
    // writes under the memory model too.
    const std::int64_t invoked = r.clock.fetch_add(1, std::memory_order_acq_rel);
    std::optional<response_t<S>> response;
    if (!guarded_run("run", r.crashes[b], [&] { response.emplace(s.run(*r.sut, cmd)); })) {
      r.crashes[b]->detail +=
          " (branch " + std::to_string(b) + ", command " + core::describe(cmd) + ")";
      return;
    }
    const std::int64_t returned = r.clock.fetch_add(1, std::memory_order_acq_rel);
    r.histories[b].push_back({cmd, std::move(*response), invoked, returned});
  }
}

/// After the threads are joined: a crash, the prefix's verdict, the
/// checker's, then `finish`'s.
template <class S>
void judge_fuzz_race(FuzzRace<S>& r) {
  S& s = *r.spec;
  if (!r.prefix_ok) {
    r.violation = r.prefix_verdict;
    r.evidence = Evidence::in_prefix;
    return;
  }
  for (const MaybeViolation& crash : r.crashes) {
    if (crash) {
      r.violation = crash;
      r.evidence = Evidence::unrecorded;
      return;
    }
  }
  const Judgement j = judge(s, *r.model, r.histories, r.search_budget);
  r.evidence = Evidence::raced;
  switch (j.verdict) {
    case Judged::linearizable:
      r.evidence = Evidence::after_race;
      guarded_run("finish", r.violation, [&] { r.violation = s.finish(*r.sut); });
      return;
    case Judged::not_linearizable:
      r.violation = statem::Violation{std::string(kNotLinearizableTag),
                                      "no order of the branches' calls satisfies the model"};
      break;
    case Judged::undecided:
      r.violation = statem::Violation{
          std::string(kUndecidedTag),
          j.error.empty() ? "the checker spent FuzzOptions::search_budget (" +
                                std::to_string(r.search_budget) + " evaluations) without deciding"
                          : "the checker refused the histories: " + j.error};
      break;
    case Judged::crashed:
      r.violation = statem::Violation{
          std::string(statem::kCrashTag),
          "an exception escaped postcondition or next_model while checking the race: " + j.error};
      break;
  }
  r.explanation = j.explanation;
  r.stuck = j.stuck;
}

/// One execution of the case: the body `sync::run_input` runs (thread 0).
template <class S>
void run_fuzz_body(const std::shared_ptr<FuzzRace<S>>& race) {
  FuzzRace<S>& r = *race;
  S& s = *r.spec;
  if (!statem::guarded("initial", r.violation, [&] { r.model.emplace(s.initial()); }) ||
      !statem::guarded("new_sut", r.violation, [&] { r.sut.emplace(s.new_sut()); })) {
    r.evidence = Evidence::unrecorded;
    throw CaseFailed{};
  }
  const std::size_t n = r.tested->branches.size();
  r.histories.resize(n);
  r.crashes.resize(n);
  r.prefix_ok = r.tested->prefix.empty();
  std::vector<sync::thread> threads;
  threads.reserve(n);
  threads.emplace_back([race] {
    FuzzRace<S>& own = *race;
    if (!own.tested->prefix.empty()) {
      run_fuzz_prefix(own);
      {
        std::unique_lock lock(own.gate);
        own.prefix_done = true;
      }
      own.opened.notify_all();
      if (!own.prefix_ok) return;
    }
    run_fuzz_branch(own, 0);
  });
  if (!r.tested->prefix.empty()) {
    std::unique_lock lock(r.gate);
    while (!r.prefix_done) r.opened.wait(lock);
  }
  if (r.prefix_ok) {
    for (std::size_t b = 1; b < n; ++b)
      threads.emplace_back([race, b] { run_fuzz_branch(*race, b); });
  }
  for (sync::thread& t : threads) t.join();
  judge_fuzz_race(r);
  if (r.sut) {
    try {
      s.teardown(*r.sut);
    } catch (const sync::Cancelled&) {
      throw;
    } catch (...) {  // NOLINT(bugprone-empty-catch): a teardown crash is discarded by contract
    }
  }
  // sync::mutex misuse outranks the case's verdict: the run's own
  // classification names it.
  if (Controller* c = active_controller(); c != nullptr && c->misuse()) return;
  if (r.violation) throw CaseFailed{};
}

/// Runs `c` once under `schedule`; fills the verdict, the evidence and the
/// execution into `out`.
template <class S, class Out>
void execute_fuzz(const std::shared_ptr<S>& spec, const FuzzOptions& options,
                  const Case<command_t<S>>& c, std::span<const std::uint8_t> schedule, Out& out) {
  std::shared_ptr<FuzzRace<S>> last;
  sync::ModelOptions mo;
  mo.memory_model = options.memory_model;
  mo.max_steps = options.max_steps;
  mo.name = out.name;
  const std::function<void()> body = [&] {
    auto race = std::make_shared<FuzzRace<S>>();
    race->spec = spec;
    race->tested = &c;
    race->search_budget = options.search_budget;
    last = race;
    run_fuzz_body(race);
  };
  out.execution = sync::run_input(mo, body, schedule);
  if (!out.execution.result.error.empty()) {
    out.error = out.execution.result.error;
    return;
  }
  FuzzRace<S>* r = last.get();
  out.violation =
      fuzz_verdict(r != nullptr ? r->violation : MaybeViolation{}, out.execution.result.failure);
  if (r == nullptr) return;
  out.prefix_responses = r->prefix_responses;
  if (r->evidence == Evidence::raced || r->evidence == Evidence::after_race) {
    out.histories = r->histories;
  }
  if (!out.violation) return;
  const bool own = r->violation && out.violation->tag == r->violation->tag;
  if (own) {
    out.evidence = r->evidence;
  } else {
    out.evidence =
        r->prefix_done || r->tested->prefix.empty() ? Evidence::unrecorded : Evidence::in_prefix;
  }
  out.prefix_step = r->prefix_step;
  out.explanation = r->explanation;
  out.stuck = r->stuck;
}

/// Draws run `run`'s case and runs it under `schedule` into `out`; with
/// `shorten`, a failure's token carries the shortest prefix of `schedule`
/// that makes the same execution.
template <class S, class Out>
void fuzz_case(const std::shared_ptr<S>& spec, const FuzzOptions& options, std::size_t run,
               std::span<const std::uint8_t> schedule, bool shorten, Out& out) {
  const CheckOptions config = fuzz_config(options);
  out.seed = options.seed;
  out.run = run;
  out.branches = config.branches;
  out.max_prefix = config.max_prefix;
  out.max_branch = config.max_branch;
  out.memory_model = options.memory_model;
  out.schedule.assign(schedule.begin(), schedule.end());
  out.name = options.name;
  out.spec_text = options.spec_text.empty() ? core::type_name<std::remove_cvref_t<S>>() + "{}"
                                            : options.spec_text;
  Drawn<command_t<S>> drawn = draw_case(*spec, config, run);
  out.tested = std::move(drawn.c);
  std::vector<std::uint8_t> pinned = out.schedule;
  if (drawn.crash) {
    out.violation = std::move(drawn.crash);
    out.violation->detail += " (while drawing the case)";
    pinned.clear();
  } else if (out.tested.branches.size() < kMinBranches) {
    out.violation = statem::Violation{
        std::string(kNoRaceTag),
        "the case has " + std::to_string(out.tested.branches.size()) +
            " non-empty branch(es) after " + std::to_string(kMaxRedraws) +
            " redraws and trimming: the preconditions admit no two commands in every "
            "interleaving after this prefix, so nothing raced"};
    out.evidence = Evidence::no_race;
    pinned.clear();
  } else {
    execute_fuzz(spec, options, out.tested, schedule, out);
    if (!out.error.empty()) return;
    const auto& failure = out.execution.result.failure;
    // (Not for a livelock: its threads stay parked for good, and each
    // trial would leave more behind.)
    if (out.violation && failure && shorten && out.violation->tag != kLivelockTag) {
      // The same choices make the same execution, and the bytes past the
      // last choice are never read: find a short prefix that makes the
      // same choices (halving; the full schedule always does).
      const auto same = [&](std::size_t k) {
        FuzzRun<command_t<S>, response_t<S>> trial;
        trial.name = out.name;
        execute_fuzz(spec, options, out.tested, schedule.first(k), trial);
        return trial.execution.result.failure &&
               trial.execution.result.failure->pin == failure->pin;
      };
      std::size_t lo = 0;
      std::size_t hi = schedule.size();
      if (hi > 0 && same(0)) {
        hi = 0;
      }
      while (hi - lo > 1) {
        const std::size_t mid = lo + (hi - lo) / 2;
        (same(mid) ? hi : lo) = mid;
      }
      pinned.assign(schedule.begin(), schedule.begin() + static_cast<std::ptrdiff_t>(hi));
    }
  }
  if (out.violation) {
    FuzzRunInfo at = static_cast<const FuzzRunInfo&>(out);
    at.schedule = std::move(pinned);
    out.token = fuzz_token(at, case_check_of(out.tested));
  }
}

}  // namespace merilo::parallel::detail

namespace merilo::parallel {

template <class Cmd, class Resp>
std::string FuzzRun<Cmd, Resp>::report() const {
  detail::FuzzText text;
  text.prefix = detail::describe_all(tested.prefix);
  for (const auto& b : tested.branches) text.branches.push_back(detail::describe_all(b));
  text.prefix_responses = detail::describe_all(prefix_responses);
  for (const History<Cmd, Resp>& h : histories) {
    std::vector<detail::CallText> calls;
    calls.reserve(h.size());
    for (const Call<Cmd, Resp>& c : h) {
      calls.push_back(
          {core::describe(c.command), core::describe(c.response), c.invoked_at, c.returned_at});
    }
    text.histories.push_back(std::move(calls));
  }
  return detail::format_fuzz_report(*this, text);
}

template <class S>
requires Spec<std::remove_cvref_t<S>> FuzzRun<command_t<S>, response_t<S>> run_input(
    S&& spec, const FuzzOptions& options, std::span<const std::uint8_t> input) {
  using Spec_ = std::remove_cvref_t<S>;
  FuzzRun<command_t<S>, response_t<S>> out;
  if (std::string e = detail::fuzz_options_error(options); !e.empty()) {
    out.error = std::move(e);
    return out;
  }
  const auto own = std::make_shared<Spec_>(std::forward<S>(spec));
  const std::span<const std::uint8_t> schedule = input.size() > kFuzzHeaderBytes
                                                     ? input.subspan(kFuzzHeaderBytes)
                                                     : std::span<const std::uint8_t>{};
  detail::fuzz_case(own, options, detail::case_of(input, options.cases), schedule, true, out);
  return out;
}

template <class S>
requires Spec<std::remove_cvref_t<S>> FuzzRun<command_t<S>, response_t<S>> replay_input(
    S&& spec, std::string_view token, const FuzzOptions& options) {
  using Spec_ = std::remove_cvref_t<S>;
  FuzzRun<command_t<S>, response_t<S>> out;
  detail::FuzzPin pin;
  if (std::string e = detail::parse_fuzz_token(token, pin); !e.empty()) {
    out.error = std::move(e);
    return out;
  }
  FuzzOptions o = options;
  o.seed = pin.seed;
  o.branches = pin.branches;
  o.max_prefix = pin.max_prefix;
  o.max_branch = pin.max_branch;
  o.memory_model = pin.memory_model;
  if (std::string e = detail::fuzz_options_error(o); !e.empty()) {
    out.error = std::move(e);
    return out;
  }
  const auto own = std::make_shared<Spec_>(std::forward<S>(spec));
  detail::fuzz_case(own, o, pin.run, pin.schedule, false, out);
  if (detail::pin_check(pin.body, detail::case_check_of(out.tested)) != pin.check) {
    FuzzRun<command_t<S>, response_t<S>> refused;
    refused.error = detail::pin_mismatch(token);
    return refused;
  }
  return out;
}

template <class S>
requires Spec<std::remove_cvref_t<S>> FuzzSeeds seed_inputs(S&& spec, const FuzzOptions& options) {
  using Spec_ = std::remove_cvref_t<S>;
  FuzzSeeds seeds;
  if (std::string e = detail::fuzz_options_error(options); !e.empty()) {
    seeds.error = std::move(e);
    return seeds;
  }
  const auto own = std::make_shared<Spec_>(std::forward<S>(spec));
  const CheckOptions config = detail::fuzz_config(options);
  const std::size_t cases = options.seed_cases < options.cases ? options.seed_cases : options.cases;
  seeds.complete = cases == options.cases;
  sync::ModelOptions mo;
  mo.memory_model = options.memory_model;
  mo.max_steps = options.max_steps;
  mo.preemptions = options.seed_preemptions;
  mo.max_executions = options.seed_executions;
  for (std::size_t run = 0; run < cases; ++run) {
    const std::vector<std::uint8_t> header = case_header(run);
    seeds.inputs.push_back(header);  // the case under the default schedule
    ++seeds.cases;
    detail::Drawn<command_t<S>> drawn = detail::draw_case(*own, config, run);
    if (drawn.crash || drawn.c.branches.size() < kMinBranches) continue;  // the header shows it
    const Case<command_t<S>>& c = drawn.c;
    const std::function<void()> body = [&] {
      auto race = std::make_shared<detail::FuzzRace<Spec_>>();
      race->spec = own;
      race->tested = &c;
      race->search_budget = options.search_budget;
      detail::run_fuzz_body(race);
    };
    const sync::Seeds found = sync::seed_inputs(mo, body);
    seeds.executions += found.executions;
    seeds.complete = seeds.complete && found.complete;
    for (const std::vector<std::uint8_t>& s : found.inputs) {
      if (s.empty()) continue;  // the header alone is there already
      std::vector<std::uint8_t> input = header;
      input.insert(input.end(), s.begin(), s.end());
      seeds.inputs.push_back(std::move(input));
    }
  }
  return seeds;
}

}  // namespace merilo::parallel

#endif  // MERILO_PARALLEL_DETAIL_FUZZ_INL_HPP
