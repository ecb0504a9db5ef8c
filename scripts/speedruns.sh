#!/usr/bin/env bash
# A set of runs of one fabricmodel build against the speed goal: runs the
# scenario one at a time, alternating cores (0, 1, 0, ...), and prints a
# row per run (its core, then from its speed line the wall time, packets
# per second, peak RSS and the run's user and system CPU time) and, per
# core and in all, the least, median and greatest wall time and how many
# runs made the goal. These are the figures of the README's "Speed at
# scale" table.
#
#   scripts/speedruns.sh BINARY [runs] [scenario.yaml] [goal packets/s]
#
# runs defaults to 10, the scenario (a path from the repository's root)
# to docs/scenarios/speed_1024_leafspine.yaml, the goal to 300000
# delivered data packets per wall-second (issue 7). The first run of a
# set after a pause pays for fresh pages (its system time shows it; a
# build whose speed line gives no CPU time shows "-");
# scripts/speedpairs.sh compares two builds, scripts/memspeed.sh reads
# the machine's memory beside the runs.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: scripts/speedruns.sh BINARY [runs] [scenario.yaml] [goal packets/s]" >&2
  exit 2
fi
bin=$(realpath -- "$1" 2>/dev/null || echo "$1")
cd "$(dirname "$0")/.."
runs=${2:-10} scenario=${3:-docs/scenarios/speed_1024_leafspine.yaml} goal=${4:-300000}
prog=speedruns
# shellcheck source=scripts/speed-args.sh
. scripts/speed-args.sh
need_executable "$bin"
need_scenario "$scenario"
need_count runs "$runs"
need_count "the goal (packets/s)" "$goal"
need_taskset
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rows="$work/rows"
: >"$rows"
printf '%4s %5s %9s %12s %10s %8s %8s\n' run core "wall (s)" "packets/s" "RSS (MiB)" "user (s)" "sys (s)"
for i in $(seq 1 "$runs"); do
  core=$(( (i - 1) % 2 ))
  out="$work/run.txt"
  if ! taskset -c "$core" "$bin" run "$scenario" >"$out" 2>&1; then
    echo "speedruns: run $i failed:" >&2
    tail -20 "$out" >&2
    exit 1
  fi
  # speed: W s wall (build B s) for T us simulated: P delivered data packets/s, E evals/s; peak RSS R MiB; CPU U s user, S s system
  # (each figure found by the words around it, not by its place in the line)
  row=$(awk -v i="$i" -v c="$core" '
    function num(s, re,   m) {
      if (!match(s, re)) return ""
      m = substr(s, RSTART, RLENGTH)
      gsub(/[^0-9.]/, "", m)
      return m
    }
    /^speed:/ {
      w = num($0, "^speed: [0-9.]+ s wall")
      p = num($0, "[0-9]+ delivered data packets/s")
      r = num($0, "peak RSS [0-9.]+ MiB")
      u = num($0, "CPU [0-9.]+ s user")
      s = num($0, "[0-9.]+ s system")
    }
    END {
      if (w == "" || p == "") exit 1
      printf "%d %d %s %s %s %s %s\n", i, c, w, p, (r == "" ? "-" : r), (u == "" ? "-" : u), (s == "" ? "-" : s)
    }' "$out") || { echo "speedruns: run $i printed no speed line with a wall time and packets/s:" >&2; tail -20 "$out" >&2; exit 1; }
  echo "$row" >>"$rows"
  echo "$row" | awk '{ printf "%4d %5d %9s %12s %10s %8s %8s\n", $1, $2, $3, $4, $5, $6, $7 }'
done
summary() { # label, then the rows on standard input
  sort -k3,3g | awk -v label="$1" -v goal="$goal" '
    {
      w[NR] = $3
      if ($4 + 0 >= goal) met++
      if ($5 != "-" && (lo == "" || $5 + 0 < lo + 0)) lo = $5
      if ($5 != "-" && (hi == "" || $5 + 0 > hi + 0)) hi = $5
    }
    END {
      if (NR == 0) exit
      med = (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2
      rss = (lo == "") ? "unknown" : lo " to " hi " MiB"
      printf "%-8s %3d runs: wall %s to %s s, median %.3f s; %d at %d packets/s or more; peak RSS %s\n", label, NR, w[1], w[NR], med, met, goal, rss
    }'
}
for core in 0 1; do
  awk -v c="$core" '$2 == c' "$rows" | summary "core $core"
done
summary "all" <"$rows"
