#!/usr/bin/env bash
# The speed of a fabricmodel build beside the machine's memory latency:
# runs a scenario on one core several times, each run right after
# scripts/memlatency has measured the latency of a dependent load in an
# 8 MiB and a 64 MiB working set on the same core, and prints one row per
# run and the least-squares lines of the run's wall time (its speed
# line's) against each latency, with their correlations. On a shared machine
# the last level's share and the memory's latency move with the
# neighbours' load; the lines say how much of a run's time follows them.
#
#   scripts/memspeed.sh BINARY [runs] [core] [scenario.yaml]
#
# runs defaults to 12, core to 1, the scenario (a path from the
# repository's root) to docs/scenarios/speed_1024_leafspine.yaml.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: scripts/memspeed.sh BINARY [runs] [core] [scenario.yaml]" >&2
  exit 2
fi
# the binary as given from where the script was started
bin=$(realpath -- "$1" 2>/dev/null || echo "$1")
cd "$(dirname "$0")/.."
runs=${2:-12} core=${3:-1} scenario=${4:-docs/scenarios/speed_1024_leafspine.yaml}
prog=memspeed
# shellcheck source=scripts/speed-args.sh
. scripts/speed-args.sh
need_executable "$bin"
need_scenario "$scenario"
need_count runs "$runs"
[[ $core =~ ^[0-9]+$ ]] || { echo "memspeed: core must be a CPU number, not $core" >&2; exit 2; }
need_taskset
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/memlatency" ./scripts/memlatency

printf '%4s  %14s  %15s  %12s\n' run "8 MiB ns/load" "64 MiB ns/load" "wall (s)"
for i in $(seq 1 "$runs"); do
  taskset -c "$core" "$work/memlatency" -mb 8,64 -loads 3000000 > "$work/lat"
  read -r lat8 lat64 < <(awk 'NR > 1 { printf "%s ", $2 } END { print "" }' "$work/lat")
  if ! taskset -c "$core" "$bin" run "$scenario" > "$work/run.log" 2>&1; then
    echo "memspeed: $bin failed:" >&2
    tail -n 5 "$work/run.log" >&2
    exit 1
  fi
  wall=$(grep -oE '^speed: [0-9.]+' "$work/run.log" | cut -d' ' -f2)
  [ -n "$wall" ] || { echo "memspeed: no speed line in the run's output" >&2; exit 1; }
  printf '%4d  %14s  %15s  %12s\n' "$i" "$lat8" "$lat64" "$wall"
  echo "$lat8 $lat64 $wall" >> "$work/points"
done
# fit MiB COLUMN: the least-squares line of wall time against the latency
# in COLUMN of the points
fit() {
  awk -v mib="$1" -v c="$2" '
    { n++; x = $c; y = $3; sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y }
    END {
      vx = n * sxx - sx * sx; vy = n * syy - sy * sy
      if (n < 3 || vx <= 0 || vy <= 0) { printf "%s MiB: too few distinct points for a line\n", mib; exit }
      b = (n * sxy - sx * sy) / vx; a = (sy - b * sx) / n
      r = (n * sxy - sx * sy) / sqrt(vx * vy)
      printf "wall = %.3f s + %.2f ms per ns of %s MiB latency (r = %.2f, %d runs)\n", a, b * 1000, mib, r, n
    }' "$work/points"
}
fit 8 1
fit 64 2
