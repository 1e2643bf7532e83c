#!/usr/bin/env bash
# require_optimized.sh BINARY — every benchmark script runs this on the
# binary it times, and stops (exit 1) when that binary was not built
# optimized: a `make build` tree is the Test type, and times taken from it
# are not merilo's. MERILO_BENCH_ALLOW_SLOW=1 turns the refusal into a
# warning (to time an unoptimized build on purpose).
#
# merilo-lincheck says how it was built (`--version`: "optimized (...)" or
# "NOT optimized (...)"); any other binary is judged by CMAKE_BUILD_TYPE in
# the CMakeCache.txt of the build tree it sits in (Release, RelWithDebInfo
# and MinSizeRel are optimized).
set -euo pipefail
bin=${1:?usage: require_optimized.sh BINARY}
[ -x "$bin" ] || { echo "require_optimized.sh: $bin is not an executable" >&2; exit 1; }
why=""
if [ "$(basename "$bin")" = merilo-lincheck ]; then
  info=$("$bin" --version 2>/dev/null || true)
  case "$info" in
    *"NOT optimized"*) why=${info#merilo-lincheck, } ;;
    *optimized*) exit 0 ;;
    *) why="it does not say how it was built (--version: ${info:-nothing})" ;;
  esac
else
  dir=$(cd "$(dirname "$bin")" && pwd)
  while [ "$dir" != / ] && [ ! -f "$dir/CMakeCache.txt" ]; do dir=$(dirname "$dir"); done
  if [ -f "$dir/CMakeCache.txt" ]; then
    type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$dir/CMakeCache.txt")
    case "$type" in
      Release | RelWithDebInfo | MinSizeRel) exit 0 ;;
      *) why="it is from a ${type:-build-type-less} build ($dir)" ;;
    esac
  else
    why="no CMakeCache.txt above it says how it was built"
  fi
fi
if [ "${MERILO_BENCH_ALLOW_SLOW:-0}" = 1 ]; then
  echo "WARNING: $bin is not an optimized build: $why; its times are not merilo's" >&2
  exit 0
fi
echo "ERROR: $bin is not an optimized build: $why." >&2
echo "  Time a Release build (cmake -DCMAKE_BUILD_TYPE=Release, or make bench), or set" >&2
echo "  MERILO_BENCH_ALLOW_SLOW=1 to time this one anyway." >&2
exit 1
