#!/usr/bin/env python3
"""Writes the frame the worker runs through every pipeline before it says it is ready.

A fresh worker's first frame used to pay for everything the model runs alone do not touch: the
JPEG decoder's tables, the detector's and the landmark stages' own code, the tracker and the large
buffers a 1280x720 frame needs. The worker warms all of that on one frame with one face in it:
the astronaut's face from the test fixtures, doubled, on a flat 1280x720 grey field.

Run by `make warm-frame` (Pillow, from the tools environment); the output is committed, so a
build never needs Python.
"""

import base64
import io
import json
import pathlib
import textwrap

from PIL import Image

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = "Tests/Fixtures/astronaut.jpg"
OUTPUT = ROOT / "Sources/FaceAnalysis/WarmFrameJPEG.swift"
SIZE = (1280, 720)
CROP = 192
SCALE = 2
QUALITY = 85


def warm_jpeg():
    manifest = json.loads((ROOT / "Tests/Fixtures/manifest.json").read_text())
    cx, cy = manifest["sources"]["astronaut"]["face_centre"]
    photo = Image.open(ROOT / SOURCE).convert("RGB")
    half = CROP // 2
    face = photo.crop((int(cx) - half, int(cy) - half, int(cx) + half, int(cy) + half))
    face = face.resize((CROP * SCALE, CROP * SCALE), Image.Resampling.BICUBIC)
    frame = Image.new("RGB", SIZE, (128, 128, 128))
    frame.paste(face, ((SIZE[0] - face.width) // 2, (SIZE[1] - face.height) // 2))
    out = io.BytesIO()
    frame.save(out, format="JPEG", quality=QUALITY, optimize=True)
    return out.getvalue()


def main():
    encoded = base64.b64encode(warm_jpeg()).decode("ascii")
    lines = "\n".join(f"        {line}" for line in textwrap.wrap(encoded, 96))
    OUTPUT.write_text(
        f"// Generated from {SOURCE} by scripts/make-warm-frame.py (make warm-frame). Do not edit.\n\n"
        "extension WarmFrame {\n"
        f"    /// A {SIZE[0]}x{SIZE[1]} baseline JPEG with one face at its centre, in base64 split\n"
        "    /// over lines.\n"
        '    static let base64 = """\n'
        f"{lines}\n"
        '        """\n'
        "}\n")
    print(f"wrote {OUTPUT.relative_to(ROOT)}: {len(encoded) * 3 // 4} bytes of JPEG")


if __name__ == "__main__":
    main()
