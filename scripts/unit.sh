#!/usr/bin/env bash
# Runs every Go test once (no cache) and ends with one summary line,
# "tests: N passed, M failed, K skipped", counting tests and subtests.
# A failing test's own messages (its log and assertions) are printed
# before the summary, up to 200 lines.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
log=$(mktemp)
go test -count=1 -v ./... 2>&1 | tee "$log" | grep -E '^(ok|FAIL|---|panic:|\s+--- FAIL)' | grep -v -- '--- PASS' 
status=${PIPESTATUS[0]}
passed=$(grep -cE '^\s*--- PASS' "$log")
failed=$(grep -cE '^\s*--- FAIL' "$log")
skipped=$(grep -cE '^\s*--- SKIP' "$log")
if [ "$failed" -gt 0 ]; then
  # each failing test's messages, which the lines above leave out: what
  # it logged and asserted, up to the line that ends it
  echo "failures:"
  awk '/^=== (RUN|CONT|NAME)/ { buf = ""; keep = 1; next }
       /^[[:space:]]*--- PASS/ { keep = 0; buf = ""; next }
       /^[[:space:]]*--- FAIL/ { print buf $0; buf = ""; next }
       keep { buf = buf $0 "\n" }' "$log" | head -200
elif [ "$status" -ne 0 ]; then
  grep -vE '^\s*(=== |--- PASS)' "$log" | tail -40
  failed=1
fi
rm -f "$log"
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit "$status"
