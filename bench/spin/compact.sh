#!/usr/bin/env bash
# compact.sh BENCH_EXPLORE [RMS...] — the lossy modes side by side on
# TwoPhase, N resource managers (default: 9 10): merilo's hash compaction
# (40-bit values, the frontier and parent links spilled to disk past
# 16 MiB, THREADS threads, default 2) beside SPIN 6.5.2's own two, -DHC4 (4-byte compacted
# states) and -DBITSTATE (one bit array, 3 bits per state).
#
# SPIN's hash table is sized as compare.sh sizes it (-w: the next power of
# two above the state count); its bit array gets 2^5 = 32 times that many
# bits (-w plus 5, 4 to 8 bytes a state: about the memory merilo's 40-bit
# table takes). For each run: the states stored, how many the exact count
# says were missed (when it is known), what the tool itself reports about
# coverage (merilo: its bound on the probability that a world was missed;
# SPIN -DHC4: its "hash conflicts"; -DBITSTATE: its "hash factor"), wall and
# CPU seconds and peak RSS. The tools run one after another, once each.
# SPIN stops at N = SPIN_MAX_RMS (default 10): at 11 RMs each SPIN run is
# 20 minutes or more here.
#
# Spill files go to SPILL_DIR (default: the system's temporary directory).
set -euo pipefail
bench=${1:?usage: compact.sh path/to/bench_explore [RMS...]}
"$(dirname "$0")/../require_optimized.sh" "$bench"
shift
rms=("$@")
[ ${#rms[@]} -gt 0 ] || rms=(9 10)
spin_max=${SPIN_MAX_RMS:-10}
threads=${THREADS:-2}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common.sh
source "$here/common.sh"
# For sizing SPIN's tables only (within a few percent of the counts).
declare -A approx=([11]=370000000 [12]=2200000000)

row() {  # label states secs user sys rss_kb coverage
  local n=$1 label=$2 states=$3 secs=$4 user=$5 sys=$6 rss=$7 cov=$8 missed="?"
  [ -z "${expected[$n]:-}" ] || missed=$((expected[$n] - states))
  awk -v n="$n" -v l="$label" -v st="$states" -v s="$secs" -v u="$user" -v y="$sys" -v r="$rss" \
    -v m="$missed" -v c="$cov" \
    'BEGIN { printf "| %d | %s | %s | %s | %s | %.1f | %.1f | %.0f | %.1f |\n",
             n, l, st, m, c, s, u + y, r / 1024, r * 1024 / st }'
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo
echo "| RMs | tool | states stored | missed (exact count minus stored) | the tool's own coverage report | wall s | CPU s | peak RSS MB | RSS B/state |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in "${rms[@]}"; do
  size=${expected[$n]:-${approx[$n]:-}}
  [ -n "$size" ] || { echo "compact.sh: no state count known for $n RMs" >&2; exit 1; }
  # merilo: 40-bit compaction, 16 MiB of frontier in memory.
  line=$(TMPDIR=${SPILL_DIR:-${TMPDIR:-/tmp}} /usr/bin/time -f "TIME %e %U %S %M" \
    "$bench" --twophase "$n" "$threads" compact=40 spill=16777216 2> "$work/merilo-time") || true
  read -r _ secs user sys rss < <(grep '^TIME' "$work/merilo-time")
  states=$(echo "$line" | awk '{print $2}')
  miss=$(echo "$line" | awk '{print $6}')
  label="merilo, compaction 40 bits + spill, $threads thread"
  [ "$threads" = 1 ] || label="${label}s"
  row "$n" "$label" "${states:-0}" "$secs" "$user" "$sys" "$rss" \
    "P(miss) <= $miss"
  [ "$n" -le "$spin_max" ] || continue
  w=$(w_for "$size")
  for flavour in HC4 BITSTATE; do
    dir="$work/$n-$flavour"
    mkdir -p "$dir"
    (cd "$dir" && "$here/twophase.sh" "$n" > twophase.pml && spin -a twophase.pml >/dev/null &&
      cc -O2 -DSAFETY -DNOREDUCE -DNOCLAIM -DMEMLIM=20000 "-D$flavour" -o pan pan.c 2>/dev/null)
    ww=$w
    [ "$flavour" = HC4 ] || ww=$((w + 5))
    (cd "$dir" && /usr/bin/time -f "TIME %e %U %S %M" ./pan -m10000 "-w$ww" > out 2> time) || true
    read -r _ secs user sys rss < <(grep '^TIME' "$dir/time")
    states=$(awk '/states, stored/ {print $1; exit}' "$dir/out")
    if [ "$flavour" = HC4 ]; then
      cov="hash conflicts: $(awk '/hash conflicts:/ {print $3; exit}' "$dir/out") (-w$ww)"
    else
      cov="hash factor $(awk '/hash factor:/ {print $3; exit}' "$dir/out") (-w$ww, -k3)"
    fi
    row "$n" "SPIN 6.5.2 -D$flavour" "${states:-0}" "$secs" "$user" "$sys" "$rss" "$cov"
  done
done
