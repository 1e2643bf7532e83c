#!/usr/bin/env bash
# lincheck_porcupine_set.sh MERILO_LINCHECK GEN_HISTORY [RUNS] — merilo-lincheck
# on 108 histories the size and shape of Porcupine's test data (issue 37):
# 102 etcd-register histories of 80-119 operations (`gen_history etcd 5 N
# SEED`: one register, 5 live clients, timeouts that hand the client a new
# process number, as Jepsen's etcd logs do) and 6 kv histories of 1, 10
# and 50 clients (60, 380 and 2,000 operations, 10 keys), each linearizable
# and with one stale get.
#
# Checked as a user checks a store: one merilo-lincheck process per model
# over all its files. Prints, per set, the best of RUNS (default 3) runs'
# wall time and CPU time (user + system) of that process; then the ten
# hardest files (by CPU time, each checked alone, best of RUNS) and the
# same ten checked in one process. Refuses an unoptimized binary
# (../require_optimized.sh). The histories are deterministic (fixed seeds);
# times are this machine's.
set -euo pipefail
usage="usage: lincheck_porcupine_set.sh MERILO_LINCHECK GEN_HISTORY [RUNS]"
lincheck=${1:?$usage}
gen=${2:?$usage}
runs=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
"$here/../require_optimized.sh" "$lincheck"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/etcd" "$work/kv" "$work/hard"
for i in $(seq 0 101); do
  "$gen" etcd 5 $((80 + (i * 7) % 40)) $((i + 1)) > "$(printf '%s/etcd/etcd_%03d.jsonl' "$work" "$i")"
done
for c in 1:60 10:380 50:2000; do
  clients=${c%%:*}
  ops=${c##*:}
  "$gen" kv "$clients" "$ops" 10 "$clients" > "$(printf '%s/kv/c%02d-ok.jsonl' "$work" "$clients")"
  "$gen" kv "$clients" "$ops" 10 "$clients" stale \
    > "$(printf '%s/kv/c%02d-bad.jsonl' "$work" "$clients")"
done

# best "WALL CPU" (seconds, 3 decimals) of $runs runs of merilo-lincheck ARGS...
best() {
  local wall cpu bw="" bc=""
  for _ in $(seq "$runs"); do
    local t
    t=$( { TIMEFORMAT='%3R %3U %3S'; time "$lincheck" "$@" > /dev/null 2>&1 || true; } 2>&1 )
    wall=$(echo "$t" | awk '{print $1}')
    cpu=$(echo "$t" | awk '{printf "%.3f", $2 + $3}')
    if [ -z "$bw" ] || awk -v a="$wall" -v b="$bw" 'BEGIN { exit !(a < b) }'; then bw=$wall; fi
    if [ -z "$bc" ] || awk -v a="$cpu" -v b="$bc" 'BEGIN { exit !(a < b) }'; then bc=$cpu; fi
  done
  echo "$bw $bc"
}

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| set | files | verdicts | one process, best wall s | best CPU s |"
echo "| --- | ---: | --- | ---: | ---: |"
for set in etcd kv; do
  model=register
  [ "$set" = kv ] && model=kv
  "$lincheck" --model "$model" "$work/$set" > "$work/$set.out" 2>&1 || true
  verdicts=$(awk '/: linearizable: / { ok++ } /: not linearizable: / { bad++ } /: undecided: / { und++ }
    END { printf "%d linearizable, %d not, %d undecided", ok, bad, und }' "$work/$set.out")
  read -r wall cpu < <(best --model "$model" "$work/$set")
  echo "| $set | $(ls "$work/$set" | wc -l) | $verdicts | $wall | $cpu |"
done

# The ten hardest files: each checked alone, ranked by CPU time.
for f in "$work"/etcd/*.jsonl "$work"/kv/*.jsonl; do
  model=register
  case "$f" in */kv/*) model=kv ;; esac
  read -r wall cpu < <(best --model "$model" "$f")
  echo "$cpu $wall $model $f"
done | sort -rn | head -10 > "$work/hard.txt"
echo
echo "| ten hardest, each alone | model | best wall s | best CPU s |"
echo "| --- | --- | ---: | ---: |"
while read -r cpu wall model f; do
  echo "| $(basename "$f") | $model | $wall | $cpu |"
  cp "$f" "$work/hard/$model-$(basename "$f")"
done < "$work/hard.txt"
for model in register kv; do
  if ls "$work/hard/$model-"* > /dev/null 2>&1; then
    read -r wall cpu < <(best --model "$model" "$work/hard/$model-"*)
    echo "| the $model ones in one process | $model | $wall | $cpu |"
  fi
done
