#!/usr/bin/env bash
# Cache-miss curve of a fabric run: runs `fabricmodel run` on a scenario
# under cachegrind once per last-level cache size and prints, per size, the
# last-level data misses in all and per delivered data packet, with the
# instructions per packet. The counts hardly depend on the machine's load
# (runs of one build differ by about 1 %, where wall-clock runs on a
# shared machine differ by 10 % or more), so they compare builds where
# timed runs cannot; the curve's shape says how far the run's working set
# is from fitting a cache of each size.
#
#   scripts/misscurve.sh [scenario.yaml] [MB ...]
#
# Defaults: docs/scenarios/speed_256_leafspine.yaml and 1 2 4 8 16 32 64 MB.
# Needs valgrind (apt-get install valgrind). Each size takes about 30 times
# the run's own wall time. A run that stops on an instruction cachegrind
# lacks (rdtscp, in the Go scheduler's spin lock; a second busy core makes
# it likelier) is run again, up to six times (scripts/valgrind-run.sh).
# The level-1 caches are cachegrind's defaults for this machine; sizes
# must give a power-of-two set count at 16 ways.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/valgrind-run.sh
. scripts/valgrind-run.sh
scenario=${1:-docs/scenarios/speed_256_leafspine.yaml}
shift || true
sizes=("$@")
if [ ${#sizes[@]} -eq 0 ]; then
  sizes=(1 2 4 8 16 32 64)
fi
command -v valgrind >/dev/null 2>&1 || { echo "misscurve: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/fabricmodel" ./cmd/fabricmodel
printf '%8s %16s %12s %14s\n' "LL MB" "LL data misses" "per packet" "instr/packet"
for mb in "${sizes[@]}"; do
  out="$work/run.txt"
  valgrind_run "$out" "" valgrind --tool=cachegrind --cache-sim=yes \
    --LL=$((mb * 1024 * 1024)),16,64 --cachegrind-out-file=/dev/null \
    "$work/fabricmodel" run --huge-pages=false --json "$work/run.json" "$scenario" || exit 1
  packets=$(delivered_packets "$work/run.json")
  misses=$(sed -n 's/.*LLd misses: *\([0-9,]*\).*/\1/p' "$out" | tr -d ,)
  instr=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$out" | tr -d ,)
  if [ -z "$packets" ] || [ -z "$misses" ] || [ -z "$instr" ] || [ "$packets" -eq 0 ]; then
    echo "misscurve: could not read the run's figures at $mb MB:" >&2
    cat "$out" >&2
    exit 1
  fi
  printf '%8s %16s %12.1f %14.0f\n' "$mb" "$misses" "$(echo "$misses / $packets" | bc -l)" "$(echo "$instr / $packets" | bc -l)"
done
