%% counter_statem.erl -- the PropEr model of counter_ets, the same as
%% CounterSpec in tests/parallel/controlled_systems.hpp: inc and read drawn
%% with equal weight, no preconditions, the model a number; inc answers
%% the number after it, read the number.
-module(counter_statem).
-behaviour(proper_statem).
-include_lib("proper/include/proper.hrl").
-export([initial_state/0, command/1, precondition/2, next_state/3, postcondition/3]).
-export([prop_parallel/1]).

%% The state is {Variant, Count}; the variant rides along so that the
%% commands call the variant under test.
initial_state() -> {racy, 0}.

command({Variant, _}) ->
    oneof([{call, counter_ets, inc, [Variant]},
           {call, counter_ets, read, []}]).

precondition(_, _) -> true.

next_state({Variant, N}, _Res, {call, counter_ets, inc, _}) -> {Variant, N + 1};
next_state(State, _Res, {call, counter_ets, read, _}) -> State.

postcondition({_, N}, {call, counter_ets, inc, _}, Got) -> Got =:= N + 1;
postcondition({_, N}, {call, counter_ets, read, _}, Got) -> Got =:= N.

prop_parallel(Variant) ->
    parallel_prop:property(?MODULE, {Variant, 0}, counter_ets).
