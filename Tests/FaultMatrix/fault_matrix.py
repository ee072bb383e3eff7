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

EXIT_NAMES = {0: "0", 64: "64 usage", 69: "69 no camera", 73: "73 cannot create", 74: "74 I/O", 75: "75 busy",
              76: "76 protocol", 130: "130 interrupted"}


def wait_for_sigint_handler(pid, deadline):
    """Until rawcap has taken SIGINT over (bit 1 of SigIgn or SigCgt), as Tests/RawcapCLITests do."""
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/status") as status:
                masks = [int(l.split()[1], 16) for l in status if l.startswith(("SigIgn:", "SigCgt:"))]
        except FileNotFoundError:
            return
        if any(mask & 2 for mask in masks):
            return
        time.sleep(0.02)


def journal_has(out, event):
    try:
        with open(os.path.join(out, "rawcap-journal.jsonl")) as journal:
            return any(json.loads(line).get("event") == event for line in journal if line.strip())
    except FileNotFoundError:
        return False


def run_rawcap(cmd, out, timeout, interrupt=False, preexec=None):
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=preexec)
    start = time.monotonic()
    if interrupt:
        wait_for_sigint_handler(proc.pid, start + timeout)
        # Ctrl-C during the download: once a shot was requested, a little later.
        while time.monotonic() < start + timeout and not journal_has(out, "object-announced") and proc.poll() is None:
            time.sleep(0.05)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
    try:
        stdout, stderr = proc.communicate(timeout=max(1, timeout - (time.monotonic() - start)))
        status = proc.returncode
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        status = None
    return status, stderr.decode(errors="replace"), time.monotonic() - start


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
    ]

    rows = []
    defects = 0
    for index, (name, faults, extra, expected, host) in enumerate(cases):
        for transport in ("USB (sim)", "PTP/IP"):
            out = os.path.join(work, f"case{index}-{'usb' if transport.startswith('USB') else 'ip'}")
            server = None
            if transport.startswith("USB"):
                cmd = [rawcap, *base, "--camera", "sim", "--sim-sensor", args.sensor]
                for fault in faults:
                    cmd += ["--sim-fault", fault]
            else:
                server_args = ["--sensor", args.sensor]
                for fault in faults:
                    server_args += ["--fault", fault]
                server = Server(rawcap, server_args)
                cmd = [rawcap, *base, "--camera", server.camera]
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
            try:
                status, stderr, seconds = run_rawcap(cmd, out, args.timeout, interrupt=(host == "sigint"))
            finally:
                if server:
                    server.stop()
            lines = [l for l in stderr.splitlines() if l.strip()]
            error = lines[-1] if lines else ""
            listing, problems = examine(rawcap, out)
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
