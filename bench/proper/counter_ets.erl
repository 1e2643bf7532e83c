%% counter_ets.erl -- a counter in a named ETS table, the Erlang twin of
%% Counter in tests/parallel/controlled_systems.hpp.
%%
%% `racy` reads the value with ets:lookup and writes value + 1 with
%% ets:insert: two increments that both read before either writes lose one
%% (the lost increment). `fixed` is one ets:update_counter. Nothing is put
%% between the read and the write: the window is what the two ETS calls
%% leave, as in the C++ (a relaxed load, then a store). `widened` is the
%% racy one with an erlang:yield() in the window: not measured as the bug,
%% only to show that the harness sees the bug when the interleaving occurs.
-module(counter_ets).
-export([start/0, stop/0, inc/1, read/0]).

-define(TABLE, counter_ets).

%% A fresh table holding 0, owned by the caller (public: the branches of a
%% parallel case are other processes).
start() ->
    ?TABLE = ets:new(?TABLE, [named_table, public, set]),
    true = ets:insert(?TABLE, {n, 0}),
    ok.

stop() ->
    true = ets:delete(?TABLE),
    ok.

%% Adds one; returns the value after the increment.
inc(Variant) when Variant =:= racy; Variant =:= widened ->
    [{n, Seen}] = ets:lookup(?TABLE, n),
    window(Variant),
    true = ets:insert(?TABLE, {n, Seen + 1}),
    Seen + 1;
inc(fixed) ->
    ets:update_counter(?TABLE, n, 1).

read() ->
    [{n, N}] = ets:lookup(?TABLE, n),
    N.

%% Between the read and the write: nothing for `racy`.
window(racy) -> ok;
window(widened) -> erlang:yield().
