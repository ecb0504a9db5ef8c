#!/usr/bin/env bash
# Installs what the test suite needs that Go does not bring: Icarus Verilog
# (RTL simulation), Verilator with the make and g++ its builds run (a second
# RTL simulator), gtkwave's vcd2fst (VCD conversion check), and slurm-wlm
# with munge (the explore sweep run as a SLURM array job; scripts/slurm-local.sh
# starts them).
# Debian packages; needs root. Safe to run again: it skips what is there.
set -euo pipefail
need=()
command -v iverilog >/dev/null 2>&1 || need+=(iverilog)
command -v vcd2fst >/dev/null 2>&1 || need+=(gtkwave)
command -v verilator >/dev/null 2>&1 || need+=(verilator)
command -v make >/dev/null 2>&1 || need+=(make)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v sbatch >/dev/null 2>&1 || need+=(slurm-wlm)
command -v munged >/dev/null 2>&1 || need+=(munge)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-test-deps: missing ${need[*]}; run as root or: sudo apt-get install -y ${need[*]}" >&2
  echo "install-test-deps: the tests that need them skip outside CI and fail in CI" >&2
  exit 0
fi
echo "install-test-deps: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
