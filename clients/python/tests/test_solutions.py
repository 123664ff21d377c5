"""The legacy Solutions API (``faceworker.solutions``) against MediaPipe 0.10.14's own Solutions.

The references are the golden files MediaPipe's ``solutions.face_detection`` and
``solutions.face_mesh`` wrote on the repository's fixtures (tools/goldens/make_pipeline_goldens.py:
FaceDetection with both models on the stills and the short-range model on the videos;
tools/goldens/make_attention_goldens.py and tools/goldens/make_face_mesh_goldens.py: FaceMesh with and without
refine_landmarks on the stills and, in video mode, frame by frame on both videos). The bounds are
the pipeline's parity tests': boxes IoU at least 0.9 and scores within 0.02; refined mesh points
within 0.5 % of the inter-ocular distance (iris centre to iris centre), the median within 0.1 %;
unrefined mesh points, which have no irises, within 1 % of the face's width, the median within
0.1 %; the same number of faces on every frame.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import List, Sequence

import numpy as np
import pytest
from PIL import Image as PILImage

import faceworker as mp
from faceworker import get_stats

from conftest import FIXTURES
from worker_process import REPO

GOLDENS = REPO / "Tests" / "FaceDetectionTests" / "Goldens"
PIPELINE = json.loads((GOLDENS / "pipeline.json").read_text())
ATTENTION = json.loads((GOLDENS / "attention_mesh.json").read_text())
PLAIN = json.loads((GOLDENS / "face_mesh.json").read_text())
MIN_IOU = 0.9
SCORE_TOLERANCE = 0.02
POINT_MAX = 0.005
POINT_MEDIAN = 0.001
PLAIN_POINT_MAX = 0.01
PLAIN_POINT_MEDIAN = 0.001

mp_face_detection = mp.solutions.face_detection
mp_face_mesh = mp.solutions.face_mesh
mp_drawing = mp.solutions.drawing_utils
mp_drawing_styles = mp.solutions.drawing_styles


def rgb(name: str) -> np.ndarray:
    """A fixture decoded by Pillow to RGB, as the golden scripts decode it."""
    with PILImage.open(FIXTURES / name) as image:
        return np.asarray(image.convert("RGB"))


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over union of two (xmin, ymin, width, height) boxes."""
    width = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    height = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    return width * height / (a[2] * a[3] + b[2] * b[3] - width * height)


def box_of(detection) -> List[float]:
    box = detection.location_data.relative_bounding_box
    return [box.xmin, box.ymin, box.width, box.height]


def check_detections(detections, expected, label: str) -> None:
    assert len(detections or []) == len(expected), f"{label}: faces"
    for reference in expected:
        ours = max(detections, key=lambda detection: iou(box_of(detection), reference["box"]))
        assert iou(box_of(ours), reference["box"]) >= MIN_IOU, f"{label}: box"
        assert ours.score[0] == pytest.approx(reference["score"], abs=SCORE_TOLERANCE), f"{label}: score"


def mesh_errors(faces, golden_faces, width: int, height: int) -> List[float]:
    """Each golden point's distance from ours, over MediaPipe's inter-ocular distance (iris centre to
    iris centre) or, for the 468 points without irises, MediaPipe's face width (the points' x extent);
    faces paired by the nose tip."""
    errors: List[float] = []
    for golden in golden_faces:
        reference = np.asarray(golden["points"])
        ours = min(
            (np.array([[point.x, point.y] for point in face.landmark]) for face in faces),
            key=lambda points: float(np.hypot(*(points[1] - reference[1, :2]))),
        )
        assert len(ours) == len(reference), "points per face"
        scale = np.array([width, height])
        if len(reference) > 468:
            unit = float(np.hypot(*((reference[468, :2] - reference[473, :2]) * scale)))
        else:
            unit = float(np.ptp(reference[:, 0]) * width)
        errors += list(np.hypot(*((ours - reference[:, :2]) * scale).T) / unit)
    return errors


