#!/usr/bin/env bash
# coverage.sh BUILD_DIR — after a `--coverage` build's tests have run,
# prints the line and branch coverage of each component (fsm, core,
# explore, fuzz, statem, linearize, tools, examples) and the least-covered
# files, and writes the per-file figures to BUILD_DIR/coverage.json.
#
# Branches: gcovr leaves out the branches g++ adds for exceptions thrown by
# the language itself and the ones it proves unreachable, so what is counted
# is the branches written in the code. Test files are not counted. The
# build should use -fprofile-update=atomic (ci.sh does): counters updated by
# several threads without it can come out negative, which gcov prints as
# "taken -1" and gcovr cannot parse; such lines are skipped, not fatal.
set -euo pipefail
build=${1:?usage: coverage.sh BUILD_DIR}
cd "$(dirname "$0")/.."
command -v gcovr > /dev/null || { echo "coverage.sh: gcovr is missing (cmake/deps.sh coverage)" >&2; exit 2; }

# CMake's compiler probe (CMakeFiles/<version>/CompilerIdCXX) was compiled
# with --coverage too but never run; its .gcno only makes gcov warn.
gcovr -r . --object-directory "$build" -j "$(nproc)" \
  --exclude-directories '.*/CMakeFiles/[0-9.]+$' \
  --filter '^(fsm|core|explore|fuzz|statem|linearize|tools|examples)/' \
  --exclude '.*_test\.cpp$' --exclude '^tests/' \
  --exclude-throw-branches --exclude-unreachable-branches --gcov-ignore-parse-errors \
  --json-summary "$build/coverage.json" --json-summary-pretty > /dev/null

python3 - "$build/coverage.json" <<'PY'
import json, sys
files = json.load(open(sys.argv[1]))["files"]
parts = ["fsm", "core", "explore", "fuzz", "statem", "linearize", "tools", "examples"]
agg = {p: [0, 0, 0, 0] for p in parts}
for f in files:
    top = f["filename"].split("/")[0]
    if top in agg:
        a = agg[top]
        a[0] += f["line_covered"]; a[1] += f["line_total"]
        a[2] += f["branch_covered"]; a[3] += f["branch_total"]
def pct(c, t):
    return f"{100.0 * c / t:5.1f}%" if t else "    -"
print(f"{'component':<10} {'lines':>16} {'':>6} {'branches':>16} {'':>6}")
tot = [0, 0, 0, 0]
for p in parts:
    a = agg[p]
    if a[1] == 0:
        continue
    tot = [x + y for x, y in zip(tot, a)]
    print(f"{p:<10} {a[0]:>7} / {a[1]:<6} {pct(a[0], a[1])} {a[2]:>7} / {a[3]:<6} {pct(a[2], a[3])}")
print(f"{'total':<10} {tot[0]:>7} / {tot[1]:<6} {pct(tot[0], tot[1])} {tot[2]:>7} / {tot[3]:<6} {pct(tot[2], tot[3])}")
print("\nleast-covered files (lines), at least 20 lines:")
ranked = sorted((f for f in files if f["line_total"] >= 20 and f["filename"].split("/")[0] in agg),
                key=lambda f: f["line_covered"] / f["line_total"])
for f in ranked[:10]:
    print(f"  {pct(f['line_covered'], f['line_total'])} lines  {pct(f['branch_covered'], f['branch_total'])} branches  {f['filename']}")
PY
