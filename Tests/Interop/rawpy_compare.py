"""Compares what rawpy (LibRaw 0.22) reads from two DNGs, for rawcap's interop tests.

usage: rawpy_compare.py A.dng B.dng

Prints one JSON object: whether the visible raw samples are identical, and each file's size, CFA pattern, black
levels and white level as LibRaw sees them. Exits 0 when it could read both files.
"""
import json
import sys

import numpy as np
import rawpy


def describe(path):
    with rawpy.imread(path) as raw:
        return {
            "visible": raw.raw_image_visible.copy(),
            "colors": raw.raw_colors_visible.copy(),
            "size": [int(raw.sizes.width), int(raw.sizes.height)],
            "pattern": raw.raw_pattern.tolist(),
            "black": [int(v) for v in raw.black_level_per_channel],
            "white": int(raw.white_level),
        }


a, b = describe(sys.argv[1]), describe(sys.argv[2])
print(json.dumps({
    "identical": bool(a["visible"].shape == b["visible"].shape and np.array_equal(a["visible"], b["visible"])),
    "sameColors": bool(np.array_equal(a["colors"], b["colors"])),
    "a": {k: v for k, v in a.items() if k not in ("visible", "colors")},
    "b": {k: v for k, v in b.items() if k not in ("visible", "colors")},
    "pixels": int(a["visible"].size),
}))
