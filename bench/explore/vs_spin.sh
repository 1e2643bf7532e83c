#!/usr/bin/env bash
# vs_spin.sh BENCH_EXPLORE — merilo against SPIN on the same state space.
#
# The system: 6 independent counters 0..7 (8^6 = 262144 worlds), written for
# merilo as bench_explore's Counters<6, 7> and for SPIN as one Promela
# process whose every increment is a d_step (one transition, no
# intermediate states). SPIN's verifier is compiled with -O2, safety only,
# no partial-order reduction (there is nothing to reduce), once depth-first
# (its default) and once breadth-first (-DBFS, the search merilo does).
# Runs alternate, 5 rounds; prints the medians and the ratios.
set -euo pipefail
bench=${1:?usage: vs_spin.sh path/to/bench_explore}
"$(dirname "$0")/../require_optimized.sh" "$bench"
command -v spin >/dev/null || { echo "vs_spin.sh: spin is not installed (apt-get install spin)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/counters.pml" <<'PML'
byte v[6];
active proctype counters() {
  do
  :: d_step { v[0] < 7 -> v[0]++ }
  :: d_step { v[1] < 7 -> v[1]++ }
  :: d_step { v[2] < 7 -> v[2]++ }
  :: d_step { v[3] < 7 -> v[3]++ }
  :: d_step { v[4] < 7 -> v[4]++ }
  :: d_step { v[5] < 7 -> v[5]++ }
  :: else -> break
  od
}
PML
(cd "$work" && spin -a counters.pml >/dev/null &&
  cc -O2 -DSAFETY -DNOREDUCE -DNOCLAIM -o pan_dfs pan.c 2>/dev/null &&
  cc -O2 -DSAFETY -DNOREDUCE -DNOCLAIM -DBFS -o pan_bfs pan.c 2>/dev/null)

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for round in 1 2 3 4 5; do
  "$bench" --counters-once | awk '{print $1}' >> "$work/merilo"
  "$bench" --counters-once 2 | awk '{print $1}' >> "$work/merilo2"
  (cd "$work" && ./pan_dfs -m100000 | awk '/elapsed time/ {print $4}') >> "$work/dfs"
  (cd "$work" && ./pan_bfs -m100000 | awk '/elapsed time/ {print $4}') >> "$work/bfs"
done
read -r _ states bytes < <("$bench" --counters-once)
m=$(median < "$work/merilo"); m2=$(median < "$work/merilo2"); d=$(median < "$work/dfs"); b=$(median < "$work/bfs")
spin_mem=$(cd "$work" && ./pan_dfs -m100000 | awk '/total actual memory usage/ {print $1}')
echo "| tool | search | states | median seconds (5 runs) | time / merilo 1 thread |"
echo "|---|---|---|---|---|"
echo "| merilo (restore, 1 thread) | breadth-first | $states | $m | 1.00 |"
row() { awk -v t="$1" -v s="$2" -v x="$3" -v m="$m" -v n="$states" \
  'BEGIN {printf "| %s | %s | %d | %s | %.2f |\n", t, s, n, x, x/m}'; }
row "merilo (restore, 2 threads)" breadth-first "$m2"
row "SPIN 6.5.2 pan" depth-first "$d"
row "SPIN 6.5.2 pan -DBFS" breadth-first "$b"
awk -v b="$bytes" -v n="$states" -v sm="$spin_mem" 'BEGIN {printf "\nmerilo visited set + parent links: %.1f MB (%.1f bytes/state); SPIN total actual memory: %s MB\n", b/1e6, b/n, sm}'
