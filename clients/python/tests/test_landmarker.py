"""FaceLandmarker: MediaPipe's 478-point mesh and matrix, and ML Kit's outputs beside them."""

from __future__ import annotations

import pytest

import faceworker as mp
from faceworker import vision
from faceworker.vision import ContourType, LandmarkType

from conftest import fixture_path

# ML Kit's documented number of points per contour.
CONTOUR_POINTS = {
    ContourType.FACE: 36,
    ContourType.LEFT_EYEBROW_TOP: 5,
    ContourType.LEFT_EYEBROW_BOTTOM: 5,
    ContourType.RIGHT_EYEBROW_TOP: 5,
    ContourType.RIGHT_EYEBROW_BOTTOM: 5,
    ContourType.LEFT_EYE: 16,
    ContourType.RIGHT_EYE: 16,
    ContourType.UPPER_LIP_TOP: 11,
    ContourType.UPPER_LIP_BOTTOM: 9,
    ContourType.LOWER_LIP_TOP: 9,
    ContourType.LOWER_LIP_BOTTOM: 9,
    ContourType.NOSE_BRIDGE: 2,
    ContourType.NOSE_BOTTOM: 3,
    ContourType.LEFT_CHEEK: 1,
    ContourType.RIGHT_CHEEK: 1,
}


def landmark(base_options, image_name, **options):
    with vision.FaceLandmarker.create_from_options(
        vision.FaceLandmarkerOptions(base_options=base_options, **options)
    ) as landmarker:
        return landmarker.detect(mp.Image.create_from_file(fixture_path(image_name)))


def test_478_mesh_points_inside_the_face(base_options):
    result = landmark(base_options, "astronaut.jpg")

    assert len(result.face_landmarks) == 1
    mesh = result.face_landmarks[0]
    assert len(mesh) == 478
    box = result.detections[0].bounding_box
    inside = [
        point for point in mesh
        if box.origin_x - 10 <= point.x * 512 <= box.origin_x + box.width + 10
        and box.origin_y - 10 <= point.y * 512 <= box.origin_y + box.height + 10
    ]
    assert len(inside) > 0.9 * len(mesh)
    assert result.detections[0].face_landmarks == mesh
    view = mesh.numpy_view()
    assert view.shape == (478, 3)
    assert view.tolist() == [[point.x, point.y, point.z] for point in mesh]
    assert result.face_blendshapes == []
    # Without the option there is no matrix, as in MediaPipe.
    assert result.facial_transformation_matrixes == []
    assert result.timings.landmarks_us > 0


def test_no_face_gives_empty_lists(base_options):
    result = landmark(base_options, "chelsea.jpg")

    assert result.face_landmarks == []
    assert result.detections == []


def test_num_faces_is_respected(base_options):
    assert len(landmark(base_options, "three_faces.jpg").face_landmarks) == 1
    assert len(landmark(base_options, "three_faces.jpg", num_faces=3).face_landmarks) == 3


def test_facial_transformation_matrix_when_asked(base_options):
    result = landmark(base_options, "astronaut.jpg", output_facial_transformation_matrixes=True)

    assert len(result.facial_transformation_matrixes) == 1
    matrix = result.facial_transformation_matrixes[0]
    assert matrix.shape == (4, 4)
    assert list(matrix[3]) == pytest.approx([0, 0, 0, 1], abs=1e-4)
    # The canonical face (centimetres) sits in front of the camera: negative z.
    assert matrix[2, 3] < 0


def test_ml_kit_contours_landmarks_and_probabilities(base_options):
    result = landmark(
        base_options,
        "astronaut.jpg",
        landmark_mode=vision.LandmarkMode.ALL,
        contour_mode=vision.ContourMode.ALL,
        classification_mode=vision.ClassificationMode.ALL,
    )

    face = result.detections[0]
    assert {contour.type: len(contour.points) for contour in face.contours} == CONTOUR_POINTS
    assert {item.type for item in face.landmarks} == set(LandmarkType)
    box = face.bounding_box
    nose = face.landmark(LandmarkType.NOSE_BASE).position
    assert box.origin_x <= nose.x <= box.origin_x + box.width
    assert box.origin_y <= nose.y <= box.origin_y + box.height
    # The person's left eye is on the image's right.
    assert face.landmark(LandmarkType.LEFT_EYE).position.x > face.landmark(LandmarkType.RIGHT_EYE).position.x
    assert len(face.contour(ContourType.FACE).points) == 36
    # The astronaut smiles with both eyes open.
    assert face.smiling_probability > 0.5
    assert face.left_eye_open_probability > 0.5
    assert face.right_eye_open_probability > 0.5
    for angle in (face.head_euler_angle_x, face.head_euler_angle_y, face.head_euler_angle_z):
        assert -45 < angle < 45
    assert 0.5 < face.presence_score <= 1


def test_ml_kit_outputs_are_absent_unless_asked(base_options):
    face = landmark(base_options, "astronaut.jpg").detections[0]

    assert face.contours == []
    assert face.landmarks == []
    assert face.smiling_probability is None
    assert face.left_eye_open_probability is None
    assert face.contour(ContourType.FACE) is None


def test_detector_with_ml_kit_modes_reports_them_without_the_mesh(base_options):
    options = vision.FaceDetectorOptions(
        base_options=base_options,
        contour_mode=vision.ContourMode.ALL,
        classification_mode=vision.ClassificationMode.ALL,
    )
    with vision.FaceDetector.create_from_options(options) as detector:
        face = detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg"))).detections[0]

    assert len(face.contours) == 15
    assert face.smiling_probability is not None
    assert face.face_landmarks == []


def test_landmarker_tracks_faces_through_video(base_options):
    options = vision.FaceLandmarkerOptions(
        base_options=base_options, running_mode=vision.RunningMode.VIDEO, tracking_enabled=True
    )
    frames = [mp.Image.create_from_file(fixture_path(f"video/frame_{index:03d}.jpg")) for index in range(6)]
    with vision.FaceLandmarker.create_from_options(options) as landmarker:
        results = [landmarker.detect_for_video(frame, index * 40) for index, frame in enumerate(frames)]

    assert all(len(result.face_landmarks) == 1 for result in results)
    assert len({result.detections[0].tracking_id for result in results}) == 1
    # Followed by its landmarks, the face needs no detector on later frames.
    assert results[0].detector_ran
    assert not all(result.detector_ran for result in results[1:])
