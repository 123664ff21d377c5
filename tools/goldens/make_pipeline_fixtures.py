"""Write the face-pipeline test fixtures: JPEG stills and two synthetic videos from skimage.data.

    .venv-tools/bin/python -m tools.goldens.make_pipeline_fixtures --out Tests/Fixtures

Every image comes from the photographs bundled in scikit-image's wheel (astronaut: one face;
camera: one face, grayscale made RGB; chelsea, coffee, rocket: no human face). Faces are moved
by one affine placement each (see placement.py for the convention), drawn with Pillow's
BILINEAR filter on a black canvas and saved as baseline 4:2:0 JPEG with fixed settings, so
reruns give the same bytes. manifest.json lists every file with its size, the number of faces
it shows and, per face, the placement that put it there; the applied in-plane angle is the
roll a detector should report relative to the untouched photograph. Files of the kinds written
here that a run no longer produces are removed.
"""

import argparse
import math
from importlib.metadata import version
from pathlib import Path

import numpy as np
from PIL import Image
from skimage import data

from tools.goldens import json_layout
from tools.goldens.placement import CONVENTIONS, Placement, render_patch, render_whole

JPEG_SETTINGS = {"quality": 85, "subsampling": 2, "optimize": True, "progressive": False}
VIDEO_JPEG_SETTINGS = {**JPEG_SETTINGS, "quality": 75}
MAX_SIDE = 640

# Face centres and box sizes in source pixels, read once from MediaPipe's short-range detector
# on the untouched photographs (astronaut box 95 px at (225.2, 130.5), camera 85 px at
# (222.8, 164.5)); placements are expressed relative to these centres.
FACES = {
    "astronaut": {"centre": (225.0, 130.0), "box": 95},
    "camera": {"centre": (223.0, 164.0), "box": 85},
}
NO_FACE_SOURCES = ("chelsea", "coffee", "rocket")
ROTATIONS = (-30, -15, 15, 30)

# Source window kept around a face in the composed images: head, hair and some shoulder,
# as (left, top, right, bottom) distances from the face centre in source pixels.
HEAD_WINDOW = (90, 105, 90, 125)

VIDEO_SIZE = (640, 360)
VIDEO_FRAMES = 24
PAIR_FRAMES = 16


def source_image(name):
    pixels = getattr(data, name)()
    if pixels.ndim == 2:
        pixels = np.stack([pixels] * 3, axis=-1)
    image = Image.fromarray(pixels).convert("RGB")
    scale = MAX_SIDE / max(image.size)
    if scale < 1:
        image = image.resize((round(image.width * scale), round(image.height * scale)), Image.LANCZOS)
    return image


class Writer:
    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.written = []

    def save(self, relative, image, faces, settings=JPEG_SETTINGS):
        path = self.out_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, "JPEG", **settings)
        entry = {"file": relative, "width": image.width, "height": image.height,
                 "bytes": path.stat().st_size, "quality": settings["quality"],
                 "faces": len(faces), "placements": [face.describe() for face in faces]}
        self.written.append(entry)
        return entry

    def remove_stale(self):
        kept = {self.out_dir / entry["file"] for entry in self.written}
        for path in sorted(self.out_dir.rglob("*.jpg")):
            if path not in kept:
                path.unlink()
        for folder in sorted(self.out_dir.iterdir()):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()


def stills(sources, writer):
    astronaut = sources["astronaut"]
    for name in ("astronaut", "camera"):
        face = Placement(name, FACES[name]["centre"], FACES[name]["centre"])
        writer.save(f"{name}.jpg", render_whole(sources, sources[name].size, face), [face])
    for name in NO_FACE_SOURCES:
        writer.save(f"{name}.jpg", sources[name], [])

    flipped = Placement("astronaut", FACES["astronaut"]["centre"],
                        (astronaut.width - FACES["astronaut"]["centre"][0], FACES["astronaut"]["centre"][1]),
                        mirrored=True)
    writer.save("astronaut_flipped.jpg", render_whole(sources, astronaut.size, flipped), [flipped])

    for angle in ROTATIONS:
        centre = FACES["astronaut"]["centre"]
        face = Placement("astronaut", centre, centre, angle=angle)
        tag = f"m{-angle}" if angle < 0 else f"p{angle}"
        writer.save(f"astronaut_rot_{tag}.jpg", render_whole(sources, astronaut.size, face), [face])


def composition(sources, size, faces):
    canvas = Image.new("RGB", size)
    for face in faces:
        render_patch(canvas, sources, face, HEAD_WINDOW)
    return canvas


