"""Reads a maker's raw file (NEF, CR2) with rawpy (LibRaw 0.22) for rawcap's vendor-personality tests.

usage: rawpy_vendor.py FILE SAMPLES

SAMPLES holds the samples the file should contain, row by row, as little-endian uint16. Prints one JSON object:
whether LibRaw's raw image equals them, the camera LibRaw identified, its size, CFA pattern, black and white levels,
the first row of the colour matrix it applied and the as-shot white balance.
"""
import json
import sys

import numpy as np
import rawpy

with rawpy.imread(sys.argv[1]) as raw:
    image = raw.raw_image.copy()
    expected = np.fromfile(sys.argv[2], dtype="<u2")
    print(json.dumps({
        "identical": bool(expected.size == image.size and np.array_equal(image.ravel(), expected)),
        "size": [int(raw.sizes.raw_width), int(raw.sizes.raw_height)],
        "pattern": raw.raw_pattern.tolist(),
        "colors": raw.color_desc.decode(),
        "black": [int(v) for v in raw.black_level_per_channel],
        "white": int(raw.white_level),
        "matrix": [float(v) for v in np.array(raw.rgb_xyz_matrix)[0]],
        "whiteBalance": [float(v) for v in raw.camera_whitebalance],
    }))
