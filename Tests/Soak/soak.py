#!/usr/bin/env python3
"""The soak test (`make soak`): thousands of RAW+JPEG frames from `rawcap sim serve` over PTP/IP, with a fault after
every 100 shots (the emulator's `every=` schedule: a disconnect mid-download, a stalled GetPartialObject, a
DeviceBusy storm, a lost ObjectAdded, a duplicated ObjectAdded, a reboot mid-download, in turn).

It drives rawcap as a shell script would: `rawcap shoot --count N` for the frames still missing, again after each
failure, then `rawcap pull --resume` for what the failed runs left on the camera. Then it checks that every image
object on the camera (`rawcap ls --json`) was written exactly once (the journal's file-written entries, and the
file itself on disk), that no temporary is left, that the DNGs open (`rawcap inspect` on a sample), and reports the
peak memory of every shoot process plus the resident size sampled through the longest one.

usage: soak.py RAWCAP [--frames 2000] [--every 100] [--sensor 640x480] [--inspect N] [--keep]
Exits 1 when a check fails.
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
    """Runs cmd, sampling VmRSS and VmHWM every half second; returns status, stderr tail, seconds, peak kB and the
    (seconds, VmRSS kB) samples."""
    start = time.monotonic()
    errors = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=errors)
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
    errors.seek(0)
    lines = [l for l in errors.read().decode(errors="replace").splitlines() if l.startswith("rawcap ")]
    return proc.returncode, (lines[-1] if lines else ""), time.monotonic() - start, peak, samples


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("rawcap")
    parser.add_argument("--frames", type=int, default=2000)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--sensor", default="640x480")
    parser.add_argument("--inspect", type=int, default=100, help="DNGs to check with rawcap inspect (0: all)")
    parser.add_argument("--max-runs", type=int, default=200)
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
    print(f"soak: {args.frames} frames RAW+JPEG, {args.sensor}, fault every {args.every} shots, camera {camera}, "
          f"folder {out}", file=sys.stderr)

    runs = []
    problems = []
    try:
        while len(runs) < args.max_runs:
            written = sum(1 for name in os.listdir(out) if name.endswith(".dng")) if os.path.isdir(out) else 0
            remaining = args.frames - written
            if remaining <= 0:
                break
            cmd = [rawcap, "shoot", "--camera", camera, "--count", str(remaining), "--keep-jpeg", "--timeout", "5",
                   "-o", out]
            status, error, seconds, peak, samples = run_sampled(cmd, timeout=3600)
            after = sum(1 for name in os.listdir(out) if name.endswith(".dng")) if os.path.isdir(out) else 0
            runs.append({"status": status, "frames": after - written, "seconds": seconds, "peak_kb": peak,
                         "samples": samples, "error": error})
            print(f"soak: run {len(runs)}: exit {status}, {after - written} frames in {seconds:.0f} s, "
                  f"peak {peak // 1024} MiB; {error[:140]}", file=sys.stderr)
            if status not in (0, 74, 75, 76):
                problems.append(f"run {len(runs)} exit {status}: {error}")
                break
        resume = subprocess.run([rawcap, "pull", "--resume", "--camera", camera, "--timeout", "5", "-o", out],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=3600)
        resume_tail = [l for l in resume.stderr.decode(errors="replace").splitlines() if l.startswith("rawcap ")]
        print(f"soak: pull --resume: exit {resume.returncode}; {resume_tail[-1] if resume_tail else ''}",
              file=sys.stderr)
        if resume.returncode != 0:
            problems.append(f"pull --resume exit {resume.returncode}")
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

    # Every image object on the camera written exactly once, and each written file on disk.
    entries = journal(out)
    written = {}
    for entry in entries:
        if entry.get("event") == "file-written":
            key = (entry.get("cameraFile"), entry.get("captureDate"))
            written.setdefault(key, []).append(entry.get("path"))
    images = [o for o in objects if o.get("objectFormatName") != "Association"]
    missing = [o["cameraFile"] for o in images if (o["cameraFile"], o["captureDate"]) not in written]
    twice = {k: v for k, v in written.items() if len(v) > 1}
    gone = [p for paths in written.values() for p in paths
            if not os.path.exists(p if os.path.isabs(p) else os.path.join(out, os.path.basename(p)))]
    names = sorted(os.listdir(out))
    hidden = [n for n in names if n.startswith(".")]
    dngs = [n for n in names if n.endswith(".dng")]
    jpegs = [n for n in names if n.endswith(".jpg")]
    if missing:
        problems.append(f"{len(missing)} camera object(s) never written: {missing[:6]}")
    if twice:
        problems.append(f"{len(twice)} camera object(s) written more than once: {list(twice.items())[:3]}")
    if gone:
        problems.append(f"{len(gone)} journaled file(s) not on disk: {gone[:3]}")
    if hidden:
        problems.append(f"temporaries left: {hidden[:5]}")
    if len(dngs) + len(jpegs) != len(images):
        problems.append(f"{len(dngs)} DNG + {len(jpegs)} JPEG on disk for {len(images)} camera objects")

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

    # Memory: each shoot's peak, and the resident size through the longest run.
    peaks = [r["peak_kb"] for r in runs if r["peak_kb"] > 4096]  # a run that ended within its first sample has none
    longest = max(runs, key=lambda r: r["frames"]) if runs else None
    rss_first = rss_last = None
    if longest and len(longest["samples"]) >= 4:
        # Skip the first seconds (the first frames' buffers are still being sized).
        settled = [s for s in longest["samples"] if s[0] >= 5] or longest["samples"]
        rss_first, rss_last = settled[0][1], settled[-1][1]
        if rss_last > rss_first * 1.5 + 20 * 1024:
            problems.append(f"resident size grew from {rss_first} kB to {rss_last} kB in the longest run")
    duration = time.monotonic() - started
    failures = sum(1 for r in runs if r["status"] != 0)
    shots = len([o for o in images if o["cameraFile"].upper().endswith((".TIF", ".TIFF"))])

    print()
    print(f"Soak {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}: {args.frames} frames asked, sensor {args.sensor}, RAW+JPEG over PTP/IP, "
          f"every={args.every}.")
    print()
    print(f"- camera shots: {shots} ({len(images)} objects); scheduled faults: {shots // args.every}")
    print(f"- shoot runs: {len(runs)} ({failures} ended by a fault: "
          + ", ".join(f"exit {s}×{sum(1 for r in runs if r['status'] == s)}"
                      for s in sorted({r['status'] for r in runs if r['status'] != 0})) + ")")
    print(f"- pull --resume: exit {resume.returncode}, {resume_tail[-1] if resume_tail else ''}")
    print(f"- on disk: {len(dngs)} DNG + {len(jpegs)} JPEG; journal file-written entries: "
          f"{sum(len(v) for v in written.values())}; written twice: {len(twice)}; never written: {len(missing)}; "
          f"temporaries: {len(hidden)}")
    print(f"- rawcap inspect: {len(sample) - len(bad)} of {len(sample)} sampled DNGs pass")
    if peaks:
        print(f"- peak RSS per shoot run (MiB): first {peaks[0] // 1024}, last {peaks[-1] // 1024}, "
              f"max {max(peaks) // 1024}")
    if longest:
        print(f"- longest run: {longest['frames']} frames in {longest['seconds']:.0f} s; VmRSS "
              f"{(rss_first or 0) // 1024} MiB after 5 s, {(rss_last or 0) // 1024} MiB at its end")
    print(f"- duration: {duration / 60:.1f} min")
    print(f"- verdict: {'ok' if not problems else 'FAILED: ' + '; '.join(problems)}")
    if args.keep:
        print(f"- folder kept: {out}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