def check_mesh_errors(errors: List[float], label: str, largest: float = POINT_MAX, median: float = POINT_MEDIAN,
                      unit: str = "inter-ocular distance") -> None:
    assert errors, f"{label}: no face compared"
    assert max(errors) <= largest, f"{label}: largest point error {max(errors) * 100:.3f} % of the {unit}"
    assert float(np.median(errors)) <= median, f"{label}: median point error"


@pytest.mark.parametrize("model_selection, golden_key", [(0, "detection_short"), (1, "detection_full")])
def test_face_detection_finds_mediapipes_faces(base_options, model_selection, golden_key):
    with mp_face_detection.FaceDetection(model_selection=model_selection, min_detection_confidence=0.5,
                                         base_options=base_options) as face_detection:
        for name, golden in PIPELINE["images"].items():
            results = face_detection.process(rgb(name))
            check_detections(results.detections, golden[golden_key], f"{name} model {model_selection}")


def test_face_detection_gives_the_six_key_points_and_mediapipes_message_shape(base_options):
    golden = PIPELINE["images"]["astronaut.jpg"]["detection_short"][0]
    with mp_face_detection.FaceDetection(base_options=base_options) as face_detection:
        detection = face_detection.process(rgb("astronaut.jpg")).detections[0]

    assert list(detection.label_id) == [0]
    assert detection.location_data.format == detection.location_data.RELATIVE_BOUNDING_BOX
    assert len(detection.location_data.relative_keypoints) == 6
    for key_point, (x, y) in zip(mp_face_detection.FaceKeyPoint, golden["keypoints"]):
        point = mp_face_detection.get_key_point(detection, key_point)
        assert (point.x, point.y) == pytest.approx((x, y), abs=0.01), key_point.name
    # It is MediaPipe's message: it serializes and parses back unchanged.
    assert type(detection).FromString(detection.SerializeToString()) == detection


def test_no_face_gives_none_as_in_mediapipe(base_options):
    with mp_face_detection.FaceDetection(base_options=base_options) as face_detection:
        assert face_detection.process(rgb("chelsea.jpg")).detections is None
    with mp_face_mesh.FaceMesh(static_image_mode=True, base_options=base_options) as face_mesh:
        assert face_mesh.process(rgb("coffee.jpg")).multi_face_landmarks is None


def stills_errors(face_mesh, images, points: int) -> List[float]:
    """Every still's errors against its golden faces, after checking the face and point counts."""
    errors: List[float] = []
    for name, golden in images.items():
        pixels = rgb(name)
        faces = face_mesh.process(pixels).multi_face_landmarks or []
        assert len(faces) == len(golden["faces"]), f"{name}: faces"
        assert all(len(face.landmark) == points for face in faces)
        errors += mesh_errors(faces, golden["faces"], pixels.shape[1], pixels.shape[0])
    return errors


def video_errors(face_mesh, frames) -> List[float]:
    """A video's errors against its golden faces, frame by frame, after checking the face counts."""
    errors: List[float] = []
    for frame in frames:
        pixels = rgb(frame["file"])
        faces = face_mesh.process(pixels).multi_face_landmarks or []
        assert len(faces) == len(frame["faces"]), f"{frame['file']}: faces"
        errors += mesh_errors(faces, frame["faces"], pixels.shape[1], pixels.shape[0])
    return errors


def test_refined_face_mesh_matches_mediapipes_on_the_stills(base_options):
    with mp_face_mesh.FaceMesh(static_image_mode=True, max_num_faces=4, refine_landmarks=True,
                               base_options=base_options) as face_mesh:
        errors = stills_errors(face_mesh, ATTENTION["images"], 478)
    check_mesh_errors(errors, "stills")


@pytest.mark.parametrize("video", sorted(ATTENTION["videos"]))
def test_refined_face_mesh_follows_mediapipes_faces_through_a_video(base_options, video):
    golden = ATTENTION["videos"][video]
    with mp_face_mesh.FaceMesh(static_image_mode=False, max_num_faces=golden["max_num_faces"], refine_landmarks=True,
                               base_options=base_options) as face_mesh:
        errors = video_errors(face_mesh, golden["frames"])
    check_mesh_errors(errors, video)


