#!/usr/bin/env bash
# rawcap against its peers (PiDNG, gphoto2) and the plain-copy limits, measured in one run: `make bench-peers`.
# Prints a Markdown table, with the machine and its load before and after. See Benchmarks/peers.py for the rows.
#
# usage: Benchmarks/peers.sh [RAWCAP] [peers.py options: --runs N --frame WxH --sensor WxH]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rawcap=${1:-$here/../.build/release/rawcap}
shift || true
python=${RAWCAP_PYTHON:-$here/../.build/venv/bin/python}
[ -x "$rawcap" ] || { echo "peers: $rawcap is not built (swift build -c release --product rawcap)" >&2; exit 1; }
[ -x "$python" ] || { echo "peers: no venv at $python (make deps)" >&2; exit 1; }
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "Load before: $(uptime | sed 's/.*load average/load average/')"
echo
"$python" "$here/peers.py" --rawcap "$rawcap" "$@"
echo
echo "Load after: $(uptime | sed 's/.*load average/load average/')"
