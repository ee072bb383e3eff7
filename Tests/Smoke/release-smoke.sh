#!/usr/bin/env bash
# The optimized rawcap binary, end to end: `make test` runs this after the suite.
#
# Swift 6.3.1's optimizer has miscompiled code that the debug-built suite passes (RawFrame.init; see
# ARCHITECTURE.md), so the release binary must prove itself: it shoots from the emulated camera, and the raw pixels
# of its DNGs (their NewRawImageDigest) must equal the debug binary's for the same shots (the emulator's noise is
# seeded per shot, so both runs photograph exactly the same frames); then it inspects and converts what it wrote,
# and exiftool validates every file.
#
# usage: release-smoke.sh RELEASE_RAWCAP DEBUG_RAWCAP
set -euo pipefail
release=$1
debug=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "release smoke test: $*" >&2; exit 1; }

shoot() {
    "$1" shoot --camera sim --sim-sensor 1024x768 --count 2 --keep-jpeg --compression lossless \
        -o "$work/$2" --json >"$work/$2.jsonl" 2>"$work/$2.log" || fail "$1 shoot: $(tail -1 "$work/$2.log")"
}
shoot "$release" release
shoot "$debug" debug

count=$(find "$work/release" -name '*.dng' | wc -l)
[ "$count" -eq 2 ] || fail "expected 2 DNGs from the release binary, found $count"
[ "$(wc -l <"$work/release.jsonl")" -ge 2 ] || fail "--json printed fewer than 2 objects"
digests() { exiftool -q -s3 -NewRawImageDigest "$work/$1"/*.dng; }
[ -n "$(digests release)" ] || fail "no NewRawImageDigest in the release binary's DNGs"
[ "$(digests release)" = "$(digests debug)" ] || fail "the release and debug binaries wrote different raw pixels"

first=$(find "$work/release" -name '*.dng' | sort | head -1)
"$release" inspect "$first" >"$work/inspect.txt" || fail "inspect failed on $first"
mkdir -p "$work/converted"
"$release" convert "$first" -o "$work/converted" >/dev/null || fail "convert failed on $first"
converted=$(find "$work/converted" -name '*.dng' | head -1)
[ -n "$converted" ] || fail "convert wrote no DNG"
[ "$(exiftool -q -s3 -NewRawImageDigest "$converted")" = "$(exiftool -q -s3 -NewRawImageDigest "$first")" ] ||
    fail "converting a DNG changed its raw pixels"
for file in "$work"/release/*.dng "$converted"; do
    # docs/dng-conformance.md: exiftool reports OK with no warning for rawcap's DNGs.
    report=$(exiftool -validate -warning -a -s3 "$file")
    [ "$report" = "OK" ] || fail "exiftool -validate on $(basename "$file"): $report"
done
echo "release smoke test: passed (2 shots, digests equal to the debug build's, inspect, convert, exiftool -validate)"
