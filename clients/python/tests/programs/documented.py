"""The documented programs' runs, and a reader for the results they print.

Each program prints ``'<task> result: {}'.format(result)``: the result's
repr. :func:`read` turns that text back into numbers, whichever client
printed it (MediaPipe's results and FaceWorker's print alike, FaceWorker's
with more fields), so the tests compare what a user of either would see.
Both the golden-file script (tools/goldens/make_program_goldens.py) and the tests
run the programs with the arguments :data:`RUNS` gives.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Sequence

HERE = Path(__file__).resolve().parent
DETECTOR_PREFIX = "face detector result: "
LANDMARKER_PREFIX = "face landmarker result: "

_STILLS = [
    "astronaut.jpg", "astronaut_flipped.jpg", "astronaut_rot_m30.jpg", "astronaut_rot_m15.jpg",
    "astronaut_rot_p15.jpg", "astronaut_rot_p30.jpg", "camera.jpg", "chelsea.jpg",
]
_VIDEO = [f"video/frame_{index:03d}.jpg" for index in range(24)]


class Run(NamedTuple):
    """One program and the fixture files it is given after the model file, in order."""

    program: str
    model: str
    prefix: str
    images: Sequence[str]


RUNS: Dict[str, Run] = {
    "face_detector_image": Run("face_detector_image.py", "detector", DETECTOR_PREFIX,
                               _STILLS + ["two_faces.jpg", "three_faces.jpg"]),
    "face_detector_video": Run("face_detector_video.py", "detector", DETECTOR_PREFIX, _VIDEO),
    "face_detector_live_stream": Run("face_detector_live_stream.py", "detector", DETECTOR_PREFIX, _VIDEO),
    "face_landmarker_image": Run("face_landmarker_image.py", "landmarker", LANDMARKER_PREFIX, _STILLS),
    "face_landmarker_video": Run("face_landmarker_video.py", "landmarker", LANDMARKER_PREFIX, _VIDEO),
    "face_landmarker_live_stream": Run("face_landmarker_live_stream.py", "landmarker", LANDMARKER_PREFIX,
                                       _VIDEO[:12]),
}


def read(printed: str, prefix: str) -> List[Dict[str, Any]]:
    """The faces of each result printed after ``prefix``, in order.

    A detector face is {"box": [x, y, width, height] in pixels, "score",
    "keypoints": [[x, y], ...] normalized}; a landmarker face is {"points":
    [[x, y, z], ...], "blendshapes": [scores] or None, "matrix": 4x4 or None}.
    """
    results = []
    for chunk in printed.split(prefix)[1:]:
        result = _value(ast.parse(chunk.strip(), mode="eval").body)
        results.append({"faces": _detector_faces(result) if prefix == DETECTOR_PREFIX else _landmarker_faces(result)})
    return results


def _value(node: ast.AST) -> Any:
    """A repr's value: a call with keywords becomes a dict of them, an array(...) its list."""
    if isinstance(node, ast.Call):
        if node.args:
            return _value(node.args[0])
        return {keyword.arg: _value(keyword.value) for keyword in node.keywords}
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_value(item) for item in node.elts]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_value(node.operand)
    if isinstance(node, ast.Constant):
        return node.value
    return ast.unparse(node)


def _detector_faces(result: Dict[str, Any]) -> List[Dict[str, Any]]:
    faces = []
    for detection in result["detections"]:
        box = detection["bounding_box"]
        faces.append({
            "box": [box["origin_x"], box["origin_y"], box["width"], box["height"]],
            "score": detection["categories"][0]["score"],
            "keypoints": [[point["x"], point["y"]] for point in detection["keypoints"]],
        })
    return faces


def _landmarker_faces(result: Dict[str, Any]) -> List[Dict[str, Any]]:
    blendshapes = result.get("face_blendshapes") or []
    matrices = result.get("facial_transformation_matrixes") or []
    faces = []
    for index, points in enumerate(result["face_landmarks"]):
        faces.append({
            "points": [[point["x"], point["y"], point["z"]] for point in points],
            "blendshapes": [category["score"] for category in blendshapes[index]] if blendshapes else None,
            "matrix": matrices[index] if matrices else None,
        })
    return faces
