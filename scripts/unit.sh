#!/usr/bin/env bash
# Runs every Go test once (no cache) and ends with one summary line,
# "tests: N passed, M failed, K skipped", counting tests and subtests.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
log=$(mktemp)
go test -count=1 -v ./... 2>&1 | tee "$log" | grep -E '^(ok|FAIL|---|panic:|\s+--- FAIL)' | grep -v -- '--- PASS' 
status=${PIPESTATUS[0]}
passed=$(grep -cE '^\s*--- PASS' "$log")
failed=$(grep -cE '^\s*--- FAIL' "$log")
skipped=$(grep -cE '^\s*--- SKIP' "$log")
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  grep -vE '^\s*(=== |--- PASS)' "$log" | tail -40
  failed=1
fi
rm -f "$log"
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit "$status"
