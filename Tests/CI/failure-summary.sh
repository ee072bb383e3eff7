#!/usr/bin/env bash
# Prints the failures of a `swift test` log compactly, so that the last lines of a failed CI run (often all that
# is kept of it) name the failing tests and their first message. Usage: failure-summary.sh LOG [MAX_LINES]
log=$1
max=${2:-18}
[ -r "$log" ] || exit 0
echo "==== failing tests (from $log; the full log is above) ===="
# Swift Testing: "✘ Test x() recorded an issue at File.swift:12:5: message" and "✘ Test x() failed after …";
# XCTest: "… error: -[Suite test] : XCTAssert… failed". One line each, cut to 240 characters.
grep -E '^✘ Test .* recorded an issue|: error: |^✘ Suite .* failed' "$log" \
	| grep -v '^✘ Test run with' | cut -c1-240 | awk '!seen[$0]++' | head -n "$max"
grep -E '^✘ Test run with|^Test Suite .* failed' "$log" | tail -n 2
