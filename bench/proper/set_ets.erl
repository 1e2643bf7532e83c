%% set_ets.erl -- a set of small numbers in a named ETS table, the Erlang
%% twin of SmallSet in tests/parallel/controlled_systems.hpp.
%%
%% insert/2 returns whether the number was new. `racy` asks ets:lookup and
%% then calls ets:insert, two atomic calls with a gap between them, so two
%% inserts of one number can both answer true (the double insert), as the
%% C++ one checks and appends in two lock sections. `fixed` is one
%% ets:insert_new. `widened` is the racy one with an erlang:yield() in the
%% window, to show that the harness sees the bug when the interleaving
%% occurs (not measured as the bug).
-module(set_ets).
-export([start/0, stop/0, insert/2, contains/1]).

-define(TABLE, set_ets).

start() ->
    ?TABLE = ets:new(?TABLE, [named_table, public, set]),
    ok.

stop() ->
    true = ets:delete(?TABLE),
    ok.

insert(Variant, X) when Variant =:= racy; Variant =:= widened ->
    case ets:lookup(?TABLE, X) of
        [] ->
            window(Variant),
            true = ets:insert(?TABLE, {X}),
            true;
        [_] ->
            false
    end;
insert(fixed, X) ->
    ets:insert_new(?TABLE, {X}).

contains(X) ->
    ets:member(?TABLE, X).

%% Between the check and the insert: nothing for `racy`.
window(racy) -> ok;
window(widened) -> erlang:yield().
