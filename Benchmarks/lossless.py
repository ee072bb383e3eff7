#!/usr/bin/env python3
"""rawcap convert's lossless path against its uncompressed path, per frame size (`make bench-lossless`).

For each size (megapixels; frames from the emulated camera, 14-bit RGGB, written as uncompressed DNGs by
`rawcap shoot --camera sim --sim-sensor WxH`), runs `rawcap convert FRAME --compression none` and `--compression
lossless` alternately, --runs pairs after one warm-up pair (the order flips every pair), each under
`/usr/bin/time` for its minor page faults and peak RSS. Prints per size: the medians of faults, wall ms per
megapixel and peak RSS for both, the median of the per-pair fault and time ratios (lossless ÷ none), and the
lossless file's size; then whether every size meets the fault goal (lossless ≤ --goal × none).

With --edge-tiles it also prints, for the lossless file of each size, the bytes of its interior tiles and of its
partly filled edge tiles (right column, bottom row, corner), from the file's TileByteCounts; and when the DNG SDK's
dng_validate is on the PATH, the same for its lossless DNG of the same frame (`dng_validate -dng`) and rawcap's
raw data bytes against the SDK's, per size and per kind of tile.

usage: lossless.py --rawcap .build/release/rawcap [--sizes 12,24,48,72,100] [--runs 5] [--goal 1.3] [--edge-tiles]
"""
import argparse
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

# Sensor sizes per megapixel figure: the emulated camera's 3:2 and 4:3 shapes, even sides.
SHAPES = {12: (4000, 3000), 24: (6000, 4000), 48: (8000, 6000), 72: (10000, 7200), 100: (12240, 8170)}


def timed(command):
    """Wall seconds, minor faults and peak RSS (KiB) of one run of `command`, which must succeed."""
    with tempfile.NamedTemporaryFile(prefix="rawcap-time-", suffix=".txt") as report:
        start = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-o", report.name, "-f", "%R %M", *command],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            sys.exit(f"lossless: {' '.join(command)} failed: {result.stderr.decode()[-600:]}")
        faults, rss = open(report.name).read().split()[-2:]
    return elapsed, int(faults), int(rss)


