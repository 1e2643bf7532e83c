# common.sh — sourced by compare.sh and compact.sh: checks that SPIN and
# /usr/bin/time are installed (naming the calling script), makes the
# temporary work directory `$work` (removed on exit), and defines what both
# size SPIN's tables by: w_for STATES (log2 of the hash table, the next
# power of two above STATES) and TLC's exact TwoPhase counts, `expected`.
me=$(basename "$0")
command -v spin >/dev/null || { echo "$me: spin is not installed (apt-get install -y spin)"; exit 1; }
[ -x /usr/bin/time ] || { echo "$me: /usr/bin/time is missing (apt-get install -y time)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

w_for() { awk -v n="$1" 'BEGIN { w = 10; while (2 ^ w < n) w++; print w }'; }
declare -A expected=([3]=288 [5]=8832 [7]=296448 [8]=1745408 [9]=10340352 [10]=61515776)