def test_unrefined_face_mesh_matches_mediapipes_plain_mesh_on_the_stills(base_options):
    with mp_face_mesh.FaceMesh(static_image_mode=True, max_num_faces=4, base_options=base_options) as face_mesh:
        errors = stills_errors(face_mesh, PLAIN["images"], 468)
    check_mesh_errors(errors, "stills", PLAIN_POINT_MAX, PLAIN_POINT_MEDIAN, "face width")


@pytest.mark.parametrize("video", sorted(PLAIN["videos"]))
def test_unrefined_face_mesh_follows_mediapipes_faces_through_a_video(base_options, video):
    golden = PLAIN["videos"][video]
    with mp_face_mesh.FaceMesh(static_image_mode=False, max_num_faces=golden["max_num_faces"],
                               base_options=base_options) as face_mesh:
        errors = video_errors(face_mesh, golden["frames"])
    check_mesh_errors(errors, video, PLAIN_POINT_MAX, PLAIN_POINT_MEDIAN, "face width")


@pytest.mark.parametrize("video", sorted(PIPELINE["videos"]))
def test_face_detection_finds_mediapipes_faces_on_every_video_frame(base_options, video):
    with mp_face_detection.FaceDetection(model_selection=0, base_options=base_options) as face_detection:
        for frame in PIPELINE["videos"][video]:
            results = face_detection.process(rgb(frame["file"]))
            check_detections(results.detections, frame["detection_short"], frame["file"])


def test_without_refinement_a_face_has_the_plain_meshs_468_points_not_the_refined_meshs_first_468(base_options):
    pixels = rgb("two_faces.jpg")
    with mp_face_mesh.FaceMesh(static_image_mode=True, max_num_faces=2, base_options=base_options) as plain, \
            mp_face_mesh.FaceMesh(static_image_mode=True, max_num_faces=2, refine_landmarks=True,
                                  base_options=base_options) as refined:
        plain_faces = plain.process(pixels).multi_face_landmarks
        refined_faces = refined.process(pixels).multi_face_landmarks

    assert mp_face_mesh.FACEMESH_NUM_LANDMARKS == 468 and mp_face_mesh.FACEMESH_NUM_LANDMARKS_WITH_IRISES == 478
    assert [len(face.landmark) for face in plain_faces] == [468, 468]
    assert not plain_faces[0].landmark[0].HasField("visibility")
    # The worker runs the model MediaPipe runs for each: the refined mesh's first 468 points
    # stray past the plain mesh's bound from MediaPipe's plain mesh.
    golden = PLAIN["images"]["two_faces.jpg"]["faces"]
    first_468 = [SimpleNamespace(landmark=list(face.landmark)[:468]) for face in refined_faces]
    assert max(mesh_errors(plain_faces, golden, pixels.shape[1], pixels.shape[0])) <= PLAIN_POINT_MAX
    assert max(mesh_errors(first_468, golden, pixels.shape[1], pixels.shape[0])) > PLAIN_POINT_MAX


def test_max_num_faces_limits_the_faces(base_options):
    with mp_face_mesh.FaceMesh(static_image_mode=True, max_num_faces=2, base_options=base_options) as face_mesh:
        assert len(face_mesh.process(rgb("three_faces.jpg")).multi_face_landmarks) == 2


@pytest.mark.parametrize("arguments, named", [
    ({"max_num_faces": 0}, "max_num_faces"),
    ({"max_num_faces": -1}, "max_num_faces"),
])
def test_face_mesh_refuses_bad_options(base_options, arguments, named):
    with pytest.raises(ValueError, match=named):
        mp_face_mesh.FaceMesh(base_options=base_options, **arguments)


def test_face_detection_refuses_an_unknown_model(base_options):
    with pytest.raises(ValueError, match="model_selection"):
        mp_face_detection.FaceDetection(model_selection=2, base_options=base_options)


