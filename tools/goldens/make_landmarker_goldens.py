"""Write the Face Landmarker golden file: MediaPipe Tasks 0.10.14's FaceLandmarker on the fixtures.

    .venv-tools/bin/python -m tools.goldens.make_landmarker_goldens \
        --fixtures Tests/Fixtures --bundle models/face_landmarker.task \
        --out Tests/FaceDetectionTests/Goldens/face_landmarker.json

`mediapipe.tasks.python.vision.FaceLandmarker` runs the bundle the worker loads, with
output_face_blendshapes and output_facial_transformation_matrixes on and every confidence at its
default (0.5):

* stills (the fixtures the manifest says show faces): IMAGE mode, num_faces = the faces shown,
  one landmarker per image;
* videos: VIDEO mode, one landmarker per video, num_faces = the most faces any frame shows
  (1 for video, 2 for two_faces_video), frame k at timestamp k * 33 ms as the other video
  goldens and tests use.

Each JPEG is decoded by Pillow to RGB uint8, as the other golden scripts do. Per face: the 478
landmarks [x, y, z] (normalized: x / width, y / height, z on the scale of x), the 52 blendshape
scores in model order, and the 4x4 facial transformation matrix row by row; faces in MediaPipe's
order, numbers rounded to 6 decimals. The run stops with an error when a fixture yields a
different number of faces than the manifest says it shows, apart from the known misses listed
in the file (expected_faces says how many MediaPipe finds).
"""

import argparse
import json
import os
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
from PIL import Image

from tools.goldens import json_layout
from tools.goldens.make_pipeline_goldens import stills
from tools.shared.mediapipe_solutions import PINNED_VERSION, load_solutions

DECIMALS = 6
FRAME_MS = 33
# Fixtures on which MediaPipe finds fewer faces than they show; their goldens are the smaller
# count, which the Swift pipeline must reproduce too.
KNOWN_MISSES = {
    "camera.jpg": "the detector finds the cameraman's half-profile face, but the Face Landmarker's mesh "
                  "model scores it at or below the presence threshold",
}


def r(value):
    # Adding 0.0 turns -0.0 into 0.0, so a sign flip below the printed precision never shows.
    return round(float(value), DECIMALS) + 0.0


def decode(path):
    with Image.open(path) as image:
        return np.ascontiguousarray(np.asarray(image.convert("RGB"), dtype=np.uint8))


class Landmarkers:
    """Builds FaceLandmarkers over one bundle, in the mode and face count asked for."""

    def __init__(self, bundle):
        load_solutions()  # checks the pinned version and quiets glog before the tasks load
        import mediapipe as mp
        from mediapipe.tasks.python import BaseOptions, vision
        self.mp, self.vision = mp, vision
        self.base = BaseOptions(model_asset_buffer=bundle.read_bytes())

    def create(self, mode, num_faces):
        options = self.vision.FaceLandmarkerOptions(
            base_options=self.base, running_mode=mode, num_faces=num_faces,
            output_face_blendshapes=True, output_facial_transformation_matrixes=True)
        return self.vision.FaceLandmarker.create_from_options(options)

    def image(self, pixels):
        return self.mp.Image(image_format=self.mp.ImageFormat.SRGB, data=pixels)


def faces(result):
    matrices = result.facial_transformation_matrixes or []
    blendshapes = result.face_blendshapes or []
    if len(matrices) != len(result.face_landmarks) or len(blendshapes) != len(result.face_landmarks):
        sys.exit("error: FaceLandmarker returned landmarks, blendshapes and matrices for different numbers of faces")
    found = []
    for points, scores, matrix in zip(result.face_landmarks, blendshapes, matrices):
        if [c.index for c in scores] != list(range(len(scores))):
            sys.exit("error: blendshape categories out of model order")
        found.append({"points": [[r(p.x), r(p.y), r(p.z)] for p in points],
                      "blendshapes": [r(c.score) for c in scores],
                      "matrix": [[r(v) for v in row] for row in np.asarray(matrix, dtype=np.float64)]})
    return found


