#!/usr/bin/env bash
# The soak test (`make soak`): the release rawcap shooting thousands of RAW+JPEG frames from `rawcap sim serve`
# over PTP/IP in one `rawcap shoot --reconnect --interval` run, with a fault every 100 shots (disconnects, stalls,
# busy storms, lost and duplicated events, reboots, power cycles and sleeps); every frame that fell due must be on
# disk exactly once or journaled as shot-missed, memory flat. See soak.py for the checks.
#
# usage: Tests/Soak/soak.sh [RAWCAP] [--frames N] [--every N] [--interval D] [--sensor WxH] [--inspect N] [--keep]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rawcap=${1:-$here/../../.build/release/rawcap}
shift || true
[ -x "$rawcap" ] || { echo "soak: $rawcap is not built (swift build -c release --product rawcap)" >&2; exit 1; }
echo "Machine: $(nproc) cores, $(uname -sr); $(date -u '+%Y-%m-%d %H:%M UTC'); load before: $(uptime | sed 's/.*load average: //')"
python3 "$here/soak.py" "$rawcap" "$@"