@pytest.mark.parametrize("image, message", [
    (np.zeros((64, 64, 4), np.uint8), "three channel rgb"),
    (np.zeros((64, 64), np.uint8), "three channel rgb"),
    (np.zeros((64, 64, 3), np.float32), "uint8"),
    (np.zeros((64, 64, 3), np.int16), "uint8"),
])
def test_process_refuses_what_is_not_rgb_uint8_naming_the_image(base_options, image, message):
    with mp_face_mesh.FaceMesh(static_image_mode=True, base_options=base_options) as face_mesh, \
            mp_face_detection.FaceDetection(base_options=base_options) as face_detection:
        for solution in (face_mesh, face_detection):
            with pytest.raises(ValueError, match=f"image.*{message}"):
                solution.process(image)
        # Refused before reaching the worker: the session goes on.
        assert face_mesh.process(rgb("astronaut.jpg")).multi_face_landmarks


def test_a_flipped_view_is_processed_as_its_pixels(base_options):
    # OpenCV programs often pass frame[:, :, ::-1], a view with negative strides.
    bgr = np.ascontiguousarray(rgb("astronaut.jpg")[:, :, ::-1])
    with mp_face_detection.FaceDetection(base_options=base_options) as face_detection:
        from_view = face_detection.process(bgr[:, :, ::-1]).detections
        from_copy = face_detection.process(rgb("astronaut.jpg")).detections
    assert from_view == from_copy


def test_close_ends_the_worker_session_and_refuses_later_frames(worker, base_options):
    before = get_stats(worker.socket_path).sessions
    face_mesh = mp_face_mesh.FaceMesh(base_options=base_options)
    assert get_stats(worker.socket_path).sessions == before + 1

    face_mesh.close()

    assert get_stats(worker.socket_path).sessions == before
    with pytest.raises(ValueError, match="closed"):
        face_mesh.process(rgb("astronaut.jpg"))
    face_mesh.close()


def test_the_with_block_closes_the_session(worker, base_options):
    before = get_stats(worker.socket_path).sessions
    with mp_face_detection.FaceDetection(base_options=base_options) as face_detection:
        assert get_stats(worker.socket_path).sessions == before + 1
        face_detection.process(rgb("astronaut.jpg"))
    assert get_stats(worker.socket_path).sessions == before


def test_the_worker_is_found_by_the_socket_rule(worker, monkeypatch):
    monkeypatch.setenv("FACEWORKER_SOCKET", worker.socket_path)
    with mp_face_detection.FaceDetection() as face_detection:
        assert len(face_detection.process(rgb("astronaut.jpg")).detections) == 1


def test_connection_sets_hold_mediapipes_face_mesh_lines():
    connections = mp.solutions.face_mesh_connections
    assert len(connections.FACEMESH_TESSELATION) == 2556
    assert len(connections.FACEMESH_CONTOURS) == 124
    assert connections.FACEMESH_IRISES == connections.FACEMESH_LEFT_IRIS | connections.FACEMESH_RIGHT_IRIS
    # The person's left iris rings point 473, the right one 468.
    assert {point for pair in connections.FACEMESH_LEFT_IRIS for point in pair} == {474, 475, 476, 477}
    assert {point for pair in connections.FACEMESH_RIGHT_IRIS for point in pair} == {469, 470, 471, 472}
    assert all(max(pair) < 468 for pair in connections.FACEMESH_TESSELATION)
    assert mp_face_mesh.FACEMESH_LIPS is connections.FACEMESH_LIPS


