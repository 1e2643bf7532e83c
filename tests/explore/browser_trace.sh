#!/usr/bin/env bash
# browser_trace.sh WRITER [SCREENSHOT]
#
# Has WRITER (trace_page_main) write the explorer's and a fuzz crash's
# trace pages of a system whose every text carries markup, opens each in
# headless Chromium and checks the page as the browser rendered it: the
# page's own script ran to the end without an error (it writes a status
# line into #status) and counted 3 steps with changes marked, the step that
# broke the rule is drawn in its red, the pinned test is there, no script
# or handler from the system's text ran (it would have marked the status or
# the title "hacked"), and nothing reached the console as an error. With
# SCREENSHOT, saves a picture of the explorer's page there. Exits 77
# (skipped) where Chromium is not installed.
set -euo pipefail
writer=$1 screenshot=${2:-}

browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
  echo "SKIP: chromium is not installed; 'cmake/deps.sh browser' installs it"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$writer" "$work"

flags=(--headless=new --disable-gpu --no-first-run --user-data-dir="$work/profile"
       --hide-scrollbars --disable-dev-shm-usage)
# As root Chromium runs only without its sandbox; CI may give no HOME.
[[ $(id -u) -eq 0 ]] && flags+=(--no-sandbox)
export HOME=${HOME:-$work}

fail=0
for page in explore fuzz; do
  timeout 60 "$browser" "${flags[@]}" --virtual-time-budget=10000 --enable-logging=stderr --v=0 \
    --dump-dom "file://$work/$page.html" > "$work/$page.dom" 2> "$work/$page.log" || {
    echo "FAIL: chromium --dump-dom of $page.html exited $?"
    tail -20 "$work/$page.log"
    exit 1
  }
  status=$(grep -o '<div id="status"[^<]*' "$work/$page.dom" || true)
  echo "$page page status: $status"
  for want in 'data-state="ok"' \
      'rendered: 3 steps, [1-9][0-9]* changes marked; broke at step 3 drawn in rgb\(253, 232, 231\); pinned test of [0-9]+ lines'; do
    if ! grep -qE -- "$want" <<< "$status"; then
      echo "FAIL: the rendered $page page's status does not match: $want"
      fail=1
    fi
  done
  if grep -q '<title>hacked</title>' "$work/$page.dom"; then
    echo "FAIL: a handler from the system's text ran on the $page page"
    fail=1
  fi
  if ! grep -q '&lt;script&gt;document.getElementById' "$work/$page.dom"; then
    echo "FAIL: the $page page does not show the system's markup as text"
    fail=1
  fi
  if grep -E 'Uncaught|:CONSOLE[:(]' "$work/$page.log"; then
    echo "FAIL: the $page page wrote to the console (above)"
    fail=1
  fi
done
[[ $fail -eq 0 ]] || exit 1

if [[ -n $screenshot ]]; then
  rm -f "$screenshot"
  timeout 60 "$browser" "${flags[@]}" --virtual-time-budget=10000 --window-size=1000,640 \
    --screenshot="$screenshot" "file://$work/explore.html" 2> "$work/screenshot.log" || {
    echo "FAIL: chromium --screenshot exited $?"
    tail -20 "$work/screenshot.log"
    exit 1
  }
  [[ -s $screenshot ]] || { echo "FAIL: no screenshot at $screenshot"; exit 1; }
  echo "screenshot: $screenshot"
fi
echo "both trace pages rendered in $browser as expected"
