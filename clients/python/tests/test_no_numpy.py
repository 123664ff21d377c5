"""The client needs only protobuf: without numpy, JPEG and raw-byte images still work."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import fixture_path

SCRIPT = """
import json, sys
sys.modules["numpy"] = None  # as if numpy were not installed
import faceworker as mp
from faceworker import BaseOptions, vision

options = vision.FaceLandmarkerOptions(
    base_options=BaseOptions(socket_path=sys.argv[1]), output_facial_transformation_matrixes=True
)
with vision.FaceLandmarker.create_from_options(options) as landmarker:
    result = landmarker.detect(mp.Image.create_from_file(sys.argv[2]))
    gray = landmarker.detect(mp.Image(mp.ImageFormat.GRAY8, bytes(64 * 48), width=64, height=48))
try:
    mp.Image.create_from_file(sys.argv[2]).numpy_view()
    numpy_view = "worked"
except ImportError as error:
    numpy_view = str(error)
mesh = result.face_landmarks[0]
try:
    mesh.numpy_view()
    mesh_numpy_view = "worked"
except ImportError as error:
    mesh_numpy_view = str(error)
print(json.dumps({
    "faces": len(result.face_landmarks),
    "points": len(mesh),
    "iris": [mesh[468].x, mesh[468].y, mesh[468].z],
    "iterated": [[p.x, p.y, p.z] for p in mesh][468],
    "mesh_numpy_view": mesh_numpy_view,
    "matrix": result.facial_transformation_matrixes[0],
    "gray_faces": len(gray.detections),
    "numpy_view": numpy_view,
}))
"""


def test_the_client_works_without_numpy(worker):
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, worker.socket_path, fixture_path("astronaut.jpg")],
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["faces"] == 1
    assert answer["points"] == 478
    # Indexing before any iteration and iterating read the same point.
    assert answer["iris"] == answer["iterated"]
    assert 0 < answer["iris"][0] < 1 and 0 < answer["iris"][1] < 1
    assert "pip install 'faceworker[numpy]'" in answer["mesh_numpy_view"]
    # Without numpy the matrix is four rows of four floats.
    assert [len(row) for row in answer["matrix"]] == [4, 4, 4, 4]
    assert answer["gray_faces"] == 0
    assert "pip install 'faceworker[numpy]'" in answer["numpy_view"]
