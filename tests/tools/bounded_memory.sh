#!/bin/sh
# bounded_memory.sh LIMIT_KB HISTORY EXPECT LINCHECK ARGS... — runs
# merilo-lincheck on HISTORY under `ulimit -v LIMIT_KB` and fails unless it
# exits 0 and its first line starts with EXPECT. The memory tests give it
# histories whose model grows with the history (a 10,000-item queue, a
# 1 MB kv value): the search must stay within the history's size plus its
# cache, so the limit is far below what a model copy per placed call takes.
set -u
limit=$1 history=$2 expect=$3
shift 3
out=$( (ulimit -v "$limit" && "$@" "$history") 2>&1)
code=$?
if [ "$code" -ne 0 ]; then
  printf 'expected exit 0 under ulimit -v %s, got %s:\n%s\n' "$limit" "$code" "$out"
  exit 1
fi
case $out in
  "$expect"*) printf '%s\n' "$out" ;;
  *)
    printf 'expected output starting "%s", got:\n%s\n' "$expect" "$out"
    exit 1
    ;;
esac
