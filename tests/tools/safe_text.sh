#!/bin/sh
# safe_text.sh LINCHECK DATA WORK — what merilo-lincheck prints is safe on a
# terminal: kv values and keys holding ESC sequences (window title, clear
# screen, OSC 8 links), BEL, CR, NUL, newlines, DEL and C1 controls reach
# the --explain text and the HTML report only as escapes, and a value cut
# at 40 bytes is cut on a UTF-8 character boundary (both stay valid UTF-8).
set -u
lincheck=$1 data=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
esc=$(printf '\033') bel=$(printf '\007') cr=$(printf '\r') del=$(printf '\177')
c1=$(printf '\302\233')  # U+009B, the one-byte CSI
# no_raw_controls NAME FILE: FILE holds none of those bytes, no NUL, and no
# line but the ones merilo-lincheck wrote (checked by the caller).
no_raw_controls() {
  for b in "$esc" "$bel" "$cr" "$del" "$c1"; do
    if grep -q "$b" "$2"; then fail "$1: a raw control character reached the output"; fi
  done
  if [ "$(tr -d '\000' < "$2" | wc -c)" -ne "$(wc -c < "$2")" ]; then fail "$1: a raw NUL"; fi
  iconv -f UTF-8 -t UTF-8 "$2" > /dev/null 2>&1 || fail "$1: not valid UTF-8"
}

for f in kv_control_chars kv_utf8_cut; do
  "$lincheck" --model kv --explain --html "$work/$f.html" "$data/$f.jsonl" > "$work/$f.txt" 2>&1
  code=$?
  [ "$code" -eq 1 ] || fail "$f: exit $code, expected 1 (not linearizable): $(cat "$work/$f.txt")"
  no_raw_controls "$f --explain" "$work/$f.txt"
  no_raw_controls "$f --html" "$work/$f.html"
done
grep -q 'forged line' "$work/kv_control_chars.txt" || fail "the get's value is not shown"
if grep -q '^linearizable: forged line' "$work/kv_control_chars.txt"; then
  fail "a value forged an output line"
fi
grep -qF 'get -> "ok\r\nlinearizable: forged line\x00"' "$work/kv_control_chars.txt" ||
  fail "the get's value is not shown escaped: $(cat "$work/kv_control_chars.txt")"
grep -qF 'put "\x1b]0;pwned\x07\x1b[2J' "$work/kv_control_chars.txt" ||
  fail "the put's value is not shown escaped"
grep -qF 'key "k\x7f\u009b2J"' "$work/kv_control_chars.txt" || fail "the key is not shown escaped"
grep -qF '"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb…" (45 bytes)' "$work/kv_utf8_cut.txt" ||
  fail "the cut value: $(cat "$work/kv_utf8_cut.txt")"

# Names from the command line and the file name are escaped as well.
"$lincheck" --model "st${esc}[2Jack" "$data/kv_ok.jsonl" > "$work/model.txt" 2>&1
no_raw_controls "an unknown model's name" "$work/model.txt"
grep -qF 'unknown model "st\x1b[2Jack"' "$work/model.txt" || fail "model name: $(cat "$work/model.txt")"
"$lincheck" --model kv "$work/no${esc}]0;such" > "$work/file.txt" 2>&1
no_raw_controls "a missing file's name" "$work/file.txt"

if [ "$failures" -ne 0 ]; then
  echo "$failures failed"
  exit 1
fi
echo "all output is escaped"