def composed(sources, writer):
    two = [
        Placement("astronaut", FACES["astronaut"]["centre"], (170.0, 175.0), scale=1.4),
        Placement("astronaut", FACES["astronaut"]["centre"], (470.0, 175.0), scale=1.4, mirrored=True),
    ]
    writer.save("two_faces.jpg", composition(sources, (640, 360), two), two)

    three = [
        Placement("astronaut", FACES["astronaut"]["centre"], (135.0, 190.0), scale=1.15),
        Placement("astronaut", FACES["astronaut"]["centre"], (400.0, 200.0), scale=1.45, mirrored=True),
        Placement("astronaut", FACES["astronaut"]["centre"], (665.0, 195.0), scale=1.3),
    ]
    writer.save("three_faces.jpg", composition(sources, (800, 400), three), three)

    # A group photo's far faces: ten faces about 6 % of a 1280x720 frame wide. The Face Landmarker's
    # short-range detector finds none of them; the full-range detector finds most.
    group = [Placement("astronaut", FACES["astronaut"]["centre"], ((column + 0.5) * 256.0, (row + 0.5) * 360.0),
                       scale=0.8, mirrored=(row + column) % 2 == 1)
             for row in range(2) for column in range(5)]
    writer.save("group_small_faces.jpg", composition(sources, (1280, 720), group), group)


def loop_video(sources, writer):
    """One face on a closed Lissajous path: frame 0 follows the last frame as smoothly as frame 1
    follows frame 0, so a benchmark can cycle the frames and a tracker never sees a jump."""
    width, height = VIDEO_SIZE
    entries = []
    for k in range(VIDEO_FRAMES):
        phase = 2 * math.pi * k / VIDEO_FRAMES
        face = Placement("astronaut", FACES["astronaut"]["centre"],
                         (round(width / 2 + 70 * math.sin(phase), 3), round(height / 2 + 20 * math.sin(2 * phase), 3)),
                         scale=round(1.25 + 0.15 * math.cos(phase), 4),
                         angle=round(20 * math.sin(phase), 3))
        entries.append(writer.save(f"video/frame_{k:03d}.jpg", render_whole(sources, VIDEO_SIZE, face), [face],
                                   VIDEO_JPEG_SETTINGS))
    return entries


def pair_video(sources, writer):
    """Two faces side by side, touching at first, eased apart until each is near its frame edge."""
    width, height = VIDEO_SIZE
    scale = 1.05
    start = (HEAD_WINDOW[0] + HEAD_WINDOW[2]) * scale / 2
    end = width / 2 - HEAD_WINDOW[0] * scale - 4
    entries = []
    for k in range(PAIR_FRAMES):
        t = k / (PAIR_FRAMES - 1)
        offset = round(start + (end - start) * (1 - math.cos(math.pi * t)) / 2, 3)
        faces = [
            Placement("astronaut", FACES["astronaut"]["centre"], (width / 2 - offset, 170.0), scale=scale),
            Placement("astronaut", FACES["astronaut"]["centre"], (width / 2 + offset, 170.0), scale=scale,
                      mirrored=True),
        ]
        entries.append(writer.save(f"two_faces_video/frame_{k:03d}.jpg", composition(sources, VIDEO_SIZE, faces),
                                   faces, VIDEO_JPEG_SETTINGS))
    return entries


def generate(out_dir):
    out_dir.mkdir(parents=True, exist_ok=True)
    sources = {name: source_image(name) for name in (*FACES, *NO_FACE_SOURCES)}
    writer = Writer(out_dir)
    stills(sources, writer)
    composed(sources, writer)
    images = list(writer.written)
    videos = {"video": loop_video(sources, writer), "two_faces_video": pair_video(sources, writer)}
    writer.remove_stale()

    manifest = {
        "generator": "tools/goldens/make_pipeline_fixtures.py",
        "source": f"scikit-image {version('scikit-image')} skimage.data",
        "conventions": CONVENTIONS,
        "jpeg": {"baseline": True, "subsampling": "4:2:0", "optimized_huffman": True,
                 "encoder": f"Pillow {version('pillow')}"},
        "sources": {name: {"width": sources[name].width, "height": sources[name].height,
                           "face_centre": list(face["centre"]), "face_box": face["box"]}
                    for name, face in FACES.items()},
        "images": images,
        "videos": videos,
        "total_bytes": sum(entry["bytes"] for entry in writer.written),
    }
    (out_dir / "manifest.json").write_text(json_layout.dumps(manifest, depth=3) + "\n")
    total = sum(path.stat().st_size for path in out_dir.rglob("*") if path.is_file())
    print(f"wrote {len(writer.written)} JPEG files and manifest.json, {total / 1024:.0f} KiB, to {out_dir}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("Tests/Fixtures"), help="fixture folder")
    generate(parser.parse_args().out)


if __name__ == "__main__":
    main()
