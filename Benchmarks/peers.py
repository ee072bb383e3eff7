#!/usr/bin/env python3
"""rawcap side by side with its peers, measured in one run on one machine (`make bench-peers`).

Rows, each the median of --runs timed runs (after one warm-up), each ratio taken against a row of the same run.
A program and the peers it is compared with run in rounds, alternated run by run (the order rotates every round),
and a ratio is the median of the per-round ratios, so that load from outside falls on both sides alike; the tethered
and live-view rows (one session per client) and the RawcapBench writer rows (their own process) run in blocks.

- DNG encoding: PiDNG's RAW2DNG.convert on the samples of a 14-bit RGGB TIFF/EP from the emulated camera, already
  in memory, against the same work in rawcap: its DNG writer on the same samples in memory (RawcapBench --input,
  with a given thumbnail, as PiDNG's; rawcap also writes the NewRawImageDigest and fsyncs), uncompressed and
  lossless. Also `rawcap convert FRAME.TIF`, the whole process a user runs (start, TIFF/EP decode, thumbnail and
  preview rendering, digest, fsync), with its page faults and peak RSS (os.wait4), and the lossless file's bytes
  data per megapixel (against the DNG SDK's `dng_validate -dng` of the same samples when it is on the PATH). MB/s is
  16-bit input (width × height × 2) ÷ median wall time.
- Downloads over PTP/IP from `rawcap sim serve`: `rawcap pull --all --original` against `gphoto2 --get-all-files`,
  the same objects from the same emulator, and a plain loopback TCP copy of the same byte count into a file (fsync)
  as the limit, also with the SHA-256 of the bytes that rawcap journals for every file. Each rawcap and gphoto2
  figure includes starting the program and opening the session.
- Body shot to disk (tethered shooting): the served camera's shutter pressed from outside (SIGUSR2 to `rawcap sim
  serve --quality raw+jpeg`) --tether-shots times, each once the previous shot is on disk; the time from the press to
  both files of the shot on disk, under `rawcap tether --keep-jpeg` (DNG + JPEG) and `--original` against `gphoto2
  --capture-tethered` (TIF + JPG); and the same less the time the emulator took from the press to announcing the
  shot (which `sim serve` logs for each SIGUSR2 press): the camera's announcement to the files on disk, what the
  host adds (noticing the announcement, downloading, converting, writing).
- Live view over PTP/IP from `rawcap sim serve --model canon|nikon|sony`: `rawcap live --mjpeg --for 5s` against
  `gphoto2 --capture-movie=5s --stdout`, frames a second and rawcap's delay from request to last byte written.
- Shot to disk, one RAW+JPEG frame per process: `rawcap shoot --count 1 --keep-jpeg` against `gphoto2
  --capture-image-and-download` (server with --event-order gphoto2, imagequality RAW + JPEG), and a plain write of
  the same bytes (write + fsync) as the limit.

usage: peers.py --rawcap .build/release/rawcap [--rawcap-bench Benchmarks/.build/release/RawcapBench] [--runs 5]
                [--frame 6000x4000] [--sensor 3000x2000]
"""
import argparse
import hashlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np


def run(cmd, cwd=None, check=True):
    start = time.perf_counter()
    result = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if check and result.returncode != 0:
        sys.exit(f"peers: {' '.join(map(str, cmd))} failed ({result.returncode}): {result.stderr.decode()[-800:]}")
    return elapsed


