#!/usr/bin/env bash
# The fault matrix (`make fault-matrix`): the release rawcap against the emulated camera misbehaving, over USB
# framing and over PTP/IP, plus disk full, a read-only folder and Ctrl-C. Prints a Markdown table (see
# fault_matrix.py); exits 1 when a row shows a defect. Needs python3, prlimit and setpriv (util-linux), and root for
# the read-only row (root ignores a folder's mode bits, so rawcap runs as nobody there).
#
# usage: Tests/FaultMatrix/fault-matrix.sh [RAWCAP] [--sensor WxH] [--timeout SECONDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rawcap=${1:-$here/../../.build/release/rawcap}
shift || true
[ -x "$rawcap" ] || { echo "fault matrix: $rawcap is not built (swift build -c release --product rawcap)" >&2; exit 1; }
echo "Machine: $(nproc) cores, $(uname -sr); $(date -u '+%Y-%m-%d %H:%M UTC'); load before: $(uptime | sed 's/.*load average: //')"
echo
python3 "$here/fault_matrix.py" "$rawcap" "$@"
