%% set_statem.erl -- the PropEr model of set_ets, the same as SetSpec in
%% tests/parallel/controlled_systems.hpp: insert (weight 2) and contains
%% (weight 1) of 0 or 1, no preconditions, the model the members; insert
%% answers whether the number was new, contains whether it is a member.
-module(set_statem).
-behaviour(proper_statem).
-include_lib("proper/include/proper.hrl").
-export([initial_state/0, command/1, precondition/2, next_state/3, postcondition/3]).
-export([prop_parallel/1]).

%% The state is {Variant, Members}, Members an ordset.
initial_state() -> {racy, []}.

command({Variant, _}) ->
    frequency([{2, {call, set_ets, insert, [Variant, range(0, 1)]}},
               {1, {call, set_ets, contains, [range(0, 1)]}}]).

precondition(_, _) -> true.

next_state({Variant, Members}, _Res, {call, set_ets, insert, [_, X]}) ->
    {Variant, ordsets:add_element(X, Members)};
next_state(State, _Res, {call, set_ets, contains, _}) ->
    State.

postcondition({_, Members}, {call, set_ets, insert, [_, X]}, Got) ->
    Got =:= not ordsets:is_element(X, Members);
postcondition({_, Members}, {call, set_ets, contains, [X]}, Got) ->
    Got =:= ordsets:is_element(X, Members).

prop_parallel(Variant) ->
    parallel_prop:property(?MODULE, {Variant, []}, set_ets).
