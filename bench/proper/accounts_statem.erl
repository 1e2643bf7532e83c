%% accounts_statem.erl -- the PropEr model of accounts, the same as
%% AccountsSpec in tests/parallel/controlled_systems.hpp: transfers a->b
%% and b->a drawn with equal weight, no preconditions; every transfer must
%% answer a total of 20 (a deadlocked one answers `deadlock`).
-module(accounts_statem).
-behaviour(proper_statem).
-include_lib("proper/include/proper.hrl").
-export([initial_state/0, command/1, precondition/2, next_state/3, postcondition/3]).
-export([prop_parallel/1]).

%% The state is the variant alone: the model has nothing else to track.
initial_state() -> racy.

command(Variant) ->
    {call, accounts, transfer, [Variant, oneof([a_to_b, b_to_a])]}.

precondition(_, _) -> true.

next_state(Variant, _Res, _Call) -> Variant.

postcondition(_, {call, accounts, transfer, _}, Total) -> Total =:= 20.

prop_parallel(Variant) ->
    parallel_prop:property(?MODULE, Variant, accounts).