def run_with_usage(cmd, cwd=None):
    """Like run(), also returning the child's resource usage (os.wait4: ru_minflt page faults, ru_maxrss KiB)."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            errors.seek(0)
            sys.exit(f"peers: {' '.join(map(str, cmd))} failed ({proc.returncode}): {errors.read().decode()[-800:]}")
    return elapsed, usage


def folder_bytes(path):
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            if not name.endswith(".jsonl"):
                total += os.path.getsize(os.path.join(root, name))
    return total


def alternated(fns, runs):
    """Runs the timed functions `fns` (name → function returning seconds) in rounds, one warm-up round and then
    `runs` timed ones, each round in an order rotated by one from the last, so that each program and its peer run
    side by side under the same load. Returns (name → median seconds, name → median over the rounds of the first
    function's time ÷ that function's: how many times as fast the first is)."""
    names = list(fns)
    times = {name: [] for name in names}
    ratios = {name: [] for name in names}
    for round_ in range(runs + 1):
        order = names[round_ % len(names):] + names[:round_ % len(names)]
        results = {name: fns[name]() for name in order}
        if round_ == 0:
            continue
        for name in names:
            times[name].append(results[name])
            ratios[name].append(results[name] / results[names[0]])
    return ({name: statistics.median(values) for name, values in times.items()},
            {name: statistics.median(values) for name, values in ratios.items()})


def into_folder(fresh, name, command, in_folder=False, check_files=None):
    """A timed function running `command` into a new folder each run, and the list it appends the bytes written to.

    The folder is passed as `-o DIR` (rawcap), or is the working directory (`in_folder`, gphoto2); it is removed
    after each run. `check_files` sees the names written and may stop the script.
    """
    written = []

    def once():
        out = fresh(name)
        elapsed = run(command, cwd=out) if in_folder else run(command + ["-o", out])
        if check_files:
            check_files(os.listdir(out))
        written.append(folder_bytes(out))
        shutil.rmtree(out)
        return elapsed

    return once, written


class Server:
    """`rawcap sim serve` on a free loopback port; with `announcements`, the times its SIGUSR2 presses took from the
    press to the shot's announcement (its log lines), in order."""

    def __init__(self, rawcap, *args, announcements=False):
        self.proc = subprocess.Popen([rawcap, "sim", "serve", "--listen", "127.0.0.1:0", "--json", *args],
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE if announcements else subprocess.DEVNULL)
        self.announced = []
        if announcements:
            def read():
                for line in iter(self.proc.stderr.readline, b""):
                    text = line.decode(errors="replace")
                    if "shot announced after" in text:
                        self.announced.append(float(text.split("announced after ")[1].split()[0]))
            threading.Thread(target=read, daemon=True).start()
        line = self.proc.stdout.readline()
        if not line:
            sys.exit("peers: rawcap sim serve did not start")
        self.port = json.loads(line)["port"]
        self.rawcap_port = f"ptpip:127.0.0.1:{self.port}"
        self.gphoto_port = f"ptpip:127.0.0.1:{self.port}:{self.port}"

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=30)


def tcp_copy(nbytes, dest, sha256=False):
    """A plain loopback TCP copy of nbytes into a file, fsynced: what any PTP/IP download could reach at best. With
    sha256, each received chunk is also hashed (hashlib, OpenSSL) on the receiving thread, as rawcap's journal needs."""
    payload = np.random.default_rng(1).integers(0, 256, 1 << 20, dtype=np.uint8).tobytes()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)

    def sender():
        conn, _ = listener.accept()
        left = nbytes
        while left > 0:
            chunk = payload[: min(left, len(payload))]
            conn.sendall(chunk)
            left -= len(chunk)
        conn.close()

    start = time.perf_counter()
    thread = threading.Thread(target=sender)
    thread.start()
    client = socket.create_connection(listener.getsockname())
    buffer = bytearray(1 << 20)
    view = memoryview(buffer)
    digest = hashlib.sha256() if sha256 else None
    with open(dest, "wb") as out:
        while True:
            n = client.recv_into(buffer)
            if n == 0:
                break
            out.write(view[:n])
            if digest:
                digest.update(view[:n])
        out.flush()
        os.fsync(out.fileno())
    client.close()
    thread.join()
    elapsed = time.perf_counter() - start
    listener.close()
    os.unlink(dest)
    return elapsed


