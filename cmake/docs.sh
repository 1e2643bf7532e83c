#!/usr/bin/env bash
# docs.sh [OUT] — builds merilo's API reference with Doxygen (docs/Doxyfile)
# into OUT/html (default build-docs) and fails when Doxygen warned about
# anything (an undocumented public entity, a broken reference, a bad
# command), printing the warnings. `make docs` and the `docs` step of
# `make ci` run it; so does the ctest `docs.doxygen` when Doxygen is
# installed.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build-docs}
command -v doxygen > /dev/null ||
  { echo "docs.sh: doxygen is not installed; 'cmake/deps.sh docs' installs it" >&2; exit 2; }
mkdir -p "$out"
log=$out/doxygen-warnings.log
rm -f "$log"
status=0
{ cat docs/Doxyfile; echo "OUTPUT_DIRECTORY = $out"; echo "WARN_LOGFILE = $log"; } | doxygen - ||
  status=$?
if [[ -s $log || $status -ne 0 ]]; then
  [[ -f $log ]] && cat "$log" >&2
  echo "docs.sh: FAILED: Doxygen exited $status and wrote $(wc -l < "$log" 2> /dev/null || echo 0)" \
    "warning lines (above, and in $log)" >&2
  exit 1
fi
echo "docs.sh: the API reference is in $out/html/index.html (no Doxygen warnings)"
