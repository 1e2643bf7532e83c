#!/bin/sh
# html_target.sh LINCHECK DATA WORK — where --html may write, and that no
# run destroys a file: the history itself (by name, hard link or standard
# input) is refused, a FIFO or a device is refused before the history is
# read (no hang, no verdict first), a failed run leaves an existing report
# and a dangling symbolic link as they were and no temporary file behind,
# and a good run writes through a dangling link to the file it names.
set -u
lincheck=$1 data=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
# run NAME EXPECTED_EXIT ARGS...: runs merilo-lincheck (60 s at most: a
# hang is a failure, not a wait), keeps stdout/stderr in $out/$err.
run() {
  name=$1 want=$2
  shift 2
  timeout 60 "$lincheck" "$@" > "$work/out" 2> "$work/err" < "${stdin:-/dev/null}"
  code=$?
  out=$(cat "$work/out") err=$(cat "$work/err")
  [ "$code" -eq "$want" ] || fail "$name: exit $code, expected $want; stderr: $err"
}
expect_err() {
  case $err in *"$2"*) ;; *) fail "$1: stderr lacks '$2': $err" ;; esac
}
leftovers() {  # temporary files the writer left in $work
  ls -A "$work" | grep -c '^\..*\.html\.\|^\..*\.jsonl\.' || true
}

cp "$data/register_ok.jsonl" "$work/h.jsonl"
cp "$work/h.jsonl" "$work/h.orig"

run same_file 3 --model register --html "$work/h.jsonl" "$work/h.jsonl"
expect_err same_file "it is the history being checked"
cmp -s "$work/h.jsonl" "$work/h.orig" || fail "same_file: the history was changed"

ln "$work/h.jsonl" "$work/hard.jsonl"
run hard_link 3 --model register --html "$work/hard.jsonl" "$work/h.jsonl"
expect_err hard_link "it is the history being checked"
cmp -s "$work/h.jsonl" "$work/h.orig" || fail "hard_link: the history was changed"

stdin="$work/h.jsonl" run same_file_on_stdin 3 --model register --html "$work/h.jsonl" -
expect_err same_file_on_stdin "it is the history being checked"
cmp -s "$work/h.jsonl" "$work/h.orig" || fail "same_file_on_stdin: the history was changed"

mkfifo "$work/fifo.html"
run fifo 3 --model register --html "$work/fifo.html" "$work/h.jsonl"
expect_err fifo "not a regular file"

run dev_full 3 --model register --html /dev/full "$work/h.jsonl"
expect_err dev_full "not a regular file"
[ -z "$out" ] || fail "dev_full: printed a verdict before refusing the path: $out"

echo "an older report" > "$work/old.html"
cp "$work/old.html" "$work/old.orig"
run bad_input_keeps_report 3 --model register --html "$work/old.html" "$data/malformed_json.jsonl"
cmp -s "$work/old.html" "$work/old.orig" || fail "bad_input_keeps_report: the report was changed"

ln -s "$work/named.html" "$work/dangling.html"
run bad_input_keeps_link 3 --model register --html "$work/dangling.html" "$data/malformed_json.jsonl"
[ -L "$work/dangling.html" ] || fail "bad_input_keeps_link: the symbolic link is gone"
[ ! -e "$work/named.html" ] || fail "bad_input_keeps_link: created the link's target"
[ "$(leftovers)" -eq 0 ] || fail "bad_input_keeps_link: left a temporary file: $(ls -A "$work")"

run good_run_writes_through_link 0 --model register --html "$work/dangling.html" "$work/h.jsonl"
[ -L "$work/dangling.html" ] || fail "good_run_writes_through_link: the symbolic link is gone"
grep -q "<html" "$work/named.html" || fail "good_run_writes_through_link: no page at the target"
run good_run_replaces_report 0 --model register --html "$work/old.html" "$work/h.jsonl"
grep -q "<html" "$work/old.html" || fail "good_run_replaces_report: the report was not written"
[ "$(leftovers)" -eq 0 ] || fail "good runs left a temporary file: $(ls -A "$work")"

if [ "$failures" -ne 0 ]; then
  echo "$failures failed"
  exit 1
fi
echo "all --html target cases passed"
