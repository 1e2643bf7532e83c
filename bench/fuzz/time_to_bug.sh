#!/usr/bin/env bash
# bench/fuzz/time_to_bug.sh (make bench-fuzz-bugs) — executions and wall seconds
# to each seeded bug that lies beyond its target's seeding search: seeded
# merilo fuzzing (the corpus its bounded search writes, -keep_seed=1 under
# libFuzzer) against the hand-written twin (bench/fuzz/twin.hpp, empty
# corpus), under libFuzzer and under AFL++, SEEDS runs each with the same
# budget (CAP executions), all in one run; one Markdown table of medians.
#
# libFuzzer rows: the tree cmake/fuzz.sh builds (clang, -O2 -g,
# -fsanitize=fuzzer,address,undefined by default), -seed=1..SEEDS, -runs=CAP;
# executions are the count the finding prints (merilo's "execution N of this
# process", the twin's the same). AFL++ rows: afl-clang-fast++ with AFL++'s
# libFuzzer driver (no sanitizers, as `make fuzz-afl` builds), afl-fuzz -s
# 1..SEEDS -E CAP with AFL_BENCH_UNTIL_CRASH=1; executions are its
# execs_done when it stops at the first crash (the twin starts from a
# one-byte input, since afl-fuzz needs one). Wall seconds are the fuzzing
# process's, from start to the finding (a run that reaches the cap counts
# its whole time, and the median is then marked >). The merilo side's
# seeding search runs once per target, before the runs; its time is its own
# column.
#
# Environment: SEEDS (default 10), CAP (default 200000), ONLY (an extended
# regex over the merilo target names), ENGINES (default "libfuzzer afl";
# AFL++ is skipped, saying why, when afl-fuzz is missing), FUZZ_BUILD
# (default build-fuzz; the AFL++ tree is FUZZ_BUILD-afl), JOBS.
set -euo pipefail
cd "$(dirname "$0")/../.."
SEEDS=${SEEDS:-10}
CAP=${CAP:-200000}
ONLY=${ONLY:-.}
ENGINES=${ENGINES:-libfuzzer afl}
export FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}
export FUZZ_BENCH=ON
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The pairs "merilo-target twin", each merilo target one with a seeded bug.
pairs() {  # $1 fuzz-bin
  [[ -f $1/twins.txt && -f $1/seeded-bugs.txt ]] || return 0
  local m t
  while read -r m t; do
    grep -q "^$m " "$1/seeded-bugs.txt" && grep -qE "$ONLY" <<< "$m" && echo "$m $t"
  done < "$1/twins.txt"
}

# build MODE: configures (writing twins.txt), then builds the pairs.
build() {
  FUZZ_TARGETS=merilo_fuzz cmake/fuzz.sh "$1" > "$WORK/build.log" 2>&1 || return 1
  local bin=$FUZZ_BUILD/fuzz-bin
  [[ $1 == afl-build ]] && bin=$FUZZ_BUILD-afl/fuzz-bin
  FUZZ_TARGETS="$(pairs "$bin" | tr '\n' ' ')" cmake/fuzz.sh "$1" > "$WORK/build.log" 2>&1
}

now() { date +%s.%N; }

# One libFuzzer run: prints "<executions or CAP+> <wall seconds>".
libfuzzer_run() {  # $1 binary, $2 corpus, $3 seed, $4 log-prefix (==merilo== or ==twin==)
  local log=$WORK/run.log t0 t1
  t0=$(now)
  "$1" "$2" -keep_seed=1 -seed="$3" -runs="$CAP" -artifact_prefix="$WORK/" > "$log" 2>&1 || true
  t1=$(now)
  local n
  n=$(sed -n "s/^$4 .*execution \([0-9]*\) of this process.*/\1/p" "$log" | head -1)
  echo "${n:-$CAP+} $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
}

# One afl-fuzz run: prints "<executions or CAP+> <wall seconds>".
afl_run() {  # $1 binary, $2 input dir, $3 seed
  local out=$WORK/afl t0 t1
  rm -rf "$out"
  t0=$(now)
  env -u ASAN_OPTIONS -u UBSAN_OPTIONS AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 \
    AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_BENCH_UNTIL_CRASH=1 AFL_SKIP_CRASHES=1 \
    afl-fuzz -i "$2" -o "$out" -s "$3" -E "$CAP" -V 600 -- "$1" > "$WORK/afl.log" 2>&1 || true
  t1=$(now)
  local stats=$out/default/fuzzer_stats execs crashes
  # No stats: afl-fuzz did not start fuzzing (e.g. every starting input
  # crashed, as the driver's own first input can; the log says why).
  [[ -f $stats ]] || { echo "failed 0"; return; }
  execs=$(sed -n 's/^execs_done *: *//p' "$stats")
  crashes=$(find "$out/default/crashes" -type f -name 'id:*' 2> /dev/null | wc -l)
  [[ $crashes -gt 0 ]] || execs="$CAP+"
  echo "${execs:-?} $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
}

