%% pair_queue_statem.erl -- the PropEr model of pair_queue, the same as
%% QueueSpec in tests/parallel/controlled_systems.hpp: push (weight 2) and
%% pop (weight 1), no preconditions, the model the number of items; push
%% answers 1 below the capacity of 2 and 0 at it, pop 1 when there is an
%% item and 0 when there is none.
-module(pair_queue_statem).
-behaviour(proper_statem).
-include_lib("proper/include/proper.hrl").
-export([initial_state/0, command/1, precondition/2, next_state/3, postcondition/3]).
-export([prop_parallel/1]).

-define(CAPACITY, 2).

%% The state is {Variant, Size}.
initial_state() -> {racy, 0}.

command({Variant, _}) ->
    frequency([{2, {call, pair_queue, push, [Variant]}},
               {1, {call, pair_queue, pop, []}}]).

precondition(_, _) -> true.

next_state({Variant, Size}, _Res, {call, pair_queue, push, _}) ->
    {Variant, min(Size + 1, ?CAPACITY)};
next_state({Variant, Size}, _Res, {call, pair_queue, pop, _}) ->
    {Variant, max(Size - 1, 0)}.

postcondition({_, Size}, {call, pair_queue, push, _}, Got) ->
    Got =:= (case Size < ?CAPACITY of true -> 1; false -> 0 end);
postcondition({_, Size}, {call, pair_queue, pop, _}, Got) ->
    Got =:= (case Size > 0 of true -> 1; false -> 0 end).

prop_parallel(Variant) ->
    parallel_prop:property(?MODULE, {Variant, 0}, pair_queue).