def plain_write(nbytes, folder):
    """write + fsync of nbytes to a new file in folder, then rename and folder fsync, as rawcap's OutputFile does."""
    data = np.random.default_rng(2).integers(0, 256, nbytes, dtype=np.uint8).tobytes()

    def once():
        start = time.perf_counter()
        tmp = os.path.join(folder, ".plain.tmp")
        with open(tmp, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.rename(tmp, os.path.join(folder, "plain.bin"))
        fd = os.open(folder, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
        elapsed = time.perf_counter() - start
        os.unlink(os.path.join(folder, "plain.bin"))
        return elapsed

    return once


def pidng_writer(raw, black, white, compress, folder):
    from pidng.core import RAW2DNG
    from pidng.defs import CFAPattern, DNGVersion, PhotometricInterpretation
    from pidng.dng import DNGTags, Tag

    height, width = raw.shape
    tags = DNGTags()
    tags.set(Tag.ImageWidth, width)
    tags.set(Tag.ImageLength, height)
    tags.set(Tag.TileWidth, width)
    tags.set(Tag.TileLength, height)
    tags.set(Tag.BitsPerSample, 16)
    tags.set(Tag.SamplesPerPixel, 1)
    tags.set(Tag.PhotometricInterpretation, PhotometricInterpretation.Color_Filter_Array)
    tags.set(Tag.CFARepeatPatternDim, [2, 2])
    tags.set(Tag.CFAPattern, CFAPattern.RGGB)
    tags.set(Tag.BlackLevel, black)
    tags.set(Tag.WhiteLevel, white)
    tags.set(Tag.DNGVersion, DNGVersion.V1_4)
    tags.set(Tag.Make, "rawcap")
    tags.set(Tag.Model, "Emulated Camera")

    def once():
        converter = RAW2DNG()
        converter.options(tags, path=folder + "/", compress=compress)
        start = time.perf_counter()
        converter.convert(raw, filename="pidng")
        elapsed = time.perf_counter() - start
        os.unlink(os.path.join(folder, "pidng.dng"))
        return elapsed

    return once


def raw_data_bytes(path):
    """The bytes of a DNG's raw image data (the sum of its raw IFD's TileByteCounts)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import lossless
    return sum(lossless.tiff_tile_layout(path)[4])


def adobe_lossless_dng(rawcap, path, folder):
    """The DNG SDK's lossless DNG of the samples in `path` (`dng_validate -dng`, which reads DNGs only, so from
    rawcap's uncompressed DNG of the file), or None without dng_validate on the PATH."""
    tool = shutil.which("dng_validate")
    if not tool:
        return None
    run([rawcap, "convert", path, "--compression", "none", "-o", folder])
    source = next(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".dng"))
    stem = os.path.join(folder, "adobe")
    run([tool, "-dng", stem, source])
    return stem + ".dng"


# The whole job a PiDNG user runs on a camera file, as one process: start Python, read the TIFF/EP with rawpy
# (LibRaw), set the same tags as pidng_writer, write the DNG. Timed from outside, as `rawcap convert` is.
PIDNG_PROCESS = r"""
import os, sys
import rawpy
from pidng.core import RAW2DNG
from pidng.defs import CFAPattern, DNGVersion, PhotometricInterpretation
from pidng.dng import DNGTags, Tag
path, folder, compress = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
with rawpy.imread(path) as image:
    raw = image.raw_image.copy()
    black = int(image.black_level_per_channel[0])
    white = int(image.white_level)
height, width = raw.shape
tags = DNGTags()
for tag, value in ((Tag.ImageWidth, width), (Tag.ImageLength, height), (Tag.TileWidth, width),
                   (Tag.TileLength, height), (Tag.BitsPerSample, 16), (Tag.SamplesPerPixel, 1),
                   (Tag.PhotometricInterpretation, PhotometricInterpretation.Color_Filter_Array),
                   (Tag.CFARepeatPatternDim, [2, 2]), (Tag.CFAPattern, CFAPattern.RGGB), (Tag.BlackLevel, black),
                   (Tag.WhiteLevel, white), (Tag.DNGVersion, DNGVersion.V1_4), (Tag.Make, "rawcap"),
                   (Tag.Model, "Emulated Camera")):
    tags.set(tag, value)
converter = RAW2DNG()
converter.options(tags, path=folder + "/", compress=compress)
converter.convert(raw, filename=os.path.splitext(os.path.basename(path))[0])
"""


def saved_files(folder):
    """The finished files in `folder`: not hidden (rawcap's temporaries), not the journal, not empty."""
    names = []
    for name in os.listdir(folder):
        if name.startswith(".") or name.endswith(".jsonl"):
            continue
        try:
            if os.path.getsize(os.path.join(folder, name)) > 0:
                names.append(name)
        except FileNotFoundError:
            pass
    return names


def body_shots_to_disk(server, command, folder, shots, ready, cwd=None, files_per_shot=2):
    """Runs `command` (a tethering program writing RAW+JPEG pairs into `folder`), waits until it prints `ready`,
    then presses the served camera's shutter `shots` times, each once the previous shot's two files are on disk.
    Returns each press-to-disk time and the program's standard output."""
    proc = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = threading.Event()
    output = []

    def read(stream, keep):
        for line in iter(stream.readline, b""):
            if keep:
                output.append(line)
            if ready.encode() in line:
                seen.set()

    readers = [threading.Thread(target=read, args=(proc.stdout, True), daemon=True),
               threading.Thread(target=read, args=(proc.stderr, False), daemon=True)]
    for reader in readers:
        reader.start()
    if not seen.wait(60):
        proc.kill()
        sys.exit(f"peers: {command[0]} never said {ready!r}")
    time.sleep(0.5)  # gphoto2 prints its line before its first wait
    times = []
    announced_before = len(server.announced)
    try:
        for shot in range(shots):
            start = time.perf_counter()
            server.proc.send_signal(signal.SIGUSR2)
            while len(saved_files(folder)) < files_per_shot * (shot + 1):
                if time.perf_counter() - start > 60:
                    sys.exit(f"peers: {command[0]}: shot {shot + 1} never reached {folder}: {saved_files(folder)}")
                time.sleep(0.001)
            elapsed = time.perf_counter() - start
            # Less the body's own time from the press to the announcement (the server logs it).
            deadline = time.perf_counter() + 5
            while len(server.announced) < announced_before + shot + 1 and time.perf_counter() < deadline:
                time.sleep(0.001)
            if len(server.announced) < announced_before + shot + 1:
                sys.exit("peers: rawcap sim serve did not log the press's announcement")
            times.append((elapsed, elapsed - server.announced[announced_before + shot]))
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        for reader in readers:
            reader.join(timeout=5)
    return times, b"".join(output).decode()


def mbps(nbytes, seconds):
    return nbytes / seconds / 1e6


def count_jpegs(data):
    """JPEGs in an MJPEG stream: SOI markers at the start of the stream or right after an EOI."""
    count, index = 0, 0
    while True:
        index = data.find(b"\xff\xd8\xff", index)
        if index < 0:
            return count
        if index == 0 or data[index - 2:index] == b"\xff\xd9":
            count += 1
        index += 3


def live_view_rows(rawcap, args, rows, fresh):
    """Live view over PTP/IP from `rawcap sim serve --model M` (640×424 JPEGs, 30 a second): `rawcap live --mjpeg`
    against `gphoto2 --capture-movie --stdout`, the same seconds each after a warm-up, frames counted in what each
    wrote (both clients near the body's 30 a second mean the body, not the client, sets the rate); rawcap's
    median delay from the request that returned a frame to its last byte written comes from its --json lines."""
    for model in ("canon", "nikon", "sony"):
        server = Server(rawcap, "--model", model, "--sensor", "640x480")
        try:
            # Warm-up: the body renders its live view picture once, when live view first starts.
            run([rawcap, "live", "--camera", server.rawcap_port, "--frames", "5", "--mjpeg", os.devnull])
            out = os.path.join(fresh(f"live-{model}"), "live.mjpeg")
            started = time.monotonic()
            result = subprocess.run(
                [rawcap, "live", "--camera", server.rawcap_port, "--mjpeg", out, "--for", f"{args.live_seconds}s",
                 "--json"], check=True, capture_output=True, text=True)
            t_rawcap = time.monotonic() - started
            lines = [json.loads(line) for line in result.stdout.splitlines()]
            summary = lines[-1]
            latencies = sorted(line["latency"] for line in lines if line.get("event") == "frame")
            with open(out, "rb") as f:
                rawcap_data = f.read()
            rawcap_frames = count_jpegs(rawcap_data)
            rawcap_fps = rawcap_frames / summary["seconds"]
            gout = os.path.join(fresh(f"gphoto2-live-{model}"), "movie.mjpeg")
            with open(gout, "wb") as f:
                started = time.monotonic()
                subprocess.run(["gphoto2", "--port", server.gphoto_port, f"--capture-movie={int(args.live_seconds)}s",
                                "--stdout"], check=True, stdout=f, stderr=subprocess.DEVNULL)
                t_gphoto = time.monotonic() - started
            with open(gout, "rb") as f:
                gphoto_data = f.read()
            gphoto_frames = count_jpegs(gphoto_data)
            gphoto_fps = gphoto_frames / args.live_seconds
        finally:
            server.stop()
        median_latency = latencies[len(latencies) // 2] if latencies else float("nan")
        label = f"live view {args.live_seconds:g} s, {model} over PTP/IP"
        rows.append((f"{label}: rawcap live --mjpeg ({rawcap_frames} frames, {rawcap_fps:.1f} fps; request to last "
                     f"byte written: median {median_latency:.1f} ms)", len(rawcap_data), summary["seconds"],
                     f"{rawcap_fps / gphoto_fps:.2f}× gphoto2's frame rate" if gphoto_fps else "—"))
        rows.append((f"{label}: gphoto2 --capture-movie --stdout ({gphoto_frames} frames, {gphoto_fps:.1f} fps)",
                     len(gphoto_data), args.live_seconds, "—"))


def vendor_raw_file(rawcap, model, sensor, folder):
    """A raw file as the emulated `model` body delivers it (NEF, CR2, ARW over libgphoto2: gphoto2
    --capture-image-and-download; RAF over rawcap's Fujifilm PTP/IP: `rawcap tether --original` and a SIGUSR2 press,
    as gphoto2 has no Fujifilm PTP/IP)."""
    server = Server(rawcap, "--model", model, "--sensor", sensor, announcements=True)
    try:
        if model != "fuji":
            run(["gphoto2", "--port", server.gphoto_port, "--capture-image-and-download", "--filename",
                 os.path.join(folder, "%f.%C")])
        else:
            port = server.rawcap_port.replace("ptpip:", "fujiptpip:")
            body_shots_to_disk(server, [rawcap, "tether", "--camera", port, "--original", "-o", folder], folder, 1,
                               "waiting for shots", files_per_shot=1)
    finally:
        server.stop()
    names = saved_files(folder)
    if len(names) != 1:
        sys.exit(f"peers: the emulated {model} body delivered {names}")
    return os.path.join(folder, names[0])


def vendor_raw_rows(rawcap, args, rows, fresh):
    """Vendor raw → DNG: `rawcap convert --compression none` against LibRaw's `unprocessed_raw -T` (decode and write
    a TIFF of the same samples) on the same file, alternated run by run, with page faults and peak RSS."""
    if not shutil.which("unprocessed_raw"):
        rows.append(("vendor raws: LibRaw's unprocessed_raw is not installed (libraw-bin)", 0, None, "—"))
        return
    for model, kind in (("nikon", "NEF"), ("canon", "CR2"), ("sony", "ARW"), ("fuji", "RAF")):
        source = vendor_raw_file(rawcap, model, args.frame, fresh(f"vendor-{model}"))
        work = fresh(f"vendor-{model}-work")
        path = os.path.join(work, os.path.basename(source))
        shutil.copy(source, path)
        usages = {"rawcap": [], "libraw": []}

        def rawcap_convert():
            out = os.path.join(work, "out")
            shutil.rmtree(out, ignore_errors=True)
            elapsed, usage = run_with_usage([rawcap, "convert", path, "--compression", "none", "-o", out])
            usages["rawcap"].append(usage)
            return elapsed

        def unprocessed_raw():
            elapsed, usage = run_with_usage(["unprocessed_raw", "-T", path])
            usages["libraw"].append(usage)
            for name in os.listdir(work):
                if name.endswith(".tiff"):
                    os.unlink(os.path.join(work, name))
            return elapsed

        medians, ratios = alternated({"rawcap": rawcap_convert, "libraw": unprocessed_raw}, args.runs)
        nbytes = os.path.getsize(path)

        def usage_text(who):
            timed = usages[who][1:]
            return (f"{statistics.median(u.ru_minflt for u in timed):,.0f} page faults, peak RSS "
                    f"{statistics.median(u.ru_maxrss for u in timed) / 1024:.0f} MiB")

        label = f"vendor raw, {kind} {args.frame} from the emulated {model} body"
        rows.append((f"{label}: rawcap convert --compression none (DNG)", nbytes, medians["rawcap"],
                     f"{ratios['libraw']:.2f}× unprocessed_raw (time ratio); {usage_text('rawcap')}"))
        rows.append((f"{label}: LibRaw unprocessed_raw -T (TIFF)", nbytes, medians["libraw"], usage_text("libraw")))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rawcap", required=True)
    parser.add_argument("--rawcap-bench", default=os.environ.get("RAWCAP_BENCH"),
                        help="RawcapBench (Benchmarks/), for the encoder-to-encoder DNG rows")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--frame", default="6000x4000", help="sensor for the DNG encoding rows")
    parser.add_argument("--sensor", default="3000x2000", help="sensor for the PTP/IP rows")
    parser.add_argument("--downloads", type=int, default=4, help="RAW frames on the card for the download rows")
    parser.add_argument("--tether-shots", type=int, default=10, help="body shots for the tethered rows")
    parser.add_argument("--live-seconds", type=float, default=5, help="seconds of live view per client")
    parser.add_argument("--only", choices=["all", "tether", "live", "vendor", "dng", "transfer"], default="all",
                        help="tether, live, vendor (vendor raws against LibRaw's unprocessed_raw), dng (DNG encoding, "
                             "lossless memory and size) or transfer (downloads, shot to disk): those rows alone")
    args = parser.parse_args()
    rawcap = os.path.abspath(args.rawcap)
    for tool in ("gphoto2",):
        if not shutil.which(tool):
            sys.exit(f"peers: {tool} is not installed (make deps)")
    work = tempfile.mkdtemp(prefix="rawcap-peers-", dir=os.environ.get("TMPDIR", "/var/tmp"))
    rows = []
    counter = [0]

    def fresh(name):
        counter[0] += 1
        path = os.path.join(work, f"{name}-{counter[0]}")
        os.makedirs(path)
        return path

    try:
        if args.only in ("all", "tether"):
            # --- Body shot to disk (tethered) -----------------------------------------------------------------------
            server = Server(rawcap, "--sensor", args.sensor, "--quality", "raw+jpeg", announcements=True)
            try:
                tethered = fresh("tether")
                t_tether, tether_json = body_shots_to_disk(
                    server, [rawcap, "tether", "--camera", server.rawcap_port, "--keep-jpeg", "--json", "-o", tethered],
                    tethered, args.tether_shots, "waiting for shots")
                tether_bytes = folder_bytes(tethered) / args.tether_shots
                originals = fresh("tether-original")
                t_original, _ = body_shots_to_disk(
                    server, [rawcap, "tether", "--camera", server.rawcap_port, "--original", "-o", originals],
                    originals, args.tether_shots, "waiting for shots")
                original_bytes = folder_bytes(originals) / args.tether_shots
                gtethered = fresh("gphoto2-tether")
                t_gtether, _ = body_shots_to_disk(
                    # Line-buffered, so its "Waiting for events" reaches the pipe at once.
                    server, ["stdbuf", "-oL", "gphoto2", "--port", server.gphoto_port, "--capture-tethered", "--keep"],
                    gtethered,
                    args.tether_shots, "Waiting for events", cwd=gtethered)
                gtether_bytes = folder_bytes(gtethered) / args.tether_shots
            finally:
                server.stop()
            # Per shot, its last file: the camera's first announcement to both files on disk.
            totals = {}
            for line in tether_json.splitlines():
                saved = json.loads(line)
                if "frame" not in saved:
                    continue  # the interrupted run's closing error object
                totals[saved["frame"]] = max(totals.get(saved["frame"], 0), saved["timings"]["total"])
            label = f"{args.tether_shots} body shots, RAW+JPEG, {args.sensor}"
            def medians(pairs):
                return statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)

            (r_tether, a_tether), (r_gtether, a_gtether) = medians(t_tether), medians(t_gtether)
            r_original, a_original = medians(t_original)
            rows.append((f"body shot to disk, {label}: rawcap tether --keep-jpeg (DNG + JPEG), press → files",
                         tether_bytes, r_tether, f"{r_gtether / r_tether:.2f}× gphoto2 (time ratio)"))
            rows.append((f"body shot to disk, {label}: rawcap tether --original (TIF + JPG), press → files",
                         original_bytes, r_original, f"{r_gtether / r_original:.2f}× gphoto2 (time ratio)"))
            rows.append((f"body shot to disk, {label}: gphoto2 --capture-tethered (TIF + JPG), press → files",
                         gtether_bytes, r_gtether, "—"))
            rows.append((f"body shot to disk, {label}: rawcap tether --keep-jpeg, the camera's announcement → files",
                         tether_bytes, a_tether, f"{a_gtether / a_tether:.2f}× gphoto2 (time ratio); "
                         f"rawcap's own timings.total {statistics.median(totals.values()):.3f} s"))
            rows.append((f"body shot to disk, {label}: rawcap tether --original, the camera's announcement → files",
                         original_bytes, a_original, f"{a_gtether / a_original:.2f}× gphoto2 (time ratio)"))
            rows.append((f"body shot to disk, {label}: gphoto2 --capture-tethered, the camera's announcement → files",
                         gtether_bytes, a_gtether, "—"))
            if args.only == "tether":
                raise StopIteration

        if args.only in ("all", "live"):
            live_view_rows(rawcap, args, rows, fresh)
        if args.only == "live":
            raise StopIteration
        if args.only in ("all", "vendor"):
            vendor_raw_rows(rawcap, args, rows, fresh)
        if args.only == "vendor":
            raise StopIteration
        if args.only in ("all", "dng"):
            # --- DNG encoding -----------------------------------------------------------------------------------
            server = Server(rawcap, "--sensor", args.frame)
            try:
                run([rawcap, "shoot", "--camera", server.rawcap_port, "--count", "1", "--compression", "none", "--format", "bayer14",
                     "-o", fresh("frame-shot")])
                frame_dir = fresh("frame")
                run([rawcap, "pull", "--all", "--original", "--camera", server.rawcap_port, "-o", frame_dir])
            finally:
                server.stop()
            tif = next(os.path.join(frame_dir, n) for n in os.listdir(frame_dir) if n.upper().endswith(".TIF"))
            import rawpy
            with rawpy.imread(tif) as image:
                raw = image.raw_image.copy()
                black = int(image.black_level_per_channel[0])
                white = int(image.white_level)
            input_bytes = raw.size * 2
            frame_label = f"{raw.shape[1]}×{raw.shape[0]}"
            # rawcap's DNG writer on the same samples in memory: RawcapBench's DNG rows on this file's frame.
            writer_times = {}
            if args.rawcap_bench:
                bench = subprocess.run(
                    [args.rawcap_bench, "--filter", "DNG", "--input", tif, "--json", "--runs", str(args.runs)],
                    check=True, capture_output=True, text=True)
                for line in bench.stdout.splitlines():
                    row = json.loads(line)
                    writer_times[row["row"]] = row["wallSeconds"]
            threads = os.cpu_count()
            megapixels = raw.size / 1e6
            faults = {}
            for compression, compress in (("none", False), ("lossless", True)):
                usages = []
                dng_bytes = []

                def rawcap_convert(compression=compression, usages=usages, dng_bytes=dng_bytes):
                    out = fresh("convert")
                    elapsed, usage = run_with_usage([rawcap, "convert", tif, "--compression", compression, "-o", out])
                    usages.append(usage)
                    dng_bytes.append(folder_bytes(out))
                    shutil.rmtree(out)
                    return elapsed

                def pidng_process(compress=compress):
                    out = fresh("pidng-process")
                    elapsed = run([sys.executable, "-c", PIDNG_PROCESS, tif, out, "1" if compress else "0"])
                    shutil.rmtree(out)
                    return elapsed

                # rawcap convert, PiDNG's encode call and PiDNG's whole process, alternated run by run.
                label = "uncompressed" if not compress else "lossless JPEG"
                fns = {"rawcap": rawcap_convert}
                pidng_once = pidng_writer(raw, black, white, compress, fresh("pidng"))
                try:
                    pidng_once()
                    fns["pidng"] = pidng_once
                except Exception as error:  # PiDNG's C extension (ljpegCompress) fails on Python ≥ 3.10
                    failure = f"{type(error).__name__}: {error}"
                # Lossless: PiDNG's compressor fails on this Python (below), so only the uncompressed process is timed.
                if not compress:
                    fns["pidng-process"] = pidng_process
                medians, ratios = alternated(fns, args.runs)
                t_rawcap, t_pidng, t_pidng_process = medians["rawcap"], medians.get("pidng"), medians.get("pidng-process")
                faults[compression] = statistics.median(u.ru_minflt for u in usages[1:])
                rss = statistics.median(u.ru_maxrss for u in usages[1:]) / 1024
                kind = "uncompressed" if not compress else "lossless"
                t_writer = writer_times.get(f"DNG {kind}, {threads} threads")
                if args.rawcap_bench and t_writer is None:
                    sys.exit(f"peers: RawcapBench printed no row 'DNG {kind}, {threads} threads': {sorted(writer_times)}")
                if t_writer:
                    # RawcapBench runs in its own block (not alternated): the ratio is of the two medians.
                    rows.append((f"DNG {label}, {frame_label} 14-bit: rawcap DNG writer, samples in memory "
                                 f"({threads} threads)", input_bytes, t_writer,
                                 f"{t_pidng / t_writer:.2f}× PiDNG (medians of separate blocks)" if t_pidng else "—"))
                whole = f"{ratios['pidng']:.2f}× PiDNG" if t_pidng else "—"
                if t_pidng_process:
                    whole += f" (encode call), {ratios['pidng-process']:.2f}× PiDNG's whole process"
                whole += f"; {faults[compression]:,.0f} page faults, peak RSS {rss:.0f} MiB"
                if compress:
                    whole += f"; {faults['lossless'] / faults['none']:.2f}× the faults of uncompressed"
                rows.append((f"DNG {label}, {frame_label} 14-bit: rawcap convert (whole process)",
                             input_bytes, t_rawcap, whole))
                if t_pidng_process:
                    rows.append((f"DNG {label}, {frame_label} 14-bit: PiDNG whole process (Python, rawpy read, "
                                 f"RAW2DNG.convert)", input_bytes, t_pidng_process, "—"))
                if t_pidng:
                    rows.append((f"DNG {label}, {frame_label} 14-bit: PiDNG RAW2DNG.convert (encode call only)",
                                 input_bytes, t_pidng, "—"))
                else:
                    rows.append((f"DNG {label}, {frame_label} 14-bit: PiDNG RAW2DNG.convert, compress=True: fails "
                                 f"({failure})", input_bytes, None, "—"))
                if compress:
                    out = fresh("lossless-file")
                    run([rawcap, "convert", tif, "--compression", "lossless", "-o", out])
                    ours = raw_data_bytes(next(os.path.join(out, n) for n in os.listdir(out) if n.endswith(".dng")))
                    size_text = f"raw data {ours / megapixels / 1e6:.3f} MB per megapixel"
                    adobe = adobe_lossless_dng(rawcap, tif, fresh("adobe"))
                    if adobe:
                        theirs = raw_data_bytes(adobe)
                        size_text += (f", {ours / theirs:.4f}× the DNG SDK's (dng_validate -dng of the same samples: "
                                      f"{theirs / megapixels / 1e6:.3f} MB per megapixel)")
                    else:
                        size_text += "; no dng_validate on the PATH for the DNG SDK's size"
                    rows.append((f"DNG lossless JPEG, {frame_label} 14-bit: rawcap convert's raw data", ours, None,
                                 size_text))

        if args.only == "dng":
            raise StopIteration
        # (--only transfer: the downloads and the shot to disk below.)

        # --- Downloads over PTP/IP ----------------------------------------------------------------------------
        server = Server(rawcap, "--sensor", args.sensor)
        try:
            run([rawcap, "shoot", "--camera", server.rawcap_port, "--count", str(args.downloads), "--format",
                 "bayer14", "-o", fresh("card")])
            pull_once, pull_written = into_folder(
                fresh, "pull", [rawcap, "pull", "--all", "--original", "--camera", server.rawcap_port])
            gphoto_once, gphoto_written = into_folder(
                fresh, "gphoto2", ["gphoto2", "--port", server.gphoto_port, "--get-all-files"], in_folder=True)
            pull_once()  # the byte count, for the copies
            copy_dir = fresh("tcp")
            medians, ratios = alternated({
                "pull": pull_once,
                "gphoto2": gphoto_once,
                "copy": lambda: tcp_copy(pull_written[0], os.path.join(copy_dir, "copy.bin")),
                "copy-sha": lambda: tcp_copy(pull_written[0], os.path.join(copy_dir, "copy.bin"), sha256=True),
            }, args.runs)
        finally:
            server.stop()
        pull_bytes, gphoto_bytes = pull_written[-1], gphoto_written[-1]
        if pull_bytes != gphoto_bytes:
            print(f"peers: warning: rawcap fetched {pull_bytes} bytes, gphoto2 {gphoto_bytes}", file=sys.stderr)
        t_pull, t_gphoto, t_copy, t_copy_sha = (medians[k] for k in ("pull", "gphoto2", "copy", "copy-sha"))
        label = f"{args.downloads} × {args.sensor} RAW"
        rows.append((f"PTP/IP download, {label}: rawcap pull --all --original", pull_bytes, t_pull,
                     f"{ratios['gphoto2']:.2f}× gphoto2, {ratios['copy']:.2f}× TCP copy, "
                     f"{ratios['copy-sha']:.2f}× TCP copy + SHA-256"))
        rows.append((f"PTP/IP download, {label}: gphoto2 --get-all-files", gphoto_bytes, t_gphoto,
                     f"{ratios['copy'] / ratios['gphoto2']:.2f}× TCP copy"))
        rows.append((f"loopback TCP copy of the same bytes into a file + fsync", pull_bytes, t_copy, "—"))
        rows.append((f"the same copy, each chunk also hashed (SHA-256, hashlib)", pull_bytes, t_copy_sha, "—"))

        # --- Shot to disk -------------------------------------------------------------------------------------
        server = Server(rawcap, "--sensor", args.sensor, "--event-order", "gphoto2")
        try:
            run(["gphoto2", "--port", server.gphoto_port, "--set-config-index", "imagequality=2"])

            def raw_and_jpeg(files):
                if len(files) != 2:
                    sys.exit(f"peers: gphoto2 --capture-image-and-download saved {files}, not RAW+JPEG")

            shoot_once, shoot_written = into_folder(
                fresh, "shoot",
                [rawcap, "shoot", "--camera", server.rawcap_port, "--count", "1", "--keep-jpeg", "--compression", "none"])
            gshoot_once, gshoot_written = into_folder(
                fresh, "gphoto2-shot", ["gphoto2", "--port", server.gphoto_port, "--capture-image-and-download"],
                in_folder=True, check_files=raw_and_jpeg)
            gshoot_once()  # the byte count, for the plain write
            medians, ratios = alternated({
                "shoot": shoot_once,
                "gphoto2": gshoot_once,
                "write": plain_write(gshoot_written[0], fresh("write")),
            }, args.runs)
        finally:
            server.stop()
        t_shoot, t_gshoot, t_write = medians["shoot"], medians["gphoto2"], medians["write"]
        shoot_bytes, gshoot_bytes = shoot_written[-1], gshoot_written[-1]
        label = f"1 RAW+JPEG frame, {args.sensor}"
        rows.append((f"shot to disk, {label}: rawcap shoot --keep-jpeg --compression none (DNG + JPEG)", shoot_bytes, t_shoot,
                     f"{ratios['gphoto2']:.2f}× gphoto2 (time ratio)"))
        rows.append((f"shot to disk, {label}: gphoto2 --capture-image-and-download (TIF + JPG)", gshoot_bytes,
                     t_gshoot, "—"))
        rows.append((f"plain write + fsync of gphoto2's bytes", gshoot_bytes, t_write,
                     f"{ratios['write']:.2f}× of rawcap's time"))
    except StopIteration:
        pass
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"Median of {args.runs} runs after a warm-up; each program and its peers alternated run by run (but the "
          f"tethered and live-view rows, one session each, and the RawcapBench rows), ratios the median of the "
          f"per-round ratios; rawcap {rawcap}.")
    print()
    print("| row | bytes | median s | MB/s | ratio |")
    print("|---|---:|---:|---:|---|")
    for name, nbytes, seconds, ratio in rows:
        if seconds is None:
            print(f"| {name} | {nbytes / 1e6:.1f} MB | — | — | {ratio} |")
            continue
        print(f"| {name} | {nbytes / 1e6:.1f} MB | {seconds:.3f} | {mbps(nbytes, seconds):.0f} | {ratio} |")


if __name__ == "__main__":
    main()
