#!/usr/bin/env bash
# browser_report.sh LINCHECK MODEL HISTORY LANES [SCREENSHOT]
#
# Writes merilo-lincheck's HTML report of a non-linearizable HISTORY, opens
# it in headless Chromium, and checks the page as the browser rendered it:
# the page's script ran to the end without an error (it writes a status
# line into #status), LANES lanes were drawn, the stuck bar is the one on
# the line the terminal names and is drawn in the stuck red, and nothing
# reached the console as an error. With SCREENSHOT, saves a picture of the
# page there. Exits 77 (skipped) where Chromium is not installed.
set -euo pipefail
lincheck=$1 model=$2 history=$3 lanes=$4 screenshot=${5:-}

browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
  echo "SKIP: chromium is not installed; 'cmake/deps.sh browser' installs it"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
page=$work/report.html

set +e
"$lincheck" --model "$model" --html "$page" "$history" > "$work/stdout"
code=$?
set -e
cat "$work/stdout"
if [[ $code -ne 1 ]]; then
  echo "FAIL: merilo-lincheck exited $code, expected 1 (not linearizable)"
  exit 1
fi
line=$(sed -n 's/.*stuck at the [^ ]* on line \([0-9]*\) .*/\1/p' "$work/stdout")
if [[ -z $line ]]; then
  echo "FAIL: the verdict names no stuck operation"
  exit 1
fi

flags=(--headless=new --disable-gpu --no-first-run --user-data-dir="$work/profile"
       --hide-scrollbars --disable-dev-shm-usage)
# As root Chromium runs only without its sandbox; CI may give no HOME.
[[ $(id -u) -eq 0 ]] && flags+=(--no-sandbox)
export HOME=${HOME:-$work}

# The DOM after the page's script ran; the console goes to the log.
timeout 60 "$browser" "${flags[@]}" --virtual-time-budget=10000 --enable-logging=stderr --v=0 \
  --dump-dom "file://$page" > "$work/dom.html" 2> "$work/browser.log" || {
  echo "FAIL: chromium --dump-dom exited $?"
  tail -20 "$work/browser.log"
  exit 1
}
status=$(grep -o '<div id="status"[^<]*' "$work/dom.html" || true)
echo "page status: $status"
fail=0
expect() {
  if ! grep -qE -- "$1" <<< "$status"; then
    echo "FAIL: the rendered page's status does not match: $1"
    fail=1
  fi
}
expect 'data-state="ok"'
expect "rendered: $lanes lanes, [0-9]+ operations"
expect "stuck operation [0-9]+ on line $line drawn in rgb\\(224, 53, 43\\)"
if grep -E 'Uncaught|:CONSOLE[:(]' "$work/browser.log"; then
  echo "FAIL: the page wrote to the console (above)"
  fail=1
fi
[[ $fail -eq 0 ]] || exit 1

if [[ -n $screenshot ]]; then
  rm -f "$screenshot"
  timeout 60 "$browser" "${flags[@]}" --virtual-time-budget=10000 --window-size=1000,640 \
    --screenshot="$screenshot" "file://$page" 2> "$work/screenshot.log" || {
    echo "FAIL: chromium --screenshot exited $?"
    tail -20 "$work/screenshot.log"
    exit 1
  }
  if [[ ! -s $screenshot ]]; then
    echo "FAIL: no screenshot at $screenshot"
    exit 1
  fi
  echo "screenshot: $screenshot"
fi
echo "the report rendered in $browser as expected"
