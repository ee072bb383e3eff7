"""Writes a DNG with PiDNG (an independent writer) for rawcap's interop tests.

usage: pidng_write.py OUT.dng SAMPLES.raw WIDTH HEIGHT BITS

Generates a deterministic Bayer frame, writes it uncompressed with PiDNG (its LJ92 path with predictor 1 is broken,
dng-facts.md fact 3, and its pack14 is wrong, so 10, 12 and 16 bits only), and writes the samples it was given as
little-endian uint16 to SAMPLES.raw so the test can compare what readers decode with what went in.
"""
import sys

import numpy as np
from pidng.core import RAW2DNG, DNGTags, Tag
from pidng.defs import CFAPattern, CalibrationIlluminant, DNGVersion, PhotometricInterpretation

out_path, samples_path = sys.argv[1], sys.argv[2]
width, height, bits = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
if bits not in (10, 12, 16):
    raise SystemExit("PiDNG packs 10, 12 and 16 bits correctly")

rng = np.random.default_rng(20240517)
frame = rng.integers(0, 1 << bits, size=(height, width), dtype=np.uint16)
# A smooth gradient in the top rows makes demosaicing readers produce something recognisable.
frame[: height // 4, :] = (np.arange(width, dtype=np.uint32) * ((1 << bits) - 1) // max(1, width - 1)).astype(np.uint16)

ccm = [[10000, 10000], [0, 10000], [0, 10000], [0, 10000], [10000, 10000], [0, 10000], [0, 10000], [0, 10000],
       [10000, 10000]]
tags = DNGTags()
tags.set(Tag.ImageWidth, width)
tags.set(Tag.ImageLength, height)
tags.set(Tag.TileWidth, width)
tags.set(Tag.TileLength, height)
tags.set(Tag.Orientation, 1)
tags.set(Tag.PhotometricInterpretation, PhotometricInterpretation.Color_Filter_Array)
tags.set(Tag.SamplesPerPixel, 1)
tags.set(Tag.BitsPerSample, bits)
tags.set(Tag.CFARepeatPatternDim, [2, 2])
tags.set(Tag.CFAPattern, CFAPattern.RGGB)
tags.set(Tag.BlackLevel, 64)
tags.set(Tag.WhiteLevel, (1 << bits) - 1)
tags.set(Tag.ColorMatrix1, ccm)
tags.set(Tag.CalibrationIlluminant1, CalibrationIlluminant.D65)
tags.set(Tag.AsShotNeutral, [[1, 2], [1, 1], [2, 3]])
tags.set(Tag.Make, "PiDNG")
tags.set(Tag.Model, "Interop Test")
tags.set(Tag.UniqueCameraModel, "PiDNG Interop Test")
# PiDNG adds its own DNGVersion 1.4 / DNGBackwardVersion 1.0; setting them again duplicates the tags (fact 8).

writer = RAW2DNG()
writer.options(tags, path="", compress=False)
data = writer.convert(frame)
with open(out_path, "wb") as output:
    output.write(data)
frame.astype("<u2").tofile(samples_path)
