#!/usr/bin/env bash
# deps.sh GROUP... — checks that the Debian packages merilo needs are
# installed; as root it installs the missing ones with apt-get, otherwise it
# prints the exact command to run and fails.
#
# Groups: base (build and test, the Catch2 and doctest glue's tests
# and the third-party queues of examples/concurrent_queue and of parallel_tests included), clang (clang++ and libFuzzer), lint,
# bench, m32 (a 32-bit x86 build: the multilib compilers and the i386
# builds of the libraries merilo links; the header-only ones, CLI11 and
# nlohmann-json, serve both), coverage (gcovr), browser (Debian's chromium,
# which the `browser` tests run headless on merilo-lincheck's HTML report and
# explore's trace page), mpi (Open MPI, for explore_mpi and its tests;
# optional: without it the rest builds), docs (Doxygen, and Python for its
# Markdown filter, for `make docs`), proper (Erlang and PropEr, the peer
# that `make bench-proper` runs beside merilo's parallel tester; optional). Every package is from
# Debian's archive; nothing is downloaded. A package named NAME:ARCH is
# another architecture's build: as root, deps.sh adds ARCH to dpkg's
# architectures first.
set -euo pipefail

declare -A packages=(
  [base]="cmake ninja-build make g++ pkg-config libfmt-dev libxxhash-dev googletest libgtest-dev libgmock-dev catch2 doctest-dev libcli11-dev nlohmann-json3-dev libconcurrentqueue-dev libtbb-dev"
  [clang]="clang libclang-rt-dev"
  [lint]="clang-format clang-tidy"
  [bench]="libbenchmark-dev spin time librapidcheck-dev"
  [m32]="gcc-multilib g++-multilib libfmt-dev:i386 libxxhash-dev:i386 libgtest-dev:i386 libgmock-dev:i386"
  [coverage]="gcovr"
  [browser]="chromium"
  [docs]="doxygen python3"
  [mpi]="libopenmpi-dev openmpi-bin"
  [proper]="erlang-base erlang-proper erlang-proper-dev"
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
  for pkg in "${missing[@]}"; do
    arch=${pkg#*:}
    if [[ $arch != "$pkg" && $arch != $(dpkg --print-architecture) ]] &&
       ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
      echo "merilo: adding the $arch architecture to dpkg" >&2
      dpkg --add-architecture "$arch"
    fi
  done
  # A failed index (a mirror in the middle of a sync) need not stop the
  # install: the install itself says when a package cannot be had.
  apt-get update -qq >&2 || echo "merilo: apt-get update reported errors; trying the install anyway" >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
  echo "merilo: missing Debian packages: ${missing[*]}" >&2
  if printf '%s\n' "${missing[@]}" | grep -q ':'; then
    echo "(packages named NAME:ARCH need 'sudo dpkg --add-architecture ARCH' and 'sudo apt-get update' first)" >&2
  fi
  echo "install them with:  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
