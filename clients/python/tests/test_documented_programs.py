"""MediaPipe's own Face Detector and Face Landmarker programs run against the worker, switched by
their import lines alone.

The programs (tests/programs/) are written as MediaPipe's Python guides and example notebooks
write them, for IMAGE, VIDEO and LIVE_STREAM. Each is run with ``mediapipe`` replaced by
``faceworker`` in its import lines and nothing else, and what it prints is compared with what it
printed under MediaPipe 0.10.14 on the same images (tests/goldens/documented_programs.json, from
tools/goldens/make_program_goldens.py), within the bounds of the pipeline's parity tests: detector boxes
IoU at least 0.9, scores within 0.02, keypoints within 1 % of the image; landmarker points within
0.5 % of the inter-ocular distance (points 33 and 263), their median within 0.1 %, blendshapes
within 0.01, matrices within 1e-3 of their largest entry.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import numpy as np
import pytest

from conftest import FIXTURES
from worker_process import MODELS

sys.path.insert(0, str(Path(__file__).resolve().parent / "programs"))
import documented  # noqa: E402

GOLDENS = json.loads((Path(__file__).resolve().parent / "goldens" / "documented_programs.json").read_text())
IMPORT_LINE = re.compile(r"\s*(import|from)\s+mediapipe\b")
MIN_IOU = 0.9
SCORE_TOLERANCE = 0.02
KEYPOINT_TOLERANCE = 0.01
POINT_MAX = 0.005
POINT_MEDIAN = 0.001
BLENDSHAPE_TOLERANCE = 0.01
MATRIX_TOLERANCE = 1e-3


def switched(source: str) -> str:
    """The program with ``mediapipe`` replaced by ``faceworker`` in its import lines, and only there."""
    return "".join(
        re.sub(r"\bmediapipe\b", "faceworker", line) if IMPORT_LINE.match(line) else line
        for line in source.splitlines(keepends=True)
    )


def run_switched(name: str, socket_path: str, directory: Path) -> List[Dict[str, Any]]:
    run = documented.RUNS[name]
    original = (documented.HERE / run.program).read_text()
    program = directory / run.program
    program.write_text(switched(original))
    changed = [line for line in program.read_text().splitlines() if line not in original.splitlines()]
    assert changed and all(IMPORT_LINE.match(line.replace("faceworker", "mediapipe")) for line in changed)
    # The worker holds the models: the model path is the one MediaPipe was given, and only passed along.
    model = MODELS / ("face_landmarker.task" if run.model == "landmarker" else "face_detector.tflite")
    completed = subprocess.run(
        [sys.executable, str(program), str(model), *(str(FIXTURES / image) for image in run.images)],
        capture_output=True, text=True, cwd=directory, env={**os.environ, "FACEWORKER_SOCKET": socket_path},
    )
    assert completed.returncode == 0, completed.stderr
    return documented.read(completed.stdout, run.prefix)


def iou(a: List[float], b: List[float]) -> float:
    width = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    height = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    return width * height / (a[2] * a[3] + b[2] * b[3] - width * height)


def compare_detections(ours: List[Dict[str, Any]], goldens: List[Dict[str, Any]]) -> None:
    for result, golden in zip(ours, goldens, strict=True):
        label = golden["image"]
        assert len(result["faces"]) == len(golden["faces"]), f"{label}: faces"
        for reference in golden["faces"]:
            face = max(result["faces"], key=lambda face: iou(face["box"], reference["box"]))
            assert iou(face["box"], reference["box"]) >= MIN_IOU, f"{label}: box"
            assert face["score"] == pytest.approx(reference["score"], abs=SCORE_TOLERANCE), f"{label}: score"
            assert np.abs(np.array(face["keypoints"]) - reference["keypoints"]).max() <= KEYPOINT_TOLERANCE, \
                f"{label}: keypoints"


def compare_landmarks(ours: List[Dict[str, Any]], goldens: List[Dict[str, Any]]) -> None:
    errors: List[float] = []
    for result, golden in zip(ours, goldens, strict=True):
        label = golden["image"]
        assert len(result["faces"]) == len(golden["faces"]), f"{label}: faces"
        width, height = golden["width"], golden["height"]
        scale = np.array([width, height, width])
        for face, reference in zip(result["faces"], golden["faces"]):
            points, expected = np.array(face["points"]) * scale, np.array(reference["points"]) * scale
            assert points.shape == (478, 3), f"{label}: points"
            inter_ocular = float(np.hypot(*(expected[33, :2] - expected[263, :2])))
            errors += list(np.linalg.norm(points - expected, axis=1) / inter_ocular)
            for key, tolerance in (("blendshapes", BLENDSHAPE_TOLERANCE), ("matrix", None)):
                if reference[key] is None:
                    assert face[key] is None, f"{label}: {key} printed, but not by MediaPipe"
                    continue
                difference = np.abs(np.array(face[key]) - reference[key]).max()
                limit = tolerance if tolerance is not None else MATRIX_TOLERANCE * np.abs(reference[key]).max()
                assert difference <= limit, f"{label}: {key}"
    if errors:
        assert max(errors) <= POINT_MAX, f"largest point error {max(errors) * 100:.3f} % of the inter-ocular distance"
        assert float(np.median(errors)) <= POINT_MEDIAN, "median point error"


@pytest.mark.parametrize("name", sorted(documented.RUNS))
def test_a_documented_program_prints_mediapipes_results(worker, tmp_path, name):
    results = run_switched(name, worker.socket_path, tmp_path)

    goldens = GOLDENS["programs"][name]
    assert len(results) == len(goldens)
    if documented.RUNS[name].model == "detector":
        compare_detections(results, goldens)
    else:
        compare_landmarks(results, goldens)


def test_only_import_lines_are_switched():
    source = "import mediapipe as mp\nfrom mediapipe.tasks import python\nx = 'mediapipe'\n"
    assert switched(source) == "import faceworker as mp\nfrom faceworker.tasks import python\nx = 'mediapipe'\n"
