%% accounts.erl -- two accounts, each a process that is also the lock on
%% its balance, the Erlang twin of Accounts in
%% tests/parallel/controlled_systems.hpp.
%%
%% transfer/2 moves 1 from one account to the other while holding both
%% locks and returns the sum of the two balances it wrote (always 20 when
%% nothing goes wrong). `racy` takes the locks in argument order (from,
%% then to), so two opposite transfers that each took their first lock wait
%% on each other: the lock-order deadlock. `fixed` always takes acct_a
%% first.
%%
%% A lock request waits at most ?LOCK_WAIT_MS; one that times out gives
%% back the locks its transfer holds and the transfer returns `deadlock`
%% (so a deadlocked run ends, and the postcondition sees it). 200 ms is
%% merilo's stall_time, after which its free-running modes report a likely
%% deadlock; a healthy transfer holds a lock for microseconds.
-module(accounts).
-export([start/0, stop/0, transfer/2]).

-define(LOCK_WAIT_MS, 200).
-define(NAMES, [acct_a, acct_b]).

start() ->
    lists:foreach(fun(Name) ->
                          Pid = spawn(fun() -> free(10) end),
                          true = register(Name, Pid)
                  end, ?NAMES).

%% Kills both processes and waits until they are gone, so that the names
%% are free for the next start/0.
stop() ->
    lists:foreach(fun(Name) ->
                          Pid = whereis(Name),
                          Mon = monitor(process, Pid),
                          exit(Pid, kill),
                          receive {'DOWN', Mon, process, Pid, _} -> ok end
                  end, ?NAMES).

transfer(Variant, Move) ->
    {From, To} = case Move of
                     a_to_b -> {acct_a, acct_b};
                     b_to_a -> {acct_b, acct_a}
                 end,
    {First, Second} = case Variant of
                          racy -> {From, To};
                          fixed -> {acct_a, acct_b}
                      end,
    case lock(First) of
        timeout ->
            deadlock;
        {ok, Ref1} ->
            case lock(Second) of
                timeout ->
                    unlock(First, Ref1),
                    deadlock;
                {ok, Ref2} ->
                    Refs = #{First => Ref1, Second => Ref2},
                    Left = add(From, maps:get(From, Refs), -1),
                    Right = add(To, maps:get(To, Refs), 1),
                    unlock(Second, Ref2),
                    unlock(First, Ref1),
                    Left + Right
            end
    end.

%% The client side of the lock.

lock(Account) ->
    Ref = make_ref(),
    Account ! {lock, self(), Ref},
    receive
        {granted, Ref} -> {ok, Ref}
    after ?LOCK_WAIT_MS ->
            %% The account drops the request, or releases the lock if it
            %% was granted meanwhile; a late {granted, Ref} is never read.
            Account ! {cancel, Ref},
            timeout
    end.

unlock(Account, Ref) ->
    Account ! {unlock, Ref},
    ok.

add(Account, Ref, Delta) ->
    Account ! {add, self(), Ref, Delta},
    receive {balance, Ref, Balance} -> Balance end.

%% The account process: free, or held by one lock request with the others
%% queued in arrival order.

free(Balance) ->
    receive
        {lock, Pid, Ref} ->
            Pid ! {granted, Ref},
            held(Balance, Ref, queue:new());
        _Stale ->
            free(Balance)
    end.

held(Balance, Holder, Waiting) ->
    receive
        {lock, Pid, Ref} ->
            held(Balance, Holder, queue:in({Pid, Ref}, Waiting));
        {add, Pid, Holder, Delta} ->
            Pid ! {balance, Holder, Balance + Delta},
            held(Balance + Delta, Holder, Waiting);
        {unlock, Holder} ->
            next(Balance, Waiting);
        {cancel, Holder} ->
            next(Balance, Waiting);
        {cancel, Ref} ->
            held(Balance, Holder,
                 queue:filter(fun({_, R}) -> R =/= Ref end, Waiting));
        _Stale ->
            held(Balance, Holder, Waiting)
    end.

next(Balance, Waiting) ->
    case queue:out(Waiting) of
        {empty, _} ->
            free(Balance);
        {{value, {Pid, Ref}}, Rest} ->
            Pid ! {granted, Ref},
            held(Balance, Ref, Rest)
    end.