def still_goldens(landmarkers, fixtures, images):
    goldens = {}
    for entry in images:
        if entry["faces"] == 0:
            continue
        pixels = decode(fixtures / entry["file"])
        with landmarkers.create(landmarkers.vision.RunningMode.IMAGE, entry["faces"]) as landmarker:
            result = landmarker.detect(landmarkers.image(pixels))
        goldens[entry["file"]] = {"width": int(pixels.shape[1]), "height": int(pixels.shape[0]),
                                  "num_faces": entry["faces"],
                                  "expected_faces": 0 if entry["file"] in KNOWN_MISSES else entry["faces"],
                                  "faces": faces(result)}
    return goldens


def video_goldens(landmarkers, fixtures, frames):
    most = max(entry["faces"] for entry in frames)
    results = []
    with landmarkers.create(landmarkers.vision.RunningMode.VIDEO, most) as landmarker:
        for index, entry in enumerate(frames):
            pixels = decode(fixtures / entry["file"])
            result = landmarker.detect_for_video(landmarkers.image(pixels), index * FRAME_MS)
            results.append({"file": entry["file"], "timestamp_ms": index * FRAME_MS, "faces": faces(result)})
    return {"num_faces": most, "frames": results}


def check_counts(manifest, goldens):
    wrong = [f"{file}: {len(g['faces'])} faces, expected {g['expected_faces']}"
             for file, g in goldens["images"].items() if len(g["faces"]) != g["expected_faces"]]
    for name, frames in manifest["videos"].items():
        for entry, result in zip(frames, goldens["videos"][name]["frames"], strict=True):
            if len(result["faces"]) != entry["faces"]:
                wrong.append(f"{entry['file']}: {len(result['faces'])} faces, expected {entry['faces']}")
    return wrong


def generate(fixtures, bundle, out):
    manifest = json.loads((fixtures / "manifest.json").read_text())
    manifest["images"] = stills(manifest)
    landmarkers = Landmarkers(bundle)
    goldens = {
        "generator": "tools/goldens/make_landmarker_goldens.py",
        "mediapipe": PINNED_VERSION,
        "bundle": bundle.name,
        "decoder": f"Pillow {version('pillow')}, RGB uint8",
        "options": "output_face_blendshapes and output_facial_transformation_matrixes on; confidences 0.5",
        "stills": "IMAGE mode, num_faces = the faces the fixture shows, one landmarker per image",
        "videos_run": f"VIDEO mode, one landmarker per video, num_faces = the most faces a frame shows, "
                      f"frame k at k * {FRAME_MS} ms",
        "points": f"478 [x, y, z] per face, normalized (x / width, y / height, z on the scale of x), origin "
                  f"top-left; blendshapes: 52 scores in model order; matrix: 4x4 row by row; rounded to "
                  f"{DECIMALS} decimals; faces in MediaPipe's order",
        "known_misses": [{"file": file, "why": why} for file, why in KNOWN_MISSES.items()],
        "images": still_goldens(landmarkers, fixtures, manifest["images"]),
        "videos": {name: video_goldens(landmarkers, fixtures, frames) for name, frames in manifest["videos"].items()},
    }
    wrong = check_counts(manifest, goldens)
    if wrong:
        sys.exit("error: FaceLandmarker disagrees with the fixture manifest:\n  " + "\n  ".join(wrong))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json_layout.dumps(goldens, depth=4) + "\n")
    print(f"wrote {out}, {out.stat().st_size / 1024:.0f} KiB")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", type=Path, default=Path("Tests/Fixtures"),
                        help="folder made by make_pipeline_fixtures.py")
    parser.add_argument("--bundle", type=Path, default=Path("models/face_landmarker.task"),
                        help="the Face Landmarker bundle `make models` fetched")
    parser.add_argument("--out", type=Path, default=Path("Tests/FaceDetectionTests/Goldens/face_landmarker.json"),
                        help="golden file to write")
    args = parser.parse_args()
    generate(args.fixtures, args.bundle, args.out)


if __name__ == "__main__":
    main()
