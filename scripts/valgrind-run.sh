# shellcheck shell=bash
# Sourced by the scripts that run fabricmodel under valgrind
# (misscurve.sh, callcosts.sh); not run alone.

# valgrind_run OUT GODEBUG COMMAND...: runs COMMAND (valgrind and its
# arguments) with the collector off and the runtime's AVX paths off
# (valgrind 3.19 lacks some of the instructions they use), GODEBUG's
# settings before those, its output in OUT. The Go runtime's spin lock
# reads the time stamp counter with rdtscp, which this valgrind lacks; it
# spins only when a thread holding the lock is descheduled, so a run that
# met it is run again, up to six times. Any other failure prints OUT and
# returns 1.
valgrind_run() {
  local out=$1 godebug=$2 try
  shift 2
  for try in 1 2 3 4 5 6; do
    if GOGC=off GODEBUG="${godebug:+$godebug,}cpu.avx512f=off,cpu.avx2=off" "$@" >"$out" 2>&1; then
      return 0
    fi
    if [ "$try" -eq 6 ] || ! grep -q 'Unrecognised instruction' "$out"; then
      cat "$out" >&2
      return 1
    fi
  done
}

# delivered_packets JSON: the data packets a run's --json output says
# were delivered (empty when it says nothing of them).
delivered_packets() {
  sed -n 's/.*"data_packets_delivered": *\([0-9]*\).*/\1/p' "$1"
}
