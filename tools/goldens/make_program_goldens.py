"""Write the documented programs' golden file: what MediaPipe 0.10.14 prints running them.

    .venv-tools/bin/python -m tools.goldens.make_program_goldens \
        --models models --fixtures Tests/Fixtures \
        --out clients/python/tests/goldens/documented_programs.json

The programs are MediaPipe's own Face Detector and Face Landmarker Python programs, as its guides
and example notebooks write them, kept in clients/python/tests/programs/ with the images and the
model file they are given (programs/documented.py, RUNS). Each is run here as it is, importing
mediapipe, with the Face Landmarker bundle (face_landmarker.task) for the landmarker and the
bundle's own face detector (face_detector.tflite, a short-range BlazeFace with the metadata
MediaPipe Tasks reads) for the detector. The tests run the same programs with only their import
lines changed to faceworker, and read both outputs with the same reader (documented.read).

Per printed result, the file keeps the image's file name and size and the faces as read: a
detector face's pixel box, score and six normalized keypoints; a landmarker face's 478 points,
52 blendshape scores and 4x4 matrix when printed. Numbers are rounded to 6 decimals. The run stops
with an error when a program fails or prints another number of results than it was given images.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

from tools.goldens import json_layout
from tools.shared.landmarker_bundle import BUNDLE_FILE, read_member
from tools.shared.mediapipe_solutions import PINNED_VERSION, load_solutions

PROGRAMS = Path(__file__).resolve().parents[2] / "clients" / "python" / "tests" / "programs"
sys.path.insert(0, str(PROGRAMS))
import documented  # noqa: E402  (the tests' own reader, so both sides read the printed text alike)

DECIMALS = 6


def rounded(value):
    if isinstance(value, float):
        # Adding 0.0 turns -0.0 into 0.0, so a sign flip below the printed precision never shows.
        return round(value, DECIMALS) + 0.0
    if isinstance(value, list):
        return [rounded(item) for item in value]
    if isinstance(value, dict):
        return {key: rounded(item) for key, item in value.items()}
    return value


def run(name, run_spec, model_files, fixtures):
    images = [str(fixtures / image) for image in run_spec.images]
    command = [sys.executable, str(PROGRAMS / run_spec.program), str(model_files[run_spec.model]), *images]
    # glog reads its level once, when MediaPipe's extension is loaded.
    completed = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "GLOG_minloglevel": "2"})
    if completed.returncode != 0:
        sys.exit(f"error: {run_spec.program} failed:\n{completed.stderr}")
    results = documented.read(completed.stdout, run_spec.prefix)
    if len(results) != len(images):
        sys.exit(f"error: {run_spec.program} printed {len(results)} results for {len(images)} images")
    printed = []
    for image, result in zip(run_spec.images, results):
        with Image.open(fixtures / image) as opened:
            width, height = opened.size
        printed.append({"image": image, "width": width, "height": height, "faces": rounded(result["faces"])})
    print(f"{name}: faces per result {[len(result['faces']) for result in printed]}")
    return printed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=Path("models"), help="the folder `make models` fills")
    parser.add_argument("--fixtures", type=Path, default=Path("Tests/Fixtures"),
                        help="folder made by make_pipeline_fixtures.py")
    parser.add_argument("--out", type=Path, default=PROGRAMS.parent / "goldens" / "documented_programs.json",
                        help="golden file to write")
    args = parser.parse_args()
    load_solutions()  # checks the pinned version
    with tempfile.TemporaryDirectory() as directory:
        detector = Path(directory) / "face_detector.tflite"
        detector.write_bytes(read_member(args.models, "face_detector.tflite"))
        model_files = {"detector": detector, "landmarker": args.models / BUNDLE_FILE}
        goldens = {
            "generator": "tools/goldens/make_program_goldens.py",
            "mediapipe": PINNED_VERSION,
            "models": f"detector: {BUNDLE_FILE}'s face_detector.tflite; landmarker: {BUNDLE_FILE}",
            "faces": "detector: box [origin_x, origin_y, width, height] in pixels, score, keypoints [x, y] "
                     "normalized; landmarker: points [x, y, z] normalized, blendshape scores in model order, "
                     f"matrix 4x4 row by row; rounded to {DECIMALS} decimals",
            "programs": {name: run(name, spec, model_files, args.fixtures) for name, spec in documented.RUNS.items()},
        }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json_layout.dumps(goldens, depth=4) + "\n")
    print(f"wrote {args.out}, {args.out.stat().st_size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
