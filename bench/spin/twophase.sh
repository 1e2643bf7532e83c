#!/usr/bin/env bash
# twophase.sh N — prints Gray and Lamport's TwoPhase for N resource managers
# in Promela, as merilo's examples/tla_twophase/system.hpp models it.
#
# One process whose `do` loop picks any enabled action, each a d_step (one
# transition, no intermediate states), so SPIN's stored states are exactly
# the data states: 288 for 3 RMs, 8,832 for 5, ... as TLC and merilo count.
# rm[r]: 0 working, 1 prepared, 2 committed, 3 aborted; tm: 0 init,
# 1 committed, 2 aborted; tmp = tmPrepared; msgp, commit, abort = msgs.
set -euo pipefail
n=${1:?usage: twophase.sh RMS}
cat <<PML
#define N $n
byte rm[N];
byte tm;
bit tmp[N];
bit msgp[N];
bit commit;
bit abort;

active proctype twophase() {
  do
PML
for ((r = 0; r < n; r++)); do
  cat <<PML
  :: d_step { rm[$r] == 0 -> rm[$r] = 1; msgp[$r] = 1 }   /* RMPrepare($r) */
  :: d_step { rm[$r] == 0 -> rm[$r] = 3 }                 /* RMChooseToAbort($r) */
  :: d_step { commit == 1 -> rm[$r] = 2 }                 /* RMRcvCommitMsg($r) */
  :: d_step { abort == 1 -> rm[$r] = 3 }                  /* RMRcvAbortMsg($r) */
  :: d_step { tm == 0 && msgp[$r] == 1 -> tmp[$r] = 1 }   /* TMRcvPrepared($r) */
PML
done
all=$(for ((r = 0; r < n; r++)); do printf '%stmp[%d] == 1' "$([ $r -gt 0 ] && echo ' && ')" $r; done)
cat <<PML
  :: d_step { tm == 0 && $all -> tm = 1; commit = 1 }     /* TMCommit */
  :: d_step { tm == 0 -> tm = 2; abort = 1 }              /* TMAbort */
  od
}
PML
