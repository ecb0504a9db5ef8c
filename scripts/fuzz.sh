#!/usr/bin/env bash
# Runs every Go fuzz target in the module for a bounded time each
# (FUZZTIME, default 5s). Fails on the first crasher.
set -euo pipefail
fuzztime=${FUZZTIME:-5s}
cd "$(dirname "$0")/.."
count=0
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  for t in $targets; do
    echo "fuzz: $pkg $t ($fuzztime)"
    go test -run '^$' -fuzz "^${t}\$" -fuzztime "$fuzztime" "$pkg" >/tmp/fuzz.$$.log 2>&1 || { cat /tmp/fuzz.$$.log; rm -f /tmp/fuzz.$$.log; exit 1; }
    count=$((count + 1))
  done
done
rm -f /tmp/fuzz.$$.log
echo "fuzz: $count targets, no crashers"
