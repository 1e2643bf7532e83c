#!/usr/bin/env bash
# lint.sh BUILD_DIR — clang-format check over every tracked C++ file, the
# rules checker (cmake/rules_check.py: numbers a machine counts in are
# 64-bit) over every tracked header, then clang-tidy over merilo's compiled
# sources (src/ and tools/) and each example's programs (which include its
# machines and adapter) using the build's compile_commands.json, JOBS
# (default nproc) files at a time. Exits non-zero when anything was found.
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."

mapfile -t files < <(git ls-files '*.hpp' '*.cpp')
echo "lint: clang-format on ${#files[@]} files"
clang-format --dry-run --Werror "${files[@]}"

mapfile -t headers < <(git ls-files '*.hpp' ':!:tests/fsm/rules/*')
echo "lint: rules_check on ${#headers[@]} headers"
python3 cmake/rules_check.py "${headers[@]}"

if [[ ! -f "$build/compile_commands.json" ]]; then
  echo "lint: $build/compile_commands.json is missing; configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON" >&2
  exit 1
fi
mapfile -t sources < <(git ls-files '*/src/*.cpp' 'tools/*.cpp' 'examples/*/explore_main.cpp' \
  'examples/*/*_main.cpp' 'examples/order/orderd.cpp' | sort -u)
# A source this tree does not compile (explore's Open MPI files where Open
# MPI is not installed) has no compile command: clang-tidy would guess one,
# fail on its first missing header and report nonsense from the half-read
# rest, so it is named and skipped instead.
mapfile -t compiled < <(python3 -c '
import json, os, sys
for e in json.load(open(sys.argv[1])):
    print(os.path.relpath(os.path.join(e["directory"], e["file"])))' "$build/compile_commands.json" |
  sort -u)
mapfile -t skipped < <(comm -23 <(printf '%s\n' "${sources[@]}") <(printf '%s\n' "${compiled[@]}"))
mapfile -t sources < <(comm -12 <(printf '%s\n' "${sources[@]}") <(printf '%s\n' "${compiled[@]}"))
[[ ${#skipped[@]} -eq 0 ]] ||
  echo "lint: clang-tidy skips ${skipped[*]}: $build does not compile them (Open MPI not installed?)"
jobs=${JOBS:-$(nproc)}
echo "lint: clang-tidy on ${#sources[@]} files, $jobs at a time"
# One clang-tidy per file, $jobs at once; each file's findings are printed
# together when it ends, and any finding fails the step.
tidy_one() {
  local out rc=0
  out=$(clang-tidy -p "$build" --quiet "$1" 2>&1) || rc=$?
  grep -v "warnings generated" <<< "$out" || true
  return "$rc"
}
export -f tidy_one
export build
status=0
printf '%s\0' "${sources[@]}" | xargs -0 -P "$jobs" -n 1 bash -c 'tidy_one "$1"' _ || status=1
exit $status
