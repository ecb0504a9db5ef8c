# shellcheck shell=bash disable=SC2154 # $prog is set by the caller
# Sourced by the scripts that time fabricmodel runs (speedruns.sh,
# speedpairs.sh, memspeed.sh) for the checks of their arguments; not run
# alone. Each check that fails prints "PROG: what is wrong" on standard
# error, PROG being the caller's $prog, and exits: 2 for a bad argument,
# 1 for a missing tool.

# need_executable BIN: BIN is a program that can be run.
need_executable() {
  [ -x "$1" ] || { echo "$prog: $1 is not an executable" >&2; exit 2; }
}

# need_scenario FILE: FILE, a scenario, exists.
need_scenario() {
  [ -f "$1" ] || { echo "$prog: no scenario file $1" >&2; exit 2; }
}

# need_count WHAT VALUE: VALUE, the argument named WHAT, is a positive
# whole number.
need_count() {
  [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "$prog: $1 must be a positive whole number, not $2" >&2; exit 2; }
}

# need_taskset: taskset, which pins each run to a core, is installed.
need_taskset() {
  command -v taskset >/dev/null 2>&1 || { echo "$prog: taskset not found (util-linux)" >&2; exit 1; }
}
