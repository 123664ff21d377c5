"""MediaPipe's module paths under ``faceworker``: every name MediaPipe's programs import is there,
and is the very object ``faceworker.vision`` gives; the drawing helpers draw MediaPipe's lines."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import numpy as np
import pytest

import faceworker
import faceworker as mp
from faceworker import vision as faceworker_vision

from conftest import fixture_path
from test_documented_programs import switched

# (module path, name) pairs MediaPipe's face programs import, and the object each must be.
SAME_OBJECTS = [
    ("faceworker.tasks", "BaseOptions", faceworker.BaseOptions),
    ("faceworker.tasks.python", "BaseOptions", faceworker.BaseOptions),
    ("faceworker.tasks.python.core.base_options", "BaseOptions", faceworker.BaseOptions),
    *[
        (module, name, getattr(faceworker_vision, name))
        for module in ("faceworker.tasks.vision", "faceworker.tasks.python.vision")
        for name in ("FaceDetector", "FaceDetectorOptions", "FaceDetectorResult", "FaceLandmarker",
                     "FaceLandmarkerOptions", "FaceLandmarkerResult", "FaceLandmarksConnections",
                     "ImageProcessingOptions", "RunningMode")
    ],
    ("faceworker.tasks.python.vision.face_detector", "FaceDetectorResult", faceworker_vision.FaceDetectorResult),
    ("faceworker.tasks.python.vision.face_landmarker", "FaceLandmarksConnections",
     faceworker_vision.FaceLandmarksConnections),
    ("faceworker.tasks.python.vision.face_landmarker", "Blendshapes", faceworker_vision.Blendshapes),
    ("faceworker.tasks.python.components.containers", "Category", faceworker_vision.Category),
    ("faceworker.tasks.python.components.containers", "NormalizedLandmark", faceworker_vision.NormalizedLandmark),
    ("faceworker.tasks.python.components.containers", "Detection", faceworker_vision.Detection),
    ("faceworker.tasks.python.components.containers", "BoundingBox", faceworker_vision.BoundingBox),
    ("faceworker.tasks.python.components.containers", "DetectionResult", faceworker_vision.FaceDetectorResult),
    ("faceworker.tasks.python.components.containers.keypoint", "NormalizedKeypoint",
     faceworker_vision.NormalizedKeypoint),
    ("faceworker.tasks.python.components.containers.landmark", "NormalizedLandmark",
     faceworker_vision.NormalizedLandmark),
    ("faceworker.tasks.python.components.containers.category", "Category", faceworker_vision.Category),
    ("faceworker.tasks.python.components.containers.detections", "Detection", faceworker_vision.Detection),
    ("faceworker.tasks.python.components.containers.bounding_box", "BoundingBox", faceworker_vision.BoundingBox),
]


@pytest.mark.parametrize("module, name, expected", SAME_OBJECTS, ids=[f"{m}.{n}" for m, n, _ in SAME_OBJECTS])
def test_mediapipes_import_paths_give_faceworkers_objects(module, name, expected):
    assert getattr(importlib.import_module(module), name) is expected


def test_the_attribute_paths_of_import_faceworker_as_mp():
    assert mp.tasks.BaseOptions is faceworker.BaseOptions
    assert mp.tasks.vision.FaceLandmarker is faceworker_vision.FaceLandmarker
    assert mp.tasks.vision.RunningMode.LIVE_STREAM is faceworker_vision.RunningMode.LIVE_STREAM
    assert mp.tasks.python.vision is mp.tasks.vision
    assert mp.tasks.vision.drawing_utils is importlib.import_module("faceworker.tasks.python.vision.drawing_utils")
    assert mp.tasks.vision.drawing_styles is importlib.import_module("faceworker.tasks.python.vision.drawing_styles")
    assert mp.solutions.face_mesh is importlib.import_module("faceworker.solutions.face_mesh")
    assert mp.Image is faceworker.Image and mp.ImageFormat.SRGB is faceworker.ImageFormat.SRGB


def test_the_guides_import_lines_work_with_faceworker():
    namespace: dict = {}
    exec(
        "import faceworker as mp\n"
        "from faceworker.tasks import python\n"
        "from faceworker.tasks.python import vision\n"
        "from faceworker.tasks.python.components import containers\n"
        "from faceworker.tasks.python.vision import drawing_utils, drawing_styles\n"
        "base_options = python.BaseOptions(model_asset_path='face_landmarker.task')\n"
        "options = vision.FaceLandmarkerOptions(base_options=base_options, output_face_blendshapes=True)\n",
        namespace,
    )
    assert isinstance(namespace["options"], faceworker_vision.FaceLandmarkerOptions)
    assert namespace["options"].base_options.model_asset_path == "face_landmarker.task"


def test_face_landmarks_connections_are_mediapipes_lists_of_the_legacy_pairs():
    connections = faceworker_vision.FaceLandmarksConnections
    legacy = mp.solutions.face_mesh_connections
    for name, legacy_set in (("LIPS", legacy.FACEMESH_LIPS), ("LEFT_EYE", legacy.FACEMESH_LEFT_EYE),
                             ("LEFT_EYEBROW", legacy.FACEMESH_LEFT_EYEBROW), ("LEFT_IRIS", legacy.FACEMESH_LEFT_IRIS),
                             ("RIGHT_EYE", legacy.FACEMESH_RIGHT_EYE),
                             ("RIGHT_EYEBROW", legacy.FACEMESH_RIGHT_EYEBROW),
                             ("RIGHT_IRIS", legacy.FACEMESH_RIGHT_IRIS), ("FACE_OVAL", legacy.FACEMESH_FACE_OVAL),
                             ("NOSE", legacy.FACEMESH_NOSE), ("CONTOURS", legacy.FACEMESH_CONTOURS),
                             ("TESSELATION", legacy.FACEMESH_TESSELATION)):
        listed = getattr(connections, f"FACE_LANDMARKS_{name}")
        assert all(isinstance(connection, connections.Connection) for connection in listed)
        assert {(connection.start, connection.end) for connection in listed} == legacy_set, name
    assert len(connections.FACE_LANDMARKS_TESSELATION) == 2556
    # MediaPipe's order: the lips start at the left corner of the outer lower lip.
    assert connections.FACE_LANDMARKS_LIPS[0] == connections.Connection(61, 146)


@pytest.fixture(scope="module")
def landmarked(worker):
    options = faceworker_vision.FaceLandmarkerOptions(base_options=worker.base_options, output_face_blendshapes=True)
    with faceworker_vision.FaceLandmarker.create_from_options(options) as landmarker:
        image = mp.Image.create_from_file(fixture_path("astronaut.jpg"))
        return image.numpy_view(), landmarker.detect(image)


def test_drawing_utils_draws_the_tesselation_and_contours_on_the_face(landmarked):
    from faceworker.tasks.python.vision import drawing_styles, drawing_utils

    pixels, result = landmarked
    height, width = pixels.shape[:2]
    face = result.face_landmarks[0]
    canvas = np.zeros_like(pixels)
    drawing_utils.draw_landmarks(
        image=canvas, landmark_list=face,
        connections=faceworker_vision.FaceLandmarksConnections.FACE_LANDMARKS_TESSELATION,
        landmark_drawing_spec=None, connection_drawing_spec=drawing_styles.get_default_face_mesh_tesselation_style())
    drawing_utils.draw_landmarks(
        image=canvas, landmark_list=face,
        connections=faceworker_vision.FaceLandmarksConnections.FACE_LANDMARKS_CONTOURS,
        landmark_drawing_spec=None, connection_drawing_spec=drawing_styles.get_default_face_mesh_contours_style())

    drawn = np.argwhere(canvas.any(axis=2))
    xs, ys = [point.x * width for point in face], [point.y * height for point in face]
    assert drawn[:, 1].min() >= min(xs) - 2 and drawn[:, 1].max() <= max(xs) + 2
    assert drawn[:, 0].min() >= min(ys) - 2 and drawn[:, 0].max() <= max(ys) + 2
    assert len(drawn) > 0.2 * (max(xs) - min(xs)) * (max(ys) - min(ys))
    colours = {tuple(colour) for colour in canvas[canvas.any(axis=2)]}
    # Grey tesselation; the contours' default style: the person's left eye green, the right red.
    assert {(128, 128, 128), (48, 255, 48), (48, 48, 255)} <= colours
    left_eye_corner = face[263]
    row, column = int(left_eye_corner.y * height), int(left_eye_corner.x * width)
    near_corner = canvas[row - 2: row + 3, column - 2: column + 3].reshape(-1, 3)
    assert (48, 255, 48) in {tuple(colour) for colour in near_corner}


def test_drawing_utils_draws_points_and_the_detection_box(landmarked):
    from faceworker.tasks.python.vision import drawing_utils

    pixels, result = landmarked
    height, width = pixels.shape[:2]
    canvas = np.zeros_like(pixels)
    drawing_utils.draw_landmarks(canvas, result.face_landmarks[0][:1])
    nose = result.face_landmarks[0][0]
    # A red circle in a white one, around the point, and nothing elsewhere.
    row, column = int(nose.y * height), int(nose.x * width)
    around = canvas[row - 5: row + 6, column - 5: column + 6]
    assert {drawing_utils.RED_COLOR, drawing_utils.WHITE_COLOR} <= {tuple(colour) for colour in around.reshape(-1, 3)}
    assert canvas.any(axis=2).sum() == around.any(axis=2).sum()

    boxed = np.zeros_like(pixels)
    detection = result.detections[0]
    drawing_utils.draw_detection(boxed, detection)
    box = detection.bounding_box
    assert tuple(boxed[box.origin_y + box.height // 2, box.origin_x]) == drawing_utils.WHITE_COLOR
    assert tuple(boxed[box.origin_y + box.height // 2, box.origin_x + box.width // 2]) == (0, 0, 0)


def test_drawing_utils_refuses_what_mediapipe_refuses(landmarked):
    from faceworker.tasks.python.vision import drawing_utils

    _, result = landmarked
    face = result.face_landmarks[0]
    with pytest.raises(ValueError, match="three channel bgr"):
        drawing_utils.draw_landmarks(np.zeros((8, 8, 4), np.uint8), face)
    with pytest.raises(ValueError, match="#478"):
        drawing_utils.draw_landmarks(np.zeros((8, 8, 3), np.uint8), face,
                                     [faceworker_vision.FaceLandmarksConnections.Connection(0, 478)])


def test_the_example_notebooks_drawing_cell_runs_switched_by_its_imports(landmarked):
    source = (Path(__file__).resolve().parent / "programs" / "face_landmarker_drawing.py").read_text()
    namespace: dict = {}
    exec(compile(switched(source), "face_landmarker_drawing.py", "exec"), namespace)
    pixels, result = landmarked
    height, width = pixels.shape[:2]

    annotated = namespace["draw_landmarks_on_image"](pixels, result)

    changed = np.argwhere((annotated != pixels).any(axis=2))
    face = result.face_landmarks[0]
    xs, ys = [point.x * width for point in face], [point.y * height for point in face]
    assert changed[:, 1].min() >= min(xs) - 2 and changed[:, 1].max() <= max(xs) + 2
    assert changed[:, 0].min() >= min(ys) - 2 and changed[:, 0].max() <= max(ys) + 2
    assert len(changed) > 0.2 * (max(xs) - min(xs)) * (max(ys) - min(ys))
    colours = {tuple(colour) for colour in annotated[(annotated != pixels).any(axis=2)]}
    # The tesselation's grey, the contours' and the irises' green and red.
    assert {(128, 128, 128), (48, 255, 48), (48, 48, 255)} <= colours


def test_blendshapes_name_the_scores_by_their_index(landmarked):
    _, result = landmarked
    categories = result.face_blendshapes[0]
    Blendshapes = faceworker_vision.Blendshapes

    assert len(Blendshapes) == len(categories) == 52
    for category in categories:
        # "_neutral" is NEUTRAL, "browDownLeft" BROW_DOWN_LEFT.
        words = re.sub(r"(?<!^)(?=[A-Z])", "_", category.category_name.lstrip("_"))
        assert Blendshapes(category.index).name == words.upper()
    smile = categories[Blendshapes.MOUTH_SMILE_LEFT]
    assert smile.category_name == "mouthSmileLeft"
