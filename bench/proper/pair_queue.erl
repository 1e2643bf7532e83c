%% pair_queue.erl -- a queue of capacity 2 kept in a named ETS table, the
%% Erlang twin of PairQueue in tests/parallel/controlled_systems.hpp.
%%
%% The table holds two counters: `held`, the items in the queue (their
%% values do not matter here), and `size`, the count a push checks. push/1
%% returns 1 when the item went in and 0 when the queue was full; pop/0
%% returns 1 when it took an item and 0 when the queue was empty.
%%
%% `racy` push reads `size`, stores the item (bumps `held`) and then bumps
%% `size`: two pushes that both read 1 put a third item in (over capacity).
%% `fixed` push reserves its place in `held` with one update_counter that
%% reads and caps in the same call, and then bumps `size`. pop takes from
%% `held` the same way and then lowers `size`. `widened` is the racy push
%% with an erlang:yield() in the window, to show that the harness sees the
%% bug when the interleaving occurs (not measured as the bug).
-module(pair_queue).
-export([start/0, stop/0, push/1, pop/0]).

-define(TABLE, pair_queue).
-define(CAPACITY, 2).

start() ->
    ?TABLE = ets:new(?TABLE, [named_table, public, set]),
    true = ets:insert(?TABLE, [{held, 0}, {size, 0}]),
    ok.

stop() ->
    true = ets:delete(?TABLE),
    ok.

push(Variant) when Variant =:= racy; Variant =:= widened ->
    [{size, Size}] = ets:lookup(?TABLE, size),
    case Size >= ?CAPACITY of
        true ->
            0;
        false ->
            window(Variant),
            _ = ets:update_counter(?TABLE, held, 1),
            _ = ets:update_counter(?TABLE, size, 1),
            1
    end;
push(fixed) ->
    %% [the count before, the count after], capped at the capacity.
    case ets:update_counter(?TABLE, held, [{2, 0}, {2, 1, ?CAPACITY, ?CAPACITY}]) of
        [Before, _] when Before >= ?CAPACITY ->
            0;
        [_, _] ->
            _ = ets:update_counter(?TABLE, size, 1),
            1
    end.

pop() ->
    %% A decrement below 0 is set back to 0.
    case ets:update_counter(?TABLE, held, [{2, 0}, {2, -1, 0, 0}]) of
        [0, _] ->
            0;
        [_, _] ->
            _ = ets:update_counter(?TABLE, size, -1),
            1
    end.

%% Between the check and the store: nothing for `racy`.
window(racy) -> ok;
window(widened) -> erlang:yield().
