#!/usr/bin/env bash
# stress_load.sh BENCH [seeds] — runs bench_stress (the stress mode on
# std-only components) twice: once on a quiet machine, then beside a
# low-priority build, as on a developer's laptop or a CI runner: one
# `nice -n 19` compiler loop per core (g++ -O2 of bench_stress.cpp itself,
# output thrown away), started here and stopped when the run ends.
#   bench/parallel/stress_load.sh build-bench/bench-bin/bench_stress 20
set -euo pipefail
bench=${1:?usage: stress_load.sh BENCH [seeds]}
seeds=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cxx=${CXX:-g++}

echo "# quiet (load average $(cut -d' ' -f1 /proc/loadavg))"
"$bench" "$seeds"

hogs=()
stop_hogs() {
  for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${hogs[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_hogs EXIT
flags=(-std=c++20 -O2 -c -o /dev/null -I"$root/parallel/include" -I"$root/linearize/include"
       -I"$root/statem/include" -I"$root/core/include" -I"$root/fsm/include"
       -I"$root/sync/include" -I"$root/explore/include" -I"$root/tests/parallel")
for _ in $(seq "$(nproc)"); do
  nice -n 19 bash -c 'while :; do "$@" >/dev/null 2>&1 || true; done' hog \
    "$cxx" "${flags[@]}" "$here/bench_stress.cpp" &
  hogs+=($!)
done
sleep 3  # let the build get going
echo
echo "# beside ${#hogs[@]} nice-19 compiler loops (load average $(cut -d' ' -f1 /proc/loadavg))"
"$bench" "$seeds"
