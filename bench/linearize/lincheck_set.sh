#!/usr/bin/env bash
# lincheck_set.sh MERILO_LINCHECK GEN_HISTORY [JOBS] — merilo-lincheck on a
# set shaped like Porcupine's test histories (issue 23): 100 etcd-register
# histories of 100-2,000 operations (`gen_history etcd 5 N SEED`: one
# register, 5 live clients, 1 call in 10 timing out) and 6 kv histories of
# 1, 10 and 50 clients, linearizable and with one stale get
# (`gen_history kv C 1000 10 SEED [stale]`). Each set is checked by one
# merilo-lincheck process given the directory (--jobs JOBS, default 1), so
# a file costs its check, not a process start.
#
# Prints, per set: the files, the verdicts, the whole process's wall time
# (/usr/bin/time), and the slowest file checked alone (its own process,
# start-up included). Refuses an unoptimized binary
# (../require_optimized.sh). The histories are deterministic (fixed seeds);
# times are this machine's, so run it in one go beside what it is compared
# with.
set -euo pipefail
lincheck=${1:?usage: lincheck_set.sh MERILO_LINCHECK GEN_HISTORY [JOBS]}
gen=${2:?usage: lincheck_set.sh MERILO_LINCHECK GEN_HISTORY [JOBS]}
jobs=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
"$here/../require_optimized.sh" "$lincheck"
[ -x /usr/bin/time ] || { echo "lincheck_set.sh: /usr/bin/time is missing (apt-get install -y time)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/etcd" "$work/kv"
for i in $(seq 0 99); do
  n=$((100 + i * 1900 / 99))
  "$gen" etcd 5 "$n" "$((i + 1))" > "$(printf '%s/etcd/etcd_%03d.jsonl' "$work" "$i")"
done
for c in 1 10 50; do
  "$gen" kv "$c" 1000 10 "$c" > "$(printf '%s/kv/c%02d-ok.jsonl' "$work" "$c")"
  "$gen" kv "$c" 1000 10 "$c" stale > "$(printf '%s/kv/c%02d-bad.jsonl' "$work" "$c")"
done
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| set | files | linearizable | not | undecided | one process, wall s | slowest file alone, wall s |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
for set in etcd kv; do
  model=register
  [ "$set" = kv ] && model=kv
  status=0
  /usr/bin/time -f "%e" -o "$work/$set.time" "$lincheck" --model "$model" --timeout 60 \
    --jobs "$jobs" "$work/$set" > "$work/$set.out" 2> "$work/$set.err" || status=$?
  if [ "$status" -gt 2 ]; then
    echo "lincheck_set.sh: merilo-lincheck exited $status on the $set set:" >&2
    cat "$work/$set.err" >&2
    exit 1
  fi
  # The slowest file, each in a process of its own (start-up included).
  slow=""; max=-1
  for f in "$work/$set"/*.jsonl; do
    /usr/bin/time -f "%e" -o "$work/one.time" "$lincheck" --model "$model" --timeout 60 "$f" \
      > /dev/null 2>&1 || true
    t=$(tail -1 "$work/one.time")
    if awk -v t="$t" -v m="$max" 'BEGIN { exit !(t > m) }'; then max=$t; slow=$(basename "$f"); fi
  done
  awk -v set="$set" -v wall="$(tail -1 "$work/$set.time")" -v slow="$slow" -v max="$max" '
    /: linearizable: / { ok++ }
    /: not linearizable: / { bad++ }
    /: undecided: / { und++ }
    END { printf "| %s | %d | %d | %d | %d | %s | %s (%s s) |\n", set, NR, ok, bad, und, wall, slow, max }
  ' "$work/$set.out"
done
