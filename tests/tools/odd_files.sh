#!/bin/sh
# odd_files.sh LINCHECK WORKDIR GOOD_HISTORY — a store directory whose
# *.jsonl entries are a FIFO, a symbolic link loop, a dangling link and a
# directory, beside one good history. merilo-lincheck must check the good
# one, report each odd one as bad input naming what it is (exit 3), never
# block on the FIFO, and say the same reasons when each is named alone.
set -u
lincheck=$1 work=$2 good=$3
rm -rf "$work" && mkdir -p "$work/store" || exit 1
cd "$work" || exit 1
mkfifo store/a_fifo.jsonl
ln -s b_loop.jsonl store/b_loop.jsonl
ln -s nowhere.jsonl store/c_dangling.jsonl
mkdir store/d_dir.jsonl
cp "$good" store/e_good.jsonl
failed=0
expect() {  # expect CODE STDERR_PATTERN ARGS...
  code=$1 pattern=$2
  shift 2
  timeout 20 "$lincheck" --model register "$@" > out.txt 2> err.txt
  got=$?
  if [ "$got" -ne "$code" ]; then
    printf 'FAIL %s: expected exit %s, got %s\n' "$*" "$code" "$got"
    cat out.txt err.txt
    failed=1
  elif ! grep -q -- "$pattern" err.txt; then
    printf 'FAIL %s: stderr lacks "%s"\n' "$*" "$pattern"
    cat err.txt
    failed=1
  else
    printf 'ok %s\n' "$*"
  fi
}
expect 3 "cannot open store/a_fifo.jsonl: not a regular file (a FIFO)" store
expect 3 "cannot open store/b_loop.jsonl: a symbolic link loop" store
expect 3 "cannot open store/c_dangling.jsonl: a dangling symbolic link (to nowhere.jsonl" store
expect 3 "cannot open store/d_dir.jsonl: it is a directory" store
grep -q "store/e_good.jsonl: linearizable" out.txt || { echo "FAIL: the good history was not checked"; failed=1; }
expect 3 "cannot open store/b_loop.jsonl: a symbolic link loop" store/b_loop.jsonl
expect 3 "cannot open store/c_dangling.jsonl: a dangling symbolic link" store/c_dangling.jsonl
# A FIFO named on the command line is read (process substitution gives
# one); with no writer it reads as empty rather than blocking.
expect 3 "store/a_fifo.jsonl: the history is empty" store/a_fifo.jsonl
exit $failed
