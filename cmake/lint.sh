#!/usr/bin/env bash
# lint.sh BUILD_DIR — clang-format check over every tracked C++ file, then
# clang-tidy over merilo's compiled sources (src/ and tools/) using the
# build's compile_commands.json. Exits non-zero on the first finding.
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."

mapfile -t files < <(git ls-files '*.hpp' '*.cpp')
echo "lint: clang-format on ${#files[@]} files"
clang-format --dry-run --Werror "${files[@]}"

if [[ ! -f "$build/compile_commands.json" ]]; then
  echo "lint: $build/compile_commands.json is missing; configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON" >&2
  exit 1
fi
mapfile -t sources < <(git ls-files '*/src/*.cpp' 'tools/*.cpp')
echo "lint: clang-tidy on ${#sources[@]} files"
status=0
for f in "${sources[@]}"; do
  clang-tidy -p "$build" --quiet "$f" 2> >(grep -v "warnings generated" >&2) || status=1
done
exit $status
