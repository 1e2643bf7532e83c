#!/usr/bin/env bash
# deps.sh GROUP... — checks that the Debian packages merilo needs are
# installed; as root it installs the missing ones with apt-get, otherwise it
# prints the exact command to run and fails.
#
# Groups: base (build and test), clang (clang++ and libFuzzer), lint,
# bench. Every package is from Debian's archive; nothing is downloaded.
set -euo pipefail

declare -A packages=(
  [base]="cmake ninja-build make g++ pkg-config libfmt-dev libxxhash-dev googletest libgtest-dev libgmock-dev libcli11-dev nlohmann-json3-dev"
  [clang]="clang libclang-rt-dev"
  [lint]="clang-format clang-tidy"
  [bench]="libbenchmark-dev spin"
)

missing=()
for group in "$@"; do
  if [[ -z "${packages[$group]+x}" ]]; then
    echo "deps.sh: unknown group '$group' (known: ${!packages[*]})" >&2
    exit 2
  fi
  for pkg in ${packages[$group]}; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
done

[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 ]]; then
  echo "merilo: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
  echo "merilo: missing Debian packages: ${missing[*]}" >&2
  echo "install them with:  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
