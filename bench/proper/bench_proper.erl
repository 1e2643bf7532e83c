%% bench_proper.erl -- PropEr's parallel statem on the four seeded races of
%% bench/parallel/bench_schedulers.cpp, in the same units as its rows:
%%   1. for each bug, Checks independent checks (proper:quickcheck at its
%%      defaults: 100 tests, sizes 1..42, 500 shrinks): found /Checks,
%%      shrunk to the least case /Checks, median runs to the first failure,
%%      median runs per check, median ms per check;
%%   2. each fixed variant checked once: pass or FAIL;
%%   3. the three ETS bugs with an erlang:yield() planted in their window
%%      (variant `widened`), the same rows: not a measure of the bug, a
%%      check that the harness finds it when the branches do interleave.
%% PropEr 1.2 takes no seed (each check seeds itself from the clock), so the
%% checks are independent runs, not seeds 1..N.
%%
%% Usage: erl -noshell -pa DIR -run bench_proper main [Checks] -s init stop
%% (default 100; BENCH_PROPER_ONLY=word picks the bugs whose name contains
%% it and leaves out parts 2 and 3). Prints Markdown rows.
-module(bench_proper).
-export([main/0, main/1, check/2]).

%% {bug, model, least calls}; the same least cases as bench_schedulers.
bugs() ->
    [{"lost increment", counter_statem, 2},
     {"double insert", set_statem, 2},
     {"lock-order deadlock", accounts_statem, 2},
     {"queue over capacity", pair_queue_statem, 3}].

fixed() ->
    [{"counter", counter_statem}, {"set", set_statem},
     {"accounts", accounts_statem}, {"queue", pair_queue_statem}].

main() -> main([]).

main(Args) ->
    Checks = case Args of
                 [N | _] -> list_to_integer(N);
                 [] -> 100
             end,
    Only = os:getenv("BENCH_PROPER_ONLY", ""),
    io:format("## PropEr ~s on OTP ~s, ~b schedulers online, ~b checks per bug~n~n",
              [proper_version(), erlang:system_info(otp_release),
               erlang:system_info(schedulers_online), Checks]),
    io:format("| bug | tool | found | shrunk to least | median runs to first failure | "
              "median runs per check | median ms per check |~n"
              "| --- | --- | --- | --- | --- | --- | --- |~n"),
    [row(Bug, Model, racy, Least, Checks) || {Bug, Model, Least} <- bugs(),
                                             string:find(Bug, Only) =/= nomatch],
    case Only of
        "" ->
            io:format("~n## fixed variants, one check each (100 tests)~n~n"
                      "| system | tool | verdict | ms per check | runs |~n"
                      "| --- | --- | --- | --- | --- |~n"),
            [fixed_row(Name, Model) || {Name, Model} <- fixed()],
            io:format("~n## the ETS bugs with erlang:yield() in the window, ~b checks per bug~n~n"
                      "| bug | tool | found | shrunk to least | median runs to first failure | "
                      "median runs per check | median ms per check |~n"
                      "| --- | --- | --- | --- | --- | --- | --- |~n", [Checks]),
            [row(Bug, Model, widened, Least, Checks) || {Bug, Model, Least} <- bugs(),
                                                        Model =/= accounts_statem];
        _ ->
            ok
    end,
    ok.

proper_version() ->
    _ = application:load(proper),
    case application:get_key(proper, vsn) of
        {ok, Vsn} -> Vsn;
        undefined -> "?"
    end.

%% One check of Model's property on Variant (racy, widened or fixed):
%% {passed | failed | {error, _}, calls in the shrunk case, runs, the run
%% that first failed (0: none), why it failed, ms}. tests/bench's smoke test
%% calls it too.
check(Model, Variant) ->
    ok = parallel_prop:reset(),
    Start = erlang:monotonic_time(microsecond),
    Outcome = proper:quickcheck(Model:prop_parallel(Variant), [quiet, long_result]),
    Ms = (erlang:monotonic_time(microsecond) - Start) / 1000,
    {Runs, First, Why} = parallel_prop:counts(),
    case Outcome of
        true -> {passed, 0, Runs, First, Why, Ms};
        [{Seq, Par}] -> {failed, calls(Seq, Par), Runs, First, Why, Ms};
        Other -> {{error, Other}, 0, Runs, First, Why, Ms}
    end.

calls(Seq, Par) ->
    Set = fun(Cmds) -> length([C || {set, _, _} = C <- Cmds]) end,
    Set(Seq) + lists:sum([Set(B) || B <- Par]).

row(Bug, Model, Variant, Least, Checks) ->
    Results = [check(Model, Variant) || _ <- lists:seq(1, Checks)],
    %% Found: the check failed, and its first failure was the bug's own
    %% (no interleaving fits the model, or a postcondition in the prefix),
    %% not a crash of the harness.
    Found = [R || {failed, _, _, _, Why, _} = R <- Results,
                  Why =:= no_possible_interleaving orelse Why =:= postcondition],
    Others = [Why || {Verdict, _, _, _, Why, _} <- Results, Verdict =/= passed,
                     Why =/= no_possible_interleaving, Why =/= postcondition],
    Shrunk = [R || {failed, Calls, _, _, _, _} = R <- Found, Calls =:= Least],
    Tool = case Variant of
               racy -> "PropEr";
               widened -> "PropEr, erlang:yield() in the window"
           end,
    io:format("| ~s | ~s | ~b/~b | ~b/~b | ~s | ~s | ~.1f |~n",
              [Bug, Tool, length(Found), Checks, length(Shrunk), Checks,
               median_int([First || {_, _, _, First, _, _} <- Found]),
               median_int([Runs || {_, _, Runs, _, _, _} <- Results]),
               median([Ms || {_, _, _, _, _, Ms} <- Results])]),
    case Others of
        [] -> ok;
        _ -> io:format("(~s: ~b checks failed otherwise: ~p)~n", [Bug, length(Others), Others])
    end.

fixed_row(Name, Model) ->
    {Verdict, _, Runs, _, Why, Ms} = check(Model, fixed),
    Text = case Verdict of
               passed -> "pass";
               _ -> io_lib:format("FAIL (~p)", [Why])
           end,
    io:format("| ~s | PropEr | ~s | ~b | ~b |~n", [Name, Text, round(Ms), Runs]).

median([]) -> 0.0;
median(Xs) -> lists:nth(length(Xs) div 2 + 1, lists:sort(Xs)).

median_int([]) -> "-";
median_int(Xs) -> integer_to_list(median(Xs)).
