#!/usr/bin/env python3
"""The soak test (`make soak`): thousands of RAW+JPEG frames from `rawcap sim serve` over PTP/IP in ONE run of
`rawcap shoot --reconnect --interval`, with a fault after every 100 shots (the emulator's `every=` schedule, in
turn: a disconnect mid-download, a stalled GetPartialObject, a DeviceBusy storm, a lost ObjectAdded, a duplicated
ObjectAdded, a reboot mid-download, a power cycle mid-download (the camera off the network for 2 s), the camera
falling asleep at the next InitiateCapture (1.5 s)).

The run must end with status 0, and then:
- every frame that fell due (0 … frames-1) is on disk exactly once (its DNG, and its JPEG beside it) or journaled as
  `shot-missed`, never both;
- no camera object was written twice, every image object on the camera (`rawcap ls --json`) was written, and no
  temporary is left; the DNGs open (`rawcap inspect` on a sample);
- `camera-lost` and `camera-back` pair up;
- memory is flat: the shoot's resident size (VmRSS from /proc) after its first 10 s and at its end.

usage: soak.py RAWCAP [--frames 2000] [--every 100] [--interval 100ms] [--sensor 640x480] [--inspect N] [--keep]
Prints the figures as Markdown; exits 1 when a check fails.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def status_kb(pid, field):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def journal(out):
    try:
        with open(os.path.join(out, "rawcap-journal.jsonl")) as lines:
            return [json.loads(line) for line in lines if line.strip()]
    except FileNotFoundError:
        return []


def run_sampled(cmd, timeout):
    """Runs cmd, sampling VmRSS and VmHWM every half second; returns status, stdout, stderr, seconds, peak kB and the
    (seconds, VmRSS kB) samples."""
    start = time.monotonic()
    output = tempfile.TemporaryFile()
    errors = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, stdout=output, stderr=errors)
    peak, samples = 0, []
    while proc.poll() is None:
        if time.monotonic() - start > timeout:
            proc.kill()
            break
        hwm, rss = status_kb(proc.pid, "VmHWM"), status_kb(proc.pid, "VmRSS")
        if hwm:
            peak = max(peak, hwm)
        if rss:
            samples.append((time.monotonic() - start, rss))
        time.sleep(0.5)
    proc.wait()
    output.seek(0)
    errors.seek(0)
    return (proc.returncode, output.read().decode(errors="replace"), errors.read().decode(errors="replace"),
            time.monotonic() - start, peak, samples)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("rawcap")
    parser.add_argument("--frames", type=int, default=2000)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--interval", default="100ms")
    parser.add_argument("--sensor", default="640x480")
    parser.add_argument("--inspect", type=int, default=100, help="DNGs to check with rawcap inspect (0: all)")
    parser.add_argument("--keep", action="store_true", help="keep the output folder")
    args = parser.parse_args()
    rawcap = os.path.abspath(args.rawcap)
    work = tempfile.mkdtemp(prefix="rawcap-soak-", dir=os.environ.get("TMPDIR", "/var/tmp"))
    out = os.path.join(work, "captures")
    started = time.monotonic()

    server = subprocess.Popen(
        [rawcap, "sim", "serve", "--listen", "127.0.0.1:0", "--json", "--sensor", args.sensor, "--fault",
         f"every={args.every}", "--card-capacity", "16GB", "--seed", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    line = server.stdout.readline()
    if not line:
        sys.exit("soak: rawcap sim serve did not start")
    camera = f"ptpip:127.0.0.1:{json.loads(line)['port']}"
    print(f"soak: {args.frames} frames RAW+JPEG every {args.interval}, {args.sensor}, fault every {args.every} shots, "
          f"camera {camera}, folder {out}", file=sys.stderr)

    problems = []
    try:
        cmd = [rawcap, "shoot", "--camera", camera, "--count", str(args.frames), "--interval", args.interval,
               "--keep-jpeg", "--reconnect", "--reconnect-timeout", "2m", "--timeout", "5", "--json", "-o", out]
        status, output, errors, seconds, peak, samples = run_sampled(cmd, timeout=6 * 3600)
        tail = [l for l in errors.splitlines() if l.startswith("rawcap ")]
        print(f"soak: shoot exit {status} in {seconds:.0f} s; {tail[-1] if tail else ''}", file=sys.stderr)
        if status != 0:
            problems.append(f"shoot exit {status}: {tail[-1] if tail else errors[-300:]}")
        listing = subprocess.run([rawcap, "ls", "--json", "--camera", camera, "--timeout", "10", "-o", out],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
        if listing.returncode != 0:
            problems.append(f"ls exit {listing.returncode}: {listing.stderr.decode(errors='replace').strip()}")
        objects = [json.loads(l) for l in listing.stdout.decode().splitlines() if l.strip()]
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()

    entries = journal(out)
    lines = [json.loads(l) for l in output.splitlines() if l.strip().startswith("{")]

    # Every frame that fell due: on disk exactly once (DNG and JPEG) or missed, never both.
    dng_by_shot, jpeg_by_shot, missed = {}, {}, []
    written = {}
    for entry in entries:
        event = entry.get("event")
        if event == "file-written":
            target = dng_by_shot if entry.get("kind") == "dng" else jpeg_by_shot
            target.setdefault(entry.get("shot"), []).append(entry.get("path"))
            written.setdefault((entry.get("cameraFile"), entry.get("captureDate")), []).append(entry.get("path"))
        elif event == "shot-missed":
            missed.append(entry.get("shot"))
    frames = set(range(args.frames))
    saved = set(dng_by_shot)
    twice = {k: v for k, v in dng_by_shot.items() if len(v) > 1}
    both = saved & set(missed)
    unaccounted = frames - saved - set(missed)
    extra = (saved | set(missed)) - frames
    unpaired = [s for s in saved if len(jpeg_by_shot.get(s, [])) != 1]
    if len(missed) != len(set(missed)):
        problems.append(f"a frame missed twice: {sorted(missed)[:10]}")
    if twice:
        problems.append(f"{len(twice)} frame(s) written twice: {list(twice.items())[:3]}")
    if both:
        problems.append(f"frames both written and missed: {sorted(both)[:10]}")
    if unaccounted:
        problems.append(f"{len(unaccounted)} frame(s) neither written nor missed: {sorted(unaccounted)[:10]}")
    if extra:
        problems.append(f"frames beyond the run: {sorted(extra)[:10]}")
    if unpaired:
        problems.append(f"{len(unpaired)} frame(s) without exactly one JPEG: {sorted(unpaired)[:10]}")

    # Every camera object written once; none on the camera left unwritten.
    objects_twice = {k: v for k, v in written.items() if len(v) > 1}
    images = [o for o in objects if o.get("objectFormatName") != "Association"]
    unwritten = [o["cameraFile"] for o in images if (o["cameraFile"], o["captureDate"]) not in written]
    if objects_twice:
        problems.append(f"{len(objects_twice)} camera object(s) written twice: {list(objects_twice.items())[:3]}")
    if unwritten:
        problems.append(f"{len(unwritten)} camera object(s) never written: {unwritten[:6]}")
    gone = [p for paths in written.values() for p in paths
            if not os.path.exists(p if os.path.isabs(p) else os.path.join(out, os.path.basename(p)))]
    if gone:
        problems.append(f"{len(gone)} journaled file(s) not on disk: {gone[:3]}")
    names = sorted(os.listdir(out)) if os.path.isdir(out) else []
    hidden = [n for n in names if n.startswith(".")]
    dngs = [n for n in names if n.endswith(".dng")]
    jpegs = [n for n in names if n.endswith(".jpg")]
    if hidden:
        problems.append(f"temporaries left: {hidden[:5]}")
    if len(dngs) != len(saved) or len(jpegs) != len(saved):
        problems.append(f"{len(dngs)} DNG + {len(jpegs)} JPEG on disk for {len(saved)} saved frames")

    # The camera's departures, as the journal and the --json lines tell them.
    lost = [e for e in entries if e.get("event") == "camera-lost"]
    back = [e for e in entries if e.get("event") == "camera-back"]
    overruns = [e for e in entries if e.get("event") == "shot-overrun"]
    if len(lost) != len(back):
        problems.append(f"{len(lost)} camera-lost but {len(back)} camera-back")
    json_events = [l.get("event") for l in lines if "event" in l]
    if json_events.count("camera-lost") != len(lost) or json_events.count("shot-missed") != len(missed):
        problems.append("the --json lines and the journal disagree on camera-lost or shot-missed")
    if args.frames >= 8 * args.every and not lost:
        problems.append("no camera-lost: the schedule's power cycles and sleeps did not happen")

    # The DNGs open and their raw digests check.
    sample = dngs if args.inspect == 0 else dngs[:: max(1, len(dngs) // max(1, args.inspect))]
    bad = []
    for name in sample:
        check = subprocess.run([rawcap, "inspect", os.path.join(out, name)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
        if check.returncode != 0:
            bad.append(f"{name}: {check.stderr.decode(errors='replace').strip()[-100:]}")
    if bad:
        problems.append(f"{len(bad)} of {len(sample)} inspected DNGs fail: {bad[:3]}")

    # Memory: the resident size after the first 10 s (buffers sized) against the end.
    settled = [s for s in samples if s[0] >= 10] or samples
    rss_first = settled[0][1] if settled else None
    rss_last = settled[-1][1] if settled else None
    if rss_first and rss_last and rss_last > rss_first * 1.5 + 20 * 1024:
        problems.append(f"resident size grew from {rss_first} kB to {rss_last} kB")
    duration = time.monotonic() - started
    codes = {}
    for entry in lost:
        codes[entry.get("code")] = codes.get(entry.get("code"), 0) + 1
    away = [e.get("seconds") or 0 for e in back]

    print()
    print(f"Soak {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}: {args.frames} frames RAW+JPEG every {args.interval} over PTP/IP, sensor "
          f"{args.sensor}, every={args.every}; one `rawcap shoot --reconnect`.")
    print()
    print(f"- shoot: exit {status}, {seconds:.0f} s; {tail[-1] if tail else ''}")
    print(f"- frames: {len(saved)} saved (DNG + JPEG), {len(set(missed))} shot-missed, {len(unaccounted)} neither, "
          f"{len(twice)} written twice, {len(both)} both; {len(overruns)} started late (shot-overrun)")
    print(f"- camera objects: {len(images)} on the card, {len(unwritten)} never written, {len(objects_twice)} "
          f"written twice; temporaries left: {len(hidden)}")
    print(f"- camera-lost {len(lost)} ({', '.join(f'{k} ×{v}' for k, v in sorted(codes.items(), key=str))}), "
          f"camera-back {len(back)}; away "
          + (f"{min(away):.1f}–{max(away):.1f} s, {sum(away):.0f} s in all" if away else "never"))
    print(f"- rawcap inspect: {len(sample) - len(bad)} of {len(sample)} sampled DNGs pass")
    print(f"- memory: VmRSS {(rss_first or 0) // 1024} MiB after 10 s, {(rss_last or 0) // 1024} MiB at the end; "
          f"peak (VmHWM) {peak // 1024} MiB")
    print(f"- duration: {duration / 60:.1f} min")
    print(f"- verdict: {'ok' if not problems else 'FAILED: ' + '; '.join(problems)}")
    if args.keep:
        print(f"- folder kept: {out}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