# "found/SEEDS median-executions median-seconds" of lines "<execs> <secs>"
# on stdin; a capped run counts as CAP (the median is then marked >); a
# run afl-fuzz could not start ("failed") is left out, and when every run
# is one the row says afl-fuzz-failed.
summary() {
  awk -v cap="$CAP" '
    $1 == "failed" { failed++; next }
    { n++; if ($1 ~ /\+$/) { e[n] = cap; capped[n] = 1 } else { e[n] = $1; found++ } s[n] = $2 }
    function med(a,   i, j, t, b) {
      for (i = 1; i <= n; i++) b[i] = a[i]
      for (i = 2; i <= n; i++) for (j = i; j > 1 && b[j - 1] > b[j]; j--) { t = b[j]; b[j] = b[j - 1]; b[j - 1] = t }
      return n % 2 ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
    }
    END {
      if (n == 0) { printf "afl-fuzz-failed - -\n"; exit }
      m = med(e); mark = found < (n + 1) / 2 ? ">" : ""
      printf "%d/%d %s%.0f %s%.1f\n", found + 0, n, mark, m, mark, med(s)
    }'
}

rows=()
for engine in $ENGINES; do
  case $engine in
    libfuzzer)
      if ! build build; then
        echo "time_to_bug: libFuzzer rows skipped: $(grep -m1 ERROR "$WORK/build.log" || echo 'the build failed')"
        continue
      fi
      bin=$FUZZ_BUILD/fuzz-bin
      ;;
    afl)
      if ! command -v afl-fuzz > /dev/null; then
        echo "time_to_bug: AFL++ rows skipped: afl-fuzz is missing (Debian package afl++)"
        continue
      fi
      if ! build afl-build; then
        echo "time_to_bug: AFL++ rows skipped: $(grep -m1 ERROR "$WORK/build.log" || echo 'the build failed')"
        continue
      fi
      bin=$FUZZ_BUILD-afl/fuzz-bin
      ;;
    *)
      echo "time_to_bug: unknown engine $engine (libfuzzer, afl)" >&2
      exit 2
      ;;
  esac
  while read -r m t; do
    [[ -n $m ]] || continue
    kind=$(awk -v m="$m" '$1 == m { print $2 }' "$bin/seeded-bugs.txt")
    rm -rf "$WORK/seeds" "$WORK/empty"
    mkdir -p "$WORK/empty"
    t0=$(now)
    "$bin/$m" -merilo_seed="$WORK/seeds" > "$WORK/seed.log" 2>&1 || true
    search=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
    nseeds=$(find "$WORK/seeds" -type f | wc -l)
    merilo=() twin=()
    for s in $(seq 1 "$SEEDS"); do
      rm -rf "$WORK/corpus" "$WORK/tcorpus"
      cp -r "$WORK/seeds" "$WORK/corpus"
      mkdir -p "$WORK/tcorpus"
      if [[ $engine == libfuzzer ]]; then
        merilo+=("$(libfuzzer_run "$bin/$m" "$WORK/corpus" "$s" '==merilo==')")
        twin+=("$(libfuzzer_run "$bin/$t" "$WORK/tcorpus" "$s" '==twin==')")
      else
        printf '\0' > "$WORK/tcorpus/zero"
        merilo+=("$(afl_run "$bin/$m" "$WORK/corpus" "$s")")
        twin+=("$(afl_run "$bin/$t" "$WORK/tcorpus" "$s")")
      fi
    done
    echo "$engine $m ($kind): merilo ${merilo[*]// /:}" >&2
    echo "$engine $t: twin ${twin[*]// /:}" >&2
    read -r mf me ms < <(printf '%s\n' "${merilo[@]}" | summary)
    read -r tf te ts < <(printf '%s\n' "${twin[@]}" | summary)
    rows+=("| ${m%_fuzz} ($kind) | $engine | $nseeds seeds, $search s | $mf | $me | $ms | $tf | $te | $ts |")
  done < <(pairs "$bin")
done

echo "== executions and wall seconds to each seeded bug: seeded merilo target against its" \
  "hand-written twin, $SEEDS seeds each, budget $CAP executions a run; medians (> : most runs" \
  "reached the budget)"
echo "| seeded bug | engine | merilo's seeding | merilo found | merilo execs | merilo s | twin found | twin execs | twin s |"
echo "|---|---|---|---|---|---|---|---|---|"
for r in "${rows[@]}"; do echo "$r"; done
