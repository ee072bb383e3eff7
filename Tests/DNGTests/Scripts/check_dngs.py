#!/usr/bin/env python3
"""Independent readers for rawcap's DNG tests: rawpy (LibRaw 0.22) and tifffile, plus an independent
implementation of the DNG SDK's NewRawImageDigest.

Usage: check_dngs.py MANIFEST.json
The manifest is a list of objects:
  path       the DNG
  expected   little-endian uint16 file: the samples that went in (rows x cols x planes)
  height, width, planes
  cfa        pattern letters row by row ("RGGB", 36 letters for X-Trans), or null for LinearRaw
  cfa_size   [rows, cols] of the pattern
  active     [top, left, bottom, right]
  black      black level per pattern position (CFA) or per sample (LinearRaw)
  white      white level (CFA) or per-sample list (LinearRaw)
  digest_bytes_per_sample  1 or 2, how the SDK hashes the samples
  render     whether LibRaw should also demosaic the file (postprocess)
  table      LinearRaw only, optional: the LinearizationTable LibRaw applies while loading
  aspect     optional: the pixel aspect ratio (DefaultScale horizontal / vertical) LibRaw must report
Prints one JSON object per file: {"path": ..., "failures": [...], "checks": [...]}.
"""
import hashlib
import json
import sys

import numpy as np
import rawpy
import tifffile


def raw_page(path):
    """The IFD with NewSubFileType 0 (IFD0 or a SubIFD), and IFD0's tags."""
    tf = tifffile.TiffFile(path)
    pages = []
    for page in tf.pages:
        pages.append(page)
        pages.extend(page.pages or [])
    raw = [p for p in pages if p.tags.get(254) is not None and p.tags[254].value == 0]
    return tf, raw[0], tf.pages[0]


def new_raw_image_digest(samples, bytes_per_sample):
    """dng_negative::FindNewRawImageDigest, written from the SDK's description: 256x256 tiles from the top-left,
    clipped at the edges; each tile hashed plane by plane, row by row, samples little-endian; MD5 of the
    concatenated tile MD5s."""
    height, width, planes = samples.shape
    tile_h, tile_w = min(256, height), min(256, width)
    dtype = np.dtype("<u2") if bytes_per_sample == 2 else np.dtype("u1")
    outer = hashlib.md5()
    for y in range(0, height, tile_h):
        for x in range(0, width, tile_w):
            tile = samples[y:y + tile_h, x:x + tile_w, :]
            planar = np.ascontiguousarray(np.transpose(tile, (2, 0, 1))).astype(dtype)
            outer.update(hashlib.md5(planar.tobytes()).digest())
    return outer.digest()


def check(entry):
    failures, checks = [], []
    h, w, planes = entry["height"], entry["width"], entry["planes"]
    expected = np.fromfile(entry["expected"], dtype="<u2").reshape(h, w, planes)

    # tifffile: decode the raw IFD (imagecodecs provides the lossless JPEG codec) and compare exactly.
    try:
        tf, page, ifd0 = raw_page(entry["path"])
        decoded = page.asarray().reshape(h, w, planes)
        if np.array_equal(decoded, expected):
            checks.append("tifffile pixels")
        else:
            failures.append("tifffile: %d samples differ" % int((decoded != expected).sum()))
        digest_tag = ifd0.tags.get(51111)
        if digest_tag is not None:
            stored = bytes(digest_tag.value)
            ours = new_raw_image_digest(decoded, entry["digest_bytes_per_sample"])
            if stored == ours:
                checks.append("NewRawImageDigest")
            else:
                failures.append("NewRawImageDigest %s, independent implementation %s" % (stored.hex(), ours.hex()))
        tf.close()
    except Exception as error:  # noqa: BLE001 - every reader failure is a test failure
        failures.append("tifffile: %r" % error)

    # rawpy / LibRaw 0.22.
    try:
        with rawpy.imread(entry["path"]) as raw:
            if planes == 1:
                image = raw.raw_image.copy()
                if np.array_equal(image, expected[:, :, 0]):
                    checks.append("rawpy pixels")
                else:
                    failures.append("rawpy: %d samples differ" % int((image != expected[:, :, 0]).sum()))
                # Colour of every photosite, as LibRaw understands the CFA tags.
                desc = raw.color_desc.decode()
                colors = np.vectorize(lambda c: desc[c])(raw.raw_colors)
                rows, cols = entry["cfa_size"]
                top, left = entry["active"][0], entry["active"][1]
                pattern = np.array(list(entry["cfa"])).reshape(rows, cols)
                yy, xx = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
                want = pattern[(yy - top) % rows, (xx - left) % cols]
                if np.array_equal(colors, want):
                    checks.append("rawpy colours")
                else:
                    failures.append("rawpy: colour layout differs (%s)" % desc)
                if raw.white_level == entry["white"]:
                    checks.append("rawpy white")
                else:
                    failures.append("rawpy: white %s, expected %s" % (raw.white_level, entry["white"]))
                if rows == 2 and cols == 2:
                    got = sorted(raw.black_level_per_channel)
                    if got == sorted(int(round(b)) for b in entry["black"]):
                        checks.append("rawpy black")
                    else:
                        failures.append("rawpy: black %s, expected %s" % (got, entry["black"]))
            else:
                # LibRaw applies the LinearizationTable while loading LinearRaw data.
                table = entry.get("table")
                linear = np.array(table, dtype=np.uint16)[expected] if table else expected
                image = raw.raw_image.copy()[:, :, :planes]
                if np.array_equal(image, linear):
                    checks.append("rawpy linear pixels")
                else:
                    failures.append("rawpy: %d linear samples differ" % int((image != linear).sum()))
            if entry.get("aspect") is not None:
                got = raw.sizes.pixel_aspect
                if abs(got - entry["aspect"]) < 1e-4:
                    checks.append("rawpy pixel aspect")
                else:
                    failures.append("rawpy: pixel aspect %s, expected %s" % (got, entry["aspect"]))
            if entry.get("render"):
                rgb = raw.postprocess(output_bps=16)
                checks.append("rawpy render %dx%d" % (rgb.shape[1], rgb.shape[0]))
    except Exception as error:  # noqa: BLE001
        failures.append("rawpy: %r" % error)
    return {"path": entry["path"], "failures": failures, "checks": checks}


def main():
    with open(sys.argv[1]) as handle:
        manifest = json.load(handle)
    for entry in manifest:
        print(json.dumps(check(entry)), flush=True)


if __name__ == "__main__":
    main()