def test_drawing_the_mesh_and_the_detection_marks_the_face(base_options):
    pixels = rgb("astronaut.jpg")
    height, width = pixels.shape[:2]
    with mp_face_mesh.FaceMesh(static_image_mode=True, refine_landmarks=True, base_options=base_options) as face_mesh:
        face = face_mesh.process(pixels).multi_face_landmarks[0]
    with mp_face_detection.FaceDetection(base_options=base_options) as face_detection:
        detection = face_detection.process(pixels).detections[0]

    canvas = np.zeros_like(pixels)
    mp_drawing.draw_landmarks(
        image=canvas, landmark_list=face, connections=mp_face_mesh.FACEMESH_TESSELATION, landmark_drawing_spec=None,
        connection_drawing_spec=mp_drawing_styles.get_default_face_mesh_tesselation_style())
    mp_drawing.draw_landmarks(
        image=canvas, landmark_list=face, connections=mp_face_mesh.FACEMESH_IRISES, landmark_drawing_spec=None,
        connection_drawing_spec=mp_drawing_styles.get_default_face_mesh_iris_connections_style())

    drawn = np.argwhere(canvas.any(axis=2))
    xs = [point.x * width for point in face.landmark]
    ys = [point.y * height for point in face.landmark]
    # Every line lies on the face, and the lines cover it.
    assert drawn[:, 1].min() >= min(xs) - 2 and drawn[:, 1].max() <= max(xs) + 2
    assert drawn[:, 0].min() >= min(ys) - 2 and drawn[:, 0].max() <= max(ys) + 2
    assert len(drawn) > 0.2 * (max(xs) - min(xs)) * (max(ys) - min(ys))
    # The tesselation is grey, the person's left iris green (BGR (48, 255, 48)).
    colours = {tuple(colour) for colour in canvas[canvas.any(axis=2)]}
    assert (128, 128, 128) in colours and (48, 255, 48) in colours
    left_iris = face.landmark[473]
    assert tuple(canvas[round(left_iris.y * height) - 1: round(left_iris.y * height) + 2,
                        round(left_iris.x * width) - 6: round(left_iris.x * width) + 7].reshape(-1, 3).max(axis=0)) \
        >= (48, 255, 48)

    boxed = np.zeros_like(pixels)
    mp_drawing.draw_detection(boxed, detection)
    box = detection.location_data.relative_bounding_box
    left, top = int(box.xmin * width), int(box.ymin * height)
    right, bottom = int((box.xmin + box.width) * width), int((box.ymin + box.height) * height)
    assert tuple(boxed[(top + bottom) // 2, left]) == mp_drawing.WHITE_COLOR
    assert tuple(boxed[top, (left + right) // 2]) == mp_drawing.WHITE_COLOR
    nose = mp_face_detection.get_key_point(detection, mp_face_detection.FaceKeyPoint.NOSE_TIP)
    assert tuple(boxed[int(nose.y * height), int(nose.x * width) + 2]) == mp_drawing.RED_COLOR


def test_drawing_refuses_what_mediapipe_refuses(base_options):
    with mp_face_mesh.FaceMesh(static_image_mode=True, base_options=base_options) as face_mesh:
        face = face_mesh.process(rgb("astronaut.jpg")).multi_face_landmarks[0]
    with pytest.raises(ValueError, match="three channel bgr"):
        mp_drawing.draw_landmarks(np.zeros((8, 8), np.uint8), face)
    with pytest.raises(ValueError, match="out of range"):
        # Without refinement there are no iris points to connect.
        mp_drawing.draw_landmarks(np.zeros((8, 8, 3), np.uint8), face, mp_face_mesh.FACEMESH_IRISES)


@pytest.mark.parametrize("static_image_mode", [True, False])
def test_min_tracking_confidence_is_the_mesh_presence_threshold_as_in_mediapipe(base_options, static_image_mode):
    # MediaPipe 0.10.14 thresholds the mesh's face flag with it in both modes: a threshold of 1
    # keeps no face, one just below keeps the astronaut's.
    pixels = rgb("astronaut.jpg")
    for threshold, faces in ((0.999, 1), (1.0, 0)):
        with mp_face_mesh.FaceMesh(static_image_mode=static_image_mode, min_tracking_confidence=threshold,
                                   base_options=base_options) as face_mesh:
            assert len(face_mesh.process(pixels).multi_face_landmarks or []) == faces, threshold
