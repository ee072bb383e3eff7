#!/usr/bin/env bash
# The soak test (`make soak`): the release rawcap shooting thousands of RAW+JPEG frames from `rawcap sim serve`
# over PTP/IP with a fault every 100 shots, re-run after each failure, then `pull --resume`; every camera object
# must end up on disk exactly once, memory flat. See soak.py for the checks.
#
# usage: Tests/Soak/soak.sh [RAWCAP] [--frames N] [--every N] [--sensor WxH] [--inspect N] [--keep]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rawcap=${1:-$here/../../.build/release/rawcap}
shift || true
[ -x "$rawcap" ] || { echo "soak: $rawcap is not built (swift build -c release --product rawcap)" >&2; exit 1; }
echo "Machine: $(nproc) cores, $(uname -sr); $(date -u '+%Y-%m-%d %H:%M UTC'); load before: $(uptime | sed 's/.*load average: //')"
python3 "$here/soak.py" "$rawcap" "$@"
