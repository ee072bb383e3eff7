#!/usr/bin/env python3
"""The fault matrix: `rawcap shoot` against the emulated camera misbehaving, over USB framing (`--camera sim
--sim-fault F`) and over PTP/IP (`rawcap sim serve --fault F` + `--camera ptpip:…`), plus the host-side faults
(disk full through `prlimit --fsize`, a read-only output folder, Ctrl-C).

For each row it records the exit status (or HANG when rawcap had to be killed), the last line of standard error,
every name left in the output folder (hidden temporaries and partial files are defects; each DNG left is checked
with `rawcap inspect`, which verifies its NewRawImageDigest), and the journal's last entries. It prints a Markdown
table and exits 1 when a row shows a defect.

usage: fault_matrix.py RAWCAP [--sensor WxH] [--timeout SECONDS]
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

# What the Ctrl-C rows change on the camera (bit depth and image quality), so that the restore can be checked.
CHANGES = ["--format", "bayer12", "--keep-jpeg"]
# A sensor large enough that encoding its DNG takes a while (48 MP).
BIG_SENSOR = "8000x6000"

EXIT_NAMES = {0: "0", 64: "64 usage", 69: "69 no camera", 73: "73 cannot create", 74: "74 I/O", 75: "75 busy",
              76: "76 protocol", 130: "130 interrupted"}


def wait_for_sigint_handler(pid, deadline):
    """Until rawcap has taken SIGINT over (bit 1 of SigIgn or SigCgt), as Tests/RawcapCLITests do. Between fork and
    exec the child is still a copy of this python, whose own SIGINT handler sets the same bit: the process must have
    become another program first."""
    python = os.path.realpath(f"/proc/{os.getpid()}/exe")
    while time.monotonic() < deadline:
        try:
            started = os.path.realpath(f"/proc/{pid}/exe") != python
            with open(f"/proc/{pid}/status") as status:
                masks = [int(l.split()[1], 16) for l in status if l.startswith(("SigIgn:", "SigCgt:"))]
        except (FileNotFoundError, PermissionError):
            return
        if started and any(mask & 2 for mask in masks):
            return
        time.sleep(0.02)


def journal_has(out, event):
    try:
        with open(os.path.join(out, "rawcap-journal.jsonl")) as journal:
            return any(json.loads(line).get("event") == event for line in journal if line.strip())
    except FileNotFoundError:
        return False


def journal_events(out):
    try:
        with open(os.path.join(out, "rawcap-journal.jsonl")) as journal:
            return [json.loads(line).get("event") for line in journal if line.strip()]
    except (FileNotFoundError, ValueError):
        return []


# When to press Ctrl-C, per stage: (what must have happened, seconds to wait after it). "handler" is rawcap having
# taken SIGINT over; the other names are journal events. The emulator's delay= faults stretch each stage over
# seconds, so the signal lands inside it.
SIGINT_STAGES = {
    "sigint": ("object-announced", 0.3),
    "sigint:connect": ("handler", 1.0),
    "sigint:settings": ("handler", 1.0),
    "sigint:shot": ("shot-requested", 0.5),
    "sigint:encode": ("object-downloaded", 0.05),
    # The restore runs after the last file is journaled and before run-finished; delay=SetDevicePropValue:3000
    # stretches it to 6 s.
    "sigint:restore": ("file-written", 1.5),
}


def run_rawcap(cmd, out, timeout, interrupt=None, preexec=None):
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=preexec)
    start = time.monotonic()
    if interrupt:
        wait_for_sigint_handler(proc.pid, start + timeout)
        event, pause = SIGINT_STAGES[interrupt]
        while (event != "handler" and time.monotonic() < start + timeout and event not in journal_events(out)
               and proc.poll() is None):
            time.sleep(0.02)
        time.sleep(pause)
        proc.send_signal(signal.SIGINT)
    try:
        stdout, stderr = proc.communicate(timeout=max(1, timeout - (time.monotonic() - start)))
        status = proc.returncode
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        status = None
    return status, stderr.decode(errors="replace"), time.monotonic() - start


def camera_settings(rawcap, camera, names=("quality", "bitdepth")):
    """`rawcap config get` of the settings shoot changes, as one string (or the error)."""
    got = subprocess.run([rawcap, "config", "get", *names, "--camera", camera], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, timeout=60)
    if got.returncode != 0:
        return f"(config get failed: {got.stderr.decode(errors='replace').strip()[-80:]})"
    return " ".join(got.stdout.decode().split())


def settings_trail(stderr):
    """From a debug log: the settings shoot set and those it restored, as (set, restored) name sets."""
    changed, restored = set(), set()
    for line in stderr.splitlines():
        for marker, bucket in ((" set ", changed), (" restored ", restored)):
            if marker in line and "=" in line.split(marker, 1)[1]:
                bucket.add(line.split(marker, 1)[1].split("=", 1)[0].strip())
    return changed, restored


class Server:
    def __init__(self, rawcap, args):
        self.proc = subprocess.Popen([rawcap, "sim", "serve", "--listen", "127.0.0.1:0", "--json", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        line = self.proc.stdout.readline()
        if not line:
            sys.exit("fault matrix: rawcap sim serve did not start")
        self.camera = f"ptpip:127.0.0.1:{json.loads(line)['port']}"

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def last_journal(out, n=2):
    try:
        with open(os.path.join(out, "rawcap-journal.jsonl")) as journal:
            entries = [json.loads(line) for line in journal if line.strip()]
    except FileNotFoundError:
        return "(no journal)"
    parts = []
    for entry in entries[-n:]:
        text = entry["event"]
        for key in ("code", "detail"):
            if entry.get(key):
                text += f" {entry[key]}"
        parts.append(text if len(text) <= 70 else text[:69] + "…")
    return " → ".join(parts)


def examine(rawcap, out):
    """Names left in out, and the problems with them."""
    if not os.path.isdir(out):
        return "(no folder)", []
    names = sorted(os.listdir(out))
    problems = []
    for name in names:
        path = os.path.join(out, name)
        if name.startswith("."):
            problems.append(f"hidden file {name} left")
        elif name.lower().endswith(".dng"):
            check = subprocess.run([rawcap, "inspect", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if check.returncode != 0:
                problems.append(f"{name} damaged ({check.stderr.decode().strip()[-120:]})")
        elif name.lower().endswith((".jpg", ".jpeg")):
            with open(path, "rb") as jpeg:
                data = jpeg.read()
            if not (data.startswith(b"\xff\xd8") and data.rstrip(b"\0").endswith(b"\xff\xd9")):
                problems.append(f"{name} truncated")
        elif name != "rawcap-journal.jsonl":
            problems.append(f"unexpected {name}")
    listing = ", ".join(n if n != "rawcap-journal.jsonl" else "journal" for n in names) or "(empty)"
    return listing, problems


def exactly_once(out):
    """Problems when a camera file was written twice (journal) or a frame has two DNGs."""
    problems = []
    written = []
    try:
        with open(os.path.join(out, "rawcap-journal.jsonl")) as journal:
            for line in journal:
                entry = json.loads(line) if line.strip() else {}
                if entry.get("event") == "file-written":
                    written.append((entry.get("cameraFile"), entry.get("captureDate"), entry.get("path", "")[-4:]))
    except FileNotFoundError:
        return ["no journal"]
    duplicates = {w for w in written if written.count(w) > 1}
    if duplicates:
        problems.append(f"written twice: {sorted(map(str, duplicates))}")
    return problems


def md(text):
    return text.replace("|", "\\|").replace("\n", " ")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("rawcap")
    parser.add_argument("--sensor", default="1024x768")
    parser.add_argument("--timeout", type=float, default=120, help="seconds before a run counts as a hang")
    args = parser.parse_args()
    rawcap = os.path.abspath(args.rawcap)
    work = tempfile.mkdtemp(prefix="rawcap-faults-", dir=os.environ.get("TMPDIR", "/var/tmp"))
    os.chmod(work, 0o755)
    base = ["shoot", "--keep-jpeg"]

    # Calibrate: the RAW object's size, so the disconnects fall at the start, middle and end of its data phase.
    calib = os.path.join(work, "calibrate")
    subprocess.run([rawcap, *base, "--count", "1", "--camera", "sim", "--sim-sensor", args.sensor, "-o", calib], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(calib, "rawcap-journal.jsonl")) as journal:
        sizes = [json.loads(l)["size"] for l in journal if '"object-announced"' in l]
    raw_size = max(sizes)

    # (row, emulator faults, extra rawcap options, expected exit statuses, host setup)
    cases = [
        ("disconnect at the start (first data phase of the session)", ["disconnect-after=1"], [], {74}, None),
        (f"disconnect mid RAW download (after {raw_size // 2} B)", [f"disconnect-after={raw_size // 2}"], [], {74},
         None),
        (f"disconnect near the end of the RAW download (after {raw_size} B, its last bytes)",
         [f"disconnect-after={raw_size}"], [], {74}, None),
        ("DeviceBusy storm, 5 (busy=5)", ["busy=5"], [], {0, 75}, None),
        ("DeviceBusy storm, 200 (busy=200)", ["busy=200"], [], {75}, None),
        # Over USB a stalled endpoint can be cleared and the transfer retried; over PTP/IP the emulator closes the
        # connection. Either a saved file or 74 is right; a hang or a partial file is not.
        ("stall GetPartialObject", ["stall=GetPartialObject"], [], {0, 74}, None),
        ("stall GetObject", ["stall=GetObject"], [], {0, 74}, None),
        ("slow link 2MB/s", ["slow=2MB/s"], [], {0}, None),
        ("lost CaptureComplete", ["lose-event=CaptureComplete"], ["--shot-timeout", "15"], {0, 74}, None),
        ("lost ObjectAdded (both)", ["lose-event=ObjectAdded:2"], ["--shot-timeout", "15"], {0, 74}, None),
        ("card full", ["card-full"], [], {73}, None),
        ("disk full (prlimit --fsize=400000)", [], [], {74}, "fsize"),
        ("read-only output folder (as nobody, folder 0555)", [], [], {73}, "readonly"),
        ("Ctrl-C during the first of 3 frames' download (slow=1MB/s)", ["slow=1MB/s"], ["--count", "3"], {130},
         "sigint"),
        # README "Shooting": Ctrl-C "finishes the current file … and exits 130", whichever frame it lands in.
        ("Ctrl-C during the download of the only frame (slow=1MB/s)", ["slow=1MB/s"], [], {130}, "sigint"),
        # Duplicated events: a frame is downloaded and written once, whatever the camera repeats.
        ("duplicated ObjectAdded (every object of 3 frames)", ["duplicate-event=ObjectAdded:6"], ["--count", "3"],
         {0}, "once"),
        ("duplicated CaptureComplete (3 frames)", ["duplicate-event=CaptureComplete:3"], ["--count", "3"], {0},
         "once"),
        # The camera restarts mid-download: its session is gone, its card is not. Over PTP/IP `sim serve` takes
        # the next client and `rawcap pull --resume` fetches the frame the shoot lost.
        (f"camera reboots mid RAW download (reboot-after={raw_size // 2}), then pull --resume",
         [f"reboot-after={raw_size // 2}"], [], {74}, "resume"),
        # Ctrl-C at every stage, with --format bayer12 --keep-jpeg so two settings are changed and must come back.
        ("Ctrl-C while opening the session (delay=OpenSession:4000)", ["delay=OpenSession:4000"], CHANGES, {130},
         "sigint:connect"),
        ("Ctrl-C while reading settings (delay=GetDevicePropDesc:1500)", ["delay=GetDevicePropDesc:1500"], CHANGES,
         {130}, "sigint:settings"),
        ("Ctrl-C while waiting for the shot (busy=200)", ["busy=200"], CHANGES, {130}, "sigint:shot"),
        ("Ctrl-C during the download (slow=1MB/s)", ["slow=1MB/s"], CHANGES, {130}, "sigint"),
        (f"Ctrl-C during DNG encoding (sensor {BIG_SENSOR}, lossless)", [], CHANGES + ["--compression", "lossless"],
         {130}, "sigint:encode"),
        ("Ctrl-C during the settings restore (delay=SetDevicePropValue:3000)", ["delay=SetDevicePropValue:3000"],
         CHANGES, {130}, "sigint:restore"),
    ]

    rows = []
    defects = 0
    for index, (name, faults, extra, expected, host) in enumerate(cases):
        for transport in ("USB (sim)", "PTP/IP"):
            out = os.path.join(work, f"case{index}-{'usb' if transport.startswith('USB') else 'ip'}")
            server = None
            usb = transport.startswith("USB")
            sensor = BIG_SENSOR if host == "sigint:encode" else args.sensor
            if usb:
                cmd = [rawcap, *base, "--camera", "sim", "--sim-sensor", sensor]
                for fault in faults:
                    cmd += ["--sim-fault", fault]
            else:
                server_args = ["--sensor", sensor]
                for fault in faults:
                    server_args += ["--fault", fault]
                server = Server(rawcap, server_args)
                cmd = [rawcap, *base, "--camera", server.camera]
            interrupt = host if host and host.startswith("sigint") else None
            before = None
            if interrupt:
                # The debug log names every setting set and restored (over USB the camera lives in the rawcap
                # process, so the log is the only witness); over PTP/IP the camera is asked afterwards as well.
                cmd += ["--log-level", "debug"]
                if server and host not in ("sigint:connect", "sigint:restore"):
                    before = camera_settings(rawcap, server.camera)
            if "--count" not in extra:
                extra = ["--count", "1", *extra]
            cmd += [*extra, "-o", out]
            preexec = None
            if host == "fsize":
                cmd = ["prlimit", "--fsize=400000", *cmd]
            elif host == "readonly":
                os.makedirs(out)
                os.chmod(out, 0o555)
                cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
            notes = []
            try:
                status, stderr, seconds = run_rawcap(cmd, out, args.timeout, interrupt=interrupt)
                listing, problems = examine(rawcap, out)
                if interrupt:
                    changed, restored = settings_trail(stderr)
                    if changed - restored:
                        problems.append(f"settings not restored (log): {', '.join(sorted(changed - restored))}")
                    notes.append(f"set {','.join(sorted(changed)) or 'nothing'}; restored {','.join(sorted(restored)) or 'nothing'}")
                    if server and before is not None:
                        after = camera_settings(rawcap, server.camera)
                        notes.append(f"camera after: {after}")
                        if after != before:
                            problems.append(f"camera settings {after}, were {before}")
                    if status == 130 and "run-started" in journal_events(out) and \
                            not any(e == "run-finished" for e in journal_events(out)):
                        problems.append("journal has no run-finished")
                if host == "once":
                    problems += exactly_once(out)
                if host == "resume":
                    if usb:
                        notes.append("resume: n/a, the in-process camera ends with rawcap")
                    else:
                        resumed = subprocess.run([rawcap, "pull", "--resume", "--camera", server.camera, "-o", out],
                                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=args.timeout)
                        tail = resumed.stderr.decode(errors="replace").strip().splitlines()
                        notes.append(f"pull --resume: exit {resumed.returncode}, {tail[-1] if tail else ''}")
                        listing, problems = examine(rawcap, out)
                        if resumed.returncode != 0:
                            problems.append(f"pull --resume exit {resumed.returncode}")
                        if not any(n.endswith(".dng") for n in os.listdir(out)):
                            problems.append("pull --resume saved no DNG")
                        problems += exactly_once(out)
            finally:
                if server:
                    server.stop()
            lines = [l for l in stderr.splitlines() if l.startswith("rawcap ")]
            error = lines[-1] if lines else ""
            if notes:
                listing += " (" + "; ".join(notes) + ")"
            if status is None:
                problems.insert(0, f"HANG: killed after {args.timeout:.0f} s")
            elif status not in expected:
                problems.insert(0, f"exit {status}, expected {'/'.join(map(str, sorted(expected)))}")
            verdict = "ok" if not problems else "**DEFECT**: " + "; ".join(problems)
            defects += bool(problems)
            code = "HANG" if status is None else EXIT_NAMES.get(status, str(status))
            rows.append((name, transport, code, f"{seconds:.1f}", error.removeprefix("rawcap shoot: ").replace(work + "/", "")[:110], listing, last_journal(out), verdict))
            print(f"fault matrix: {name} / {transport}: {code} {verdict}", file=sys.stderr)
    shutil.rmtree(work, ignore_errors=True)

    print(f"Sensor {args.sensor}, `rawcap shoot --count 1 --keep-jpeg` unless the row says otherwise; "
          f"RAW object {raw_size} bytes.")
    print()
    print("| fault | link | exit | s | error line | left in the folder | journal, last entries | verdict |")
    print("|---|---|---|---:|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(md(str(c)) for c in row) + " |")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
