%% parallel_prop.erl -- the one property every model here is checked by:
%% a parallel case drawn by proper_statem:parallel_commands/2 (a sequential
%% prefix and two branches), run on a fresh system by
%% run_parallel_commands/2 (the branches in two new processes), passing
%% when some interleaving of the branches' results satisfies the model.
%%
%% Each run is also counted (see tally/1) for the bench: runs per check and
%% the run at which the check first failed.
-module(parallel_prop).
-include_lib("proper/include/proper.hrl").
-export([property/3, reset/0, tally/1, counts/0]).

%% Model: a proper_statem callback module; Init: its initial state (which
%% names the variant, racy or fixed); Sut: a module with start/0 and
%% stop/0 around the named system the commands call.
property(Model, Init, Sut) ->
    ?FORALL(Cmds, parallel_commands(Model, Init),
            begin
                ok = Sut:start(),
                Result = try run_parallel_commands(Model, Cmds) of
                             {_Seq, _Par, R} -> R
                         catch
                             Class:Reason -> {crash, Class, Reason}
                         after
                             Sut:stop()
                         end,
                tally(Result),
                Result =:= ok
            end).

%% The counters live in a persistent_term so that any process may bump
%% them: 1 = runs, 2 = the run that first failed (0: none yet).
reset() ->
    case persistent_term:get(?MODULE, undefined) of
        undefined -> persistent_term:put(?MODULE, counters:new(2, []));
        Ref -> counters:put(Ref, 1, 0), counters:put(Ref, 2, 0)
    end,
    put({?MODULE, first_reason}, none),
    ok.

tally(Result) ->
    Ref = persistent_term:get(?MODULE),
    counters:add(Ref, 1, 1),
    case Result =/= ok andalso counters:get(Ref, 2) =:= 0 of
        true ->
            counters:put(Ref, 2, counters:get(Ref, 1)),
            put({?MODULE, first_reason}, reason(Result));
        false ->
            ok
    end.

%% {runs, the run that first failed or 0, why it failed}.
counts() ->
    Ref = persistent_term:get(?MODULE),
    {counters:get(Ref, 1), counters:get(Ref, 2), get({?MODULE, first_reason})}.

reason({crash, Class, _}) -> Class;
reason({postcondition, _}) -> postcondition;
reason(Other) -> Other.
