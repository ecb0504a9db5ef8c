#!/usr/bin/env bash
# Instructions per operation of a fabric run: runs `fabricmodel run` on a
# scenario under callgrind, which counts every call, and prints for each
# of the hot operations below its calls, the instructions one call takes
# with everything it calls (inclusive), and both per delivered data
# packet. Counts hardly depend on the machine's load, so two builds
# compare where timed runs cannot; they see no cache miss and no stall.
#
#   scripts/callcosts.sh [scenario.yaml]
#
# Default: docs/scenarios/speed_256_leafspine.yaml (about 30 s of
# callgrind per second of the run's own wall time). Needs valgrind
# (apt-get install valgrind). The runtime's preemption signals are off
# (callgrind stops on an assertion otherwise); a run that stops on an
# instruction valgrind lacks (rdtscp, in the Go scheduler's spin lock) is
# run again, up to six times.
#
# A function the compiler inlined everywhere has no calls of its own and
# is not listed; where callgrind splits a function's cost by the source
# files of the code inlined into it, the largest entry is the function's.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/valgrind-run.sh
. scripts/valgrind-run.sh
scenario=${1:-docs/scenarios/speed_256_leafspine.yaml}
[ -f "$scenario" ] || { echo "callcosts: no scenario file $scenario" >&2; exit 2; }
command -v valgrind >/dev/null 2>&1 || { echo "callcosts: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/fabricmodel" ./cmd/fabricmodel
out="$work/run.txt"
valgrind_run "$out" asyncpreemptoff=1 valgrind --tool=callgrind \
  --callgrind-out-file="$work/callgrind.out" \
  "$work/fabricmodel" run --huge-pages=false --json "$work/run.json" "$scenario" || exit 1
packets=$(delivered_packets "$work/run.json")
if [ -z "$packets" ] || [ "$packets" -eq 0 ]; then
  echo "callcosts: the run delivered no data packets:" >&2
  cat "$out" >&2
  exit 1
fi
callgrind_annotate --inclusive=yes --tree=caller --threshold=100 "$work/callgrind.out" >"$work/tree.txt"

# The operations: a label and an awk pattern matched against the
# function's name (package-qualified, without the module path).
ops='
simulation (Engine.runWindows)|rtlmodel\.\(\*Engine\)\.runWindows$
kernel step (Engine.step)|rtlmodel\.\(\*Engine\)\.step$
evaluation (Engine.evalComp)|rtlmodel\.\(\*Engine\)\.evalComp$
window read-ahead (Link.readAhead)|rtlmodel\.\(\*Link\[serdes\.RxFrame\[.*\]\]\)\.readAhead$
prefetch pipeline stage (part.prefetchStage)|rtlmodel\.\(\*part\)\.prefetchStage$
switch MMU evaluation (mmu.Eval)|switchasic\.\(\*mmu\)\.Eval$
switch ingress of a frame (ingressPipe.accept)|switchasic\.\(\*ingressPipe\)\.accept$
switch routing of a frame (ingressPipe.route)|switchasic\.\(\*ingressPipe\)\.route$
switch header parse (ParseRoCEv2IPv4Route)|packet\.ParseRoCEv2IPv4Route$
switch admission (mmu.admit)|switchasic\.\(\*mmu\)\.admit$
switch port served (mmu.serve)|switchasic\.\(\*mmu\)\.serve$
link send (Link.send)|rtlmodel\.\(\*Link\[go\.shape\.\*uint8\]\)\.send$
frame onto a wire (phyTaker.TakeSent)|serdes\.phyTaker\[.*\]\.TakeSent$
NIC evaluation (NIC.Eval)|nic400g\.\(\*NIC\)\.Eval$
NIC transmit (NIC.transmit)|nic400g\.\(\*NIC\)\.transmit$
NIC data packet built (NIC.emit)|nic400g\.\(\*NIC\)\.emit$
NIC receive (NIC.receive)|nic400g\.\(\*NIC\)\.receive$
ICRC of a packet (NIC.packetICRC)|nic400g\.\(\*NIC\)\.packetICRC$
watch event (Watch.add)|rtlmodel\.\(\*Watch\)\.add$
'
# the patterns go through the environment: awk would read the
# backslashes of a -v assignment as escapes
OPS=$ops awk -v packets="$packets" '
  function num(s) { gsub(",", "", s); return s + 0 }
  # name: the function of a "file:function [object]" field list, less
  # the module path and the object
  function name(line,   s) {
    s = line
    sub(/ \[[^]]*\]$/, "", s)
    sub(/ \([0-9,]+x\)$/, "", s)
    sub(/^[^:]*:/, "", s)
    gsub(/github\.com\/fabricmodel\/fabricmodel\//, "", s)
    return s
  }
  BEGIN {
    n = split(ENVIRON["OPS"], lines, "\n")
    for (i = 1; i <= n; i++) {
      if (lines[i] == "") continue
      split(lines[i], f, "|")
      k++; label[k] = f[1]; pat[k] = f[2]
    }
  }
  # a caller line: "  N (p%)  < file:function (Cx) [object]"
  /^ *[0-9,]+ \( *[0-9.]+%\)  < / {
    c = $0
    if (match(c, /\(([0-9,]+)x\)/)) {
      calls_here += num(substr(c, RSTART + 1, RLENGTH - 3))
    }
    next
  }
  # the function line: "N (p%)  *  file:function [object]"
  /^ *[0-9,]+ \( *[0-9.]+%\)  \*  / {
    incl = num($1)
    s = $0
    sub(/^ *[0-9,]+ \( *[0-9.]+%\)  \*  /, "", s)
    fn = name(s)
    if (incl > inclusive[fn]) inclusive[fn] = incl
    if (calls_here > calls[fn]) calls[fn] = calls_here
    calls_here = 0
    next
  }
  /^$/ { calls_here = 0 }
  END {
    printf "%d delivered data packets\n", packets
    printf "%-46s %12s %14s %14s %12s\n", "operation", "calls", "instr/call", "calls/packet", "instr/packet"
    for (i = 1; i <= k; i++) {
      best = ""; bi = -1
      for (fn in inclusive) {
        if (fn ~ pat[i] && inclusive[fn] > bi) { best = fn; bi = inclusive[fn] }
      }
      if (best == "" || calls[best] == 0) {
        printf "%-46s %12s\n", label[i], "(no calls)"
        continue
      }
      printf "%-46s %12d %14.0f %14.2f %12.0f\n", label[i], calls[best], inclusive[best] / calls[best],
        calls[best] / packets, inclusive[best] / packets
    }
  }' "$work/tree.txt"
