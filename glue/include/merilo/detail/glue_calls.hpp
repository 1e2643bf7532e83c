// merilo/detail/glue_calls.hpp — the glue calls, written once for every test
// framework.
//
// NOT a header to include on its own, and it has no include guard on
// purpose: <merilo/gtest.hpp>, <merilo/catch2.hpp> and <merilo/doctest.hpp>
// each include it inside their own namespace (merilo::testing,
// merilo::with_catch2, merilo::with_doctest), after defining there:
//
//   detail::kFramework                   the core::Framework value
//   detail::test_name()                  the running test's name
//   detail::fail_at(file, line, message) a non-fatal failure at file:line
//
// and after including the checkers' headers. So the three glues have the
// same calls with the same words, and a program may hold tests of two
// frameworks (each glue in its own namespace).
//
// Every call reports failures at the caller's file and line: the defaulted
// `file`/`line` arguments; leave them alone.

// ---- explore ---------------------------------------------------------------

/// Explores `sys` and fails the current test on a usage error, on a
/// violation (with its formatted trace and a paste-ready pinned test; with
/// the environment variable `MERILO_TRACE_HTML=DIR`, also the trace as an
/// HTML page in DIR), on truncation when `options.require_complete` is set,
/// and when a complete search never reached a sometimes property. Returns
/// the result for further assertions.
template <explore::System S>
explore::ExploreResult explore(S& sys, const explore::ExploreOptions& options,
                               const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  explore::ExploreResult r = explore::explore(sys, options);
  const std::string failure =
      explore::explore_failure(sys, options, r, detail::kFramework, detail::test_name());
  if (!failure.empty()) detail::fail_at(file, line, failure);
  return r;
}

/// `explore` on `sys.value`, whose pinned test builds the system with
/// `sys.text`, the caller's own expression:
/// `explore(MERILO_EXPR(turnstile::System<>{}), options)`. Without it the
/// pinned test builds `S{}`, and only when that breaks the same rule.
template <explore::System S>
explore::ExploreResult explore(core::Spelled<S>&& sys, const explore::ExploreOptions& options,
                               const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  explore::ExploreResult r = explore::explore(sys.value, options);
  const std::string failure = explore::explore_failure(sys.value, options, r, detail::kFramework,
                                                       detail::test_name(), std::string(sys.text));
  if (!failure.empty()) detail::fail_at(file, line, failure);
  return r;
}

/// Replays `trace` and fails the current test if it breaks a rule or no
/// longer fits, printing the formatted trace.
template <explore::System S>
void expect_replay_ok(S& sys, const explore::Trace& trace, const char* file = __builtin_FILE(),
                      int line = __builtin_LINE()) {
  const std::string failure = explore::replay_ok_failure(sys, trace);
  if (!failure.empty()) detail::fail_at(file, line, failure);
}

/// Replays `trace` and fails the current test unless it breaks a rule of
/// `kind` at its last step (a seeded bug is still found where it was).
template <explore::System S>
void expect_replay_finds(S& sys, const explore::Trace& trace, explore::ViolationKind kind,
                         const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  const std::string failure = explore::replay_finds_failure(sys, trace, kind);
  if (!failure.empty()) detail::fail_at(file, line, failure);
}

/// Fires every event at every machine of `table` and fails the current test
/// with every pair that broke a rule.
template <fsm::Totality T>
void expect_total(const T& table, const char* file = __builtin_FILE(),
                  int line = __builtin_LINE()) {
  const fsm::TotalResult r = fsm::total(table);
  if (!r.ok()) detail::fail_at(file, line, r.report());
}

// ---- statem ----------------------------------------------------------------

/// Runs `statem::check(spec, config)` and fails the current test on a usage
/// error, a health failure (a check whose runs were mostly starved) or a
/// failing run, with `statem::report` as the message: seed, run, original
/// and shrunk lists, failing step, violation and how to reproduce it.
/// Returns the result for further assertions.
template <class S>
requires statem::Spec<std::remove_cvref_t<S>> statem::CheckResult<statem::command_t<S>>
statem_check(S&& spec, const statem::CheckOptions& config, const char* file = __builtin_FILE(),
             int line = __builtin_LINE()) {
  auto r = statem::check(std::forward<S>(spec), config);
  const std::string failure = statem::detail::glue_failure(r);
  if (!failure.empty()) detail::fail_at(file, line, failure);
  return r;
}

// ---- parallel --------------------------------------------------------------

/// Runs `parallel::check(spec, config)` and fails the current test on a
/// usage error or a failing run, with `parallel::report` as the message
/// (the cases, the race as a timeline, the checker's explanation, how to
/// reproduce it) and, when the failure was found under a controlled
/// scheduler, a pinned test: it builds the spec as `Type{}` only when that
/// fails the pin too; wrap the spec in `MERILO_EXPR` to have it built your
/// way. Leave `spec_expr` alone as well. Returns the result for further
/// assertions.
template <class S>
requires parallel::Spec<std::remove_cvref_t<S>>
    parallel::CheckResult<parallel::command_t<S>, parallel::response_t<S>> parallel_check(
        S&& spec, const parallel::CheckOptions& config, const char* file = __builtin_FILE(),
        int line = __builtin_LINE(), std::string_view spec_expr = {}) {
  auto r = parallel::check(std::forward<S>(spec), config);
  const std::string failure = parallel::detail::glue_failure<S>(
      r, detail::kFramework, detail::test_name(), config, spec_expr);
  if (!failure.empty()) detail::fail_at(file, line, failure);
  return r;
}

/// `parallel_check` on `spec.value`, whose pinned test builds the spec
/// with `spec.text`, the caller's own expression:
/// `parallel_check(MERILO_EXPR(CounterSpec{.lost_update = true}), config)`.
template <class S>
requires parallel::Spec<S> parallel::CheckResult<parallel::command_t<S>, parallel::response_t<S>>
parallel_check(core::Spelled<S>&& spec, const parallel::CheckOptions& config,
               const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return parallel_check(std::move(spec.value), config, file, line, spec.text);
}

/// Replays the case and schedule of `token` (a failure's pin token) and
/// fails the current test while it fails (with the report) or when the
/// token no longer fits the spec.
template <class S>
requires parallel::Spec<std::remove_cvref_t<S>>
void expect_parallel_replay_ok(S&& spec, std::string_view token,
                               const parallel::CheckOptions& config = {},
                               const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  const std::string failure = parallel::detail::replay_failure(
      parallel::replay(std::forward<S>(spec), token, config), token);
  if (!failure.empty()) detail::fail_at(file, line, failure);
}
