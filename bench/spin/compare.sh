#!/usr/bin/env bash
# compare.sh BENCH_EXPLORE [RMS...] — merilo against SPIN 6.5.2 on
# Gray and Lamport's TwoPhase, N resource managers (default: 8 9).
#
# For each N: SPIN's verifier is generated from twophase.sh's Promela and
# compiled -O2 -DSAFETY -DNOREDUCE (safety only, no partial-order
# reduction), once plain and once with -DCOLLAPSE (its best lossless
# compression; only up to COLLAPSE_MAX_RMS, default 9), its hash table
# sized to the state count (-w). merilo runs
# bench_explore --twophase N on 1 and 2 threads (restore mode). The tools run
# alternately, ROUNDS times (default 1); every run is timed by /usr/bin/time
# (wall and CPU seconds, peak RSS). Prints one Markdown row per tool and N
# (the last round; the per-round lines go to stderr), with the load average
# at the start: the machine is shared, so compare ratios, not seconds.
# The limit row: bench_bare_bfs beside BENCH_EXPLORE (a hand-packed
# one-thread BFS of TwoPhase, bench/explore/bench_bare_bfs.cpp) runs too
# when it is there. BEFORE=path/to/an/older/bench_explore adds its 1- and
# 2-thread rows, for a before/after table from one run.
set -euo pipefail
bench=${1:?usage: compare.sh path/to/bench_explore [RMS...]}
"$(dirname "$0")/../require_optimized.sh" "$bench"
shift
rms=("$@")
[ ${#rms[@]} -gt 0 ] || rms=(8 9)
rounds=${ROUNDS:-1}
collapse_max=${COLLAPSE_MAX_RMS:-9}  # -DCOLLAPSE is ~3x slower: skipped above this
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common.sh
source "$here/common.sh"

build_spin() {  # N flavour flags...
  local n=$1 flavour=$2
  shift 2
  mkdir -p "$work/$n-$flavour"
  (cd "$work/$n-$flavour" && "$here/twophase.sh" "$n" > twophase.pml && spin -a twophase.pml >/dev/null &&
    cc -O2 -DSAFETY -DNOREDUCE -DNOCLAIM -DMEMLIM=20000 "$@" -o pan pan.c 2>/dev/null)
}

# Each run prints: tool states seconds cpu_seconds peak_rss_kb
run_spin() {  # N flavour
  local n=$1 flavour=$2 w
  w=$(w_for "${expected[$n]:-1000000}")
  (cd "$work/$n-$flavour" && /usr/bin/time -f "TIME %e %U %S %M" ./pan -m10000 -w"$w" > out 2> time) || true
  local states secs
  states=$(awk '/states, stored/ {print $1; exit}' "$work/$n-$flavour/out")
  read -r _ secs user sys rss < <(grep '^TIME' "$work/$n-$flavour/time")
  echo "spin-$flavour ${states:-?} $secs $(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}') $rss"
}
run_merilo() {  # N threads [binary]
  local n=$1 t=$2 bin=${3:-$bench} line states secs user sys rss
  line=$(/usr/bin/time -f "TIME %e %U %S %M" "$bin" --twophase "$n" "$t" 2> "$work/merilo-time")
  states=$(echo "$line" | awk '{print $2}')
  read -r _ secs user sys rss < <(grep '^TIME' "$work/merilo-time")
  grep 'complete=' "$work/merilo-time" >&2 || true  # its own summary: B/state
  echo "merilo-$t ${states:-?} $secs $(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}') $rss"
}
run_bare() {  # N
  local n=$1 line states secs user sys rss
  line=$(/usr/bin/time -f "TIME %e %U %S %M" "$bare" "$n" 2> "$work/bare-time")
  states=$(echo "$line" | awk '{print $2}')
  read -r _ secs user sys rss < <(grep '^TIME' "$work/bare-time")
  echo "bare ${states:-?} $secs $(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}') $rss"
}
bare=$(dirname "$bench")/bench_bare_bfs
before=${BEFORE:-}
[ -z "$before" ] || "$(dirname "$0")/../require_optimized.sh" "$before"

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo
echo "| RMs | tool | states | wall s | CPU s | states/s (wall) | peak RSS MB | RSS B/state | SPIN plain wall / this wall |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in "${rms[@]}"; do
  build_spin "$n" plain
  tools=(merilo-1 spin-plain merilo-2)
  [ ! -x "$bare" ] || tools+=(bare)
  [ -z "$before" ] || tools+=(before-1 before-2)
  if [ "$n" -le "$collapse_max" ]; then
    build_spin "$n" collapse -DCOLLAPSE
    tools+=(spin-collapse)
  fi
  declare -A last=()
  for ((round = 1; round <= rounds; round++)); do
    for tool in "${tools[@]}"; do
      case $tool in
        merilo-*) row=$(run_merilo "$n" "${tool#merilo-}") ;;
        before-*) row=$(run_merilo "$n" "${tool#before-}" "$before" | sed 's/^merilo/before/') ;;
        bare) row=$(run_bare "$n") ;;
        spin-*) row=$(run_spin "$n" "${tool#spin-}") ;;
      esac
      echo "round $round, $n RMs: $row" >&2
      last[$tool]=$row
    done
  done
  spin_wall=$(echo "${last[spin-plain]}" | awk '{print $3}')
  for tool in before-1 before-2 merilo-1 merilo-2 bare spin-plain spin-collapse; do
    [ -n "${last[$tool]:-}" ] || continue
    read -r name states secs cpu rss <<< "${last[$tool]}"
    case $name in
      merilo-1) label="merilo, 1 thread" ;;
      merilo-2) label="merilo, 2 threads" ;;
      before-1) label="merilo before, 1 thread" ;;
      before-2) label="merilo before, 2 threads" ;;
      bare) label="bare hand-packed BFS, 1 thread" ;;
      spin-plain) label="SPIN 6.5.2 -DSAFETY -DNOREDUCE" ;;
      spin-collapse) label="SPIN 6.5.2 ... -DCOLLAPSE" ;;
    esac
    [ "$states" = "${expected[$n]:-$states}" ] || label="$label (expected ${expected[$n]} states!)"
    awk -v n="$n" -v l="$label" -v st="$states" -v s="$secs" -v c="$cpu" -v r="$rss" -v sw="$spin_wall" \
      'BEGIN { printf "| %d | %s | %d | %.2f | %.2f | %.0f | %.0f | %.1f | %.2fx |\n",
               n, l, st, s, c, st / (s > 0 ? s : 1e-9), r / 1024, r * 1024 / st, sw / (s > 0 ? s : 1e-9) }'
  done
done