def make_frame(rawcap, width, height, folder):
    out = os.path.join(folder, f"shot-{width}x{height}")
    subprocess.run([rawcap, "shoot", "--camera", "sim", "--sim-sensor", f"{width}x{height}", "--count", "1",
                    "--compression", "none", "--format", "bayer14", "-o", out],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    name = next(n for n in os.listdir(out) if n.endswith(".dng"))
    path = os.path.join(folder, f"{width}x{height}.dng")
    os.rename(os.path.join(out, name), path)
    shutil.rmtree(out)
    return path


def convert(rawcap, frame, compression, folder):
    out = os.path.join(folder, f"out-{compression}")
    shutil.rmtree(out, ignore_errors=True)
    result = timed([rawcap, "convert", frame, "--compression", compression, "-o", out])
    size = sum(os.path.getsize(os.path.join(out, n)) for n in os.listdir(out) if n.endswith(".dng"))
    path = next(os.path.join(out, n) for n in os.listdir(out) if n.endswith(".dng"))
    return result, size, path


def tiff_tile_layout(path):
    """(image width, height, tile width, height, byte counts) of the raw IFD (the one with TileByteCounts and
    NewSubFileType 0) of a little-endian classic TIFF."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] != b"II":
        sys.exit(f"lossless: {path} is not little-endian")
    sizes = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8}

    def values(entry_offset):
        tag, kind, count, value = struct.unpack_from("<HHII", data, entry_offset)
        width = sizes.get(kind, 1) * count
        offset = entry_offset + 8 if width <= 4 else value
        code = {3: "H", 4: "I", 13: "I", 1: "B", 7: "B"}.get(kind)
        if code is None:
            return tag, []
        return tag, list(struct.unpack_from(f"<{count}{code}", data, offset))

    pending = [struct.unpack_from("<I", data, 4)[0]]
    seen = set()
    while pending:
        offset = pending.pop()
        if offset == 0 or offset in seen:
            continue
        seen.add(offset)
        count = struct.unpack_from("<H", data, offset)[0]
        tags = dict(values(offset + 2 + 12 * i) for i in range(count))
        pending.extend(tags.get(330, []))  # SubIFDs
        pending.append(struct.unpack_from("<I", data, offset + 2 + 12 * count)[0])
        if 325 in tags and tags.get(254, [1])[0] == 0:
            return tags[256][0], tags[257][0], tags[322][0], tags[323][0], tags[325]
    sys.exit(f"lossless: no tiled raw IFD in {path}")


def edge_tile_bytes(path):
    width, height, tile_width, tile_height, counts = tiff_tile_layout(path)
    across = -(-width // tile_width)
    down = -(-height // tile_height)
    groups = {"interior": [], "right": [], "bottom": [], "corner": []}
    for index, count in enumerate(counts):
        right = index % across == across - 1 and width % tile_width
        bottom = index // across == down - 1 and height % tile_height
        key = "corner" if right and bottom else "right" if right else "bottom" if bottom else "interior"
        groups[key].append(count)
    return groups, (width % tile_width or tile_width, height % tile_height or tile_height, tile_width, tile_height)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rawcap", required=True)
    parser.add_argument("--sizes", default="12,24,48,72,100", help="megapixels: " + ",".join(map(str, SHAPES)))
    parser.add_argument("--runs", type=int, default=5, help="timed pairs per size, after one warm-up pair")
    parser.add_argument("--goal", type=float, default=1.3, help="lossless faults at most this × uncompressed")
    parser.add_argument("--edge-tiles", action="store_true", help="also the bytes of edge and interior tiles")
    args = parser.parse_args()
    rawcap = os.path.abspath(args.rawcap)
    sizes = [int(s) for s in args.sizes.split(",")]
    for size in sizes:
        if size not in SHAPES:
            sys.exit(f"lossless: no frame shape for {size} MP; one of {sorted(SHAPES)}")
    work = tempfile.mkdtemp(prefix="rawcap-lossless-", dir=os.environ.get("TMPDIR", "/var/tmp"))
    rows = []
    edges = []
    try:
        for size in sizes:
            width, height = SHAPES[size]
            megapixels = width * height / 1e6
            frame = make_frame(rawcap, width, height, work)
            runs = {"none": [], "lossless": []}
            ratios = {"faults": [], "time": []}
            lossless_size = 0
            lossless_path = None
            for pair in range(args.runs + 1):
                order = ("none", "lossless") if pair % 2 == 0 else ("lossless", "none")
                results = {}
                for compression in order:
                    result, file_size, path = convert(rawcap, frame, compression, work)
                    results[compression] = result
                    if compression == "lossless":
                        lossless_size, lossless_path = file_size, path
                if pair == 0:
                    continue  # warm-up
                for compression, result in results.items():
                    runs[compression].append(result)
                ratios["faults"].append(results["lossless"][1] / results["none"][1])
                ratios["time"].append(results["lossless"][0] / results["none"][0])
            if args.edge_tiles and lossless_path:
                adobe = None
                if shutil.which("dng_validate"):
                    stem = os.path.join(work, f"adobe-{size}")
                    subprocess.run(["dng_validate", "-dng", stem, frame], check=True, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
                    adobe = edge_tile_bytes(stem + ".dng")[0]
                    os.unlink(stem + ".dng")
                edges.append((size, width, height, *edge_tile_bytes(lossless_path), adobe))
            os.unlink(frame)

            def median(compression, field):
                return statistics.median(run[field] for run in runs[compression])

            rows.append((size, width, height, megapixels,
                         median("none", 1), median("lossless", 1), statistics.median(ratios["faults"]),
                         median("none", 0) * 1000 / megapixels, median("lossless", 0) * 1000 / megapixels,
                         statistics.median(ratios["time"]),
                         median("none", 2) / 1024, median("lossless", 2) / 1024, lossless_size))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"rawcap convert, uncompressed DNG in, --compression none against lossless; median of {args.runs} "
          f"alternated pairs after a warm-up pair; rawcap {rawcap}.")
    print()
    print("| frame | faults none | faults lossless | lossless ÷ none (faults) | ms/MP none | ms/MP lossless "
          "| lossless ÷ none (time) | peak RSS none | peak RSS lossless | lossless file |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    met = True
    for (size, width, height, megapixels, f_none, f_lossless, f_ratio, ms_none, ms_lossless, t_ratio,
         rss_none, rss_lossless, file_size) in rows:
        met = met and f_ratio <= args.goal
        print(f"| {size} MP ({width}×{height}) | {f_none:.0f} | {f_lossless:.0f} | {f_ratio:.2f} | {ms_none:.1f} "
              f"| {ms_lossless:.1f} | {t_ratio:.2f} | {rss_none:.0f} MiB | {rss_lossless:.0f} MiB "
              f"| {file_size / 1e6:.1f} MB |")
    print()
    print(f"Goal, lossless faults ≤ {args.goal:g} × uncompressed at every size: {'met' if met else 'NOT met'}.")
    if edges:
        print()
        print("| frame | interior tiles | mean | right column | mean | bottom row | mean | corner | part of edge tiles "
              "filled |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for size, width, height, groups, (columns, rows_, tile_width, tile_height), _ in edges:
            def cell(key):
                counts = groups[key]
                if not counts:
                    return "— | —"
                return f"{len(counts)} | {statistics.mean(counts):,.0f} B"
            corner = f"{groups['corner'][0]:,} B" if groups["corner"] else "—"
            print(f"| {size} MP ({width}×{height}) | {cell('interior')} | {cell('right')} | {cell('bottom')} "
                  f"| {corner} | {columns}×{tile_height} right, {tile_width}×{rows_} bottom |")
        sdk = [edge for edge in edges if edge[-1]]
        if sdk:
            print()
            print("rawcap's lossless raw data against the DNG SDK's (`dng_validate -dng` of the same uncompressed "
                  "DNG), bytes; per kind of tile, the ratio of the means:")
            print()
            print("| frame | rawcap raw data | SDK raw data | rawcap ÷ SDK | interior | right column | bottom row "
                  "| corner |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|")
            for size, width, height, groups, _, adobe in sdk:
                ours = sum(sum(v) for v in groups.values())
                theirs = sum(sum(v) for v in adobe.values())

                def ratio(key):
                    if not groups[key] or not adobe[key]:
                        return "—"
                    return f"{statistics.mean(groups[key]) / statistics.mean(adobe[key]):.3f}"
                print(f"| {size} MP ({width}×{height}) | {ours:,} | {theirs:,} | {ours / theirs:.4f} "
                      f"| {ratio('interior')} | {ratio('right')} | {ratio('bottom')} | {ratio('corner')} |")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
