#!/usr/bin/env bash
# Wall-clock comparison of two fabricmodel builds on a noisy two-core
# machine: runs build A on one core and build B on the other at the same
# time, swaps the cores each pair, and prints each pair's simulation wall
# times (the speed line's) and the totals per build and per core.
#
#   scripts/speedpairs.sh A B [pairs] [scenario.yaml]
#
# A and B are built binaries (go build -o ...); pairs defaults to 6, the
# scenario to docs/scenarios/speed_1024_leafspine.yaml. Both builds see
# the same hour and the same neighbours, and each core runs each build
# equally often, so a difference between the cores (on the machines this
# was written on, up to one and a half times within an hour) cancels. A
# change worth a few percent needs many pairs; cachegrind
# (scripts/misscurve.sh) counts instructions and misses without noise.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: scripts/speedpairs.sh A B [pairs] [scenario.yaml]" >&2
  exit 2
fi
a=$1 b=$2 pairs=${3:-6} scenario=${4:-docs/scenarios/speed_1024_leafspine.yaml}
prog=speedpairs
# shellcheck source=scripts/speed-args.sh
. scripts/speed-args.sh
need_executable "$a"
need_executable "$b"
need_scenario "$scenario"
need_count pairs "$pairs"
need_taskset
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# wall runs bin on core and writes the speed line's wall seconds to out
wall() {
  local core=$1 bin=$2 out=$3
  if ! taskset -c "$core" "$bin" run "$scenario" > "$out.log" 2>&1; then
    echo "speedpairs: $bin failed on core $core:" >&2
    tail -n 5 "$out.log" >&2
    return 1
  fi
  grep -oE '^speed: [0-9.]+' "$out.log" | cut -d' ' -f2 > "$out"
  [ -s "$out" ] || { echo "speedpairs: no speed line from $bin" >&2; return 1; }
}

printf '%-5s %-16s %-16s\n' pair A B
results=()
for ((i = 1; i <= pairs; i++)); do
  if ((i % 2)); then ca=0 cb=1; else ca=1 cb=0; fi
  wall $ca "$a" "$work/a" & pa=$!
  wall $cb "$b" "$work/b" & pb=$!
  wait $pa && wait $pb
  ta=$(cat "$work/a") tb=$(cat "$work/b")
  printf '%-5s %-16s %-16s\n' "$i" "$ta s (core $ca)" "$tb s (core $cb)"
  results+=("A $ca $ta" "B $cb $tb")
done
printf '%s\n' "${results[@]}" | awk '
  { sum[$1] += $3; core[$1 " " $2] += $3; n[$1 " " $2]++ }
  END {
    printf "total A %.2f s, B %.2f s: B/A %.3f\n", sum["A"], sum["B"], sum["B"] / sum["A"]
    for (c = 0; c <= 1; c++)
      if (n["A " c] && n["B " c])
        printf "core %d: A %.2f s in %d, B %.2f s in %d\n", c, core["A " c], n["A " c], core["B " c], n["B " c]
  }'
