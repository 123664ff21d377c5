"""A Face Landmarker result's blendshapes and detections are built when first read, and read as lists."""

from __future__ import annotations

import copy
import pickle

import numpy as np

from faceworker import _convert
from faceworker._proto import faceworker_pb2 as pb
from faceworker.vision import Category, LazyList, NormalizedLandmark

NAMES = ("_neutral", "browDownLeft", "browDownRight")


def frame_with_faces(count: int = 2, matrix: bool = False) -> pb.FrameResult:
    """A frame whose faces carry a box, keypoints, a small mesh and three blendshapes, and a matrix
    when asked for (a numpy array, which no dataclass holding it can compare)."""
    frame = pb.FrameResult(image_width=640, image_height=360, timestamp_ms=33)
    for index in range(count):
        face = frame.faces.add(score=0.9 - index / 10, tracking_id=index + 1)
        face.bounding_box.x, face.bounding_box.y, face.bounding_box.width, face.bounding_box.height = 10, 20, 30, 40
        face.keypoints.add(type=pb.KEYPOINT_TYPE_NOSE_TIP).normalized.x = 0.5
        face.mesh_xyz.extend([0.1 * index, 0.2, 0.3, 0.4, 0.5, 0.6])
        if matrix:
            face.transformation_matrix.extend(float(element) for element in range(16))
        face.blendshapes.extend([0.25, 0.5, 0.75 - index / 10])
    return frame


def test_blendshapes_and_detections_read_as_the_lists_built_at_once():
    frame = frame_with_faces()
    result = _convert.landmarker_result(frame, NAMES)

    eager_blendshapes = [_convert._blendshapes(face.blendshapes, NAMES) for face in frame.faces]
    eager_detections = [_convert._detection(face) for face in frame.faces]
    assert result.face_blendshapes == eager_blendshapes
    assert eager_blendshapes == result.face_blendshapes
    assert result.detections == eager_detections
    assert len(result.detections) == 2 and len(result.face_blendshapes[1]) == 3
    assert result.face_blendshapes[1][2] == Category(index=2, score=frame.faces[1].blendshapes[2], display_name="",
                                                     category_name="browDownRight")
    assert result.face_blendshapes[0][-1].score == 0.75
    assert result.face_blendshapes[0][1:] == eager_blendshapes[0][1:] and isinstance(result.face_blendshapes[0][1:], list)
    assert [category.category_name for category in result.face_blendshapes[0]] == list(NAMES)
    assert list(reversed(result.detections)) == eager_detections[::-1]
    assert repr(result.detections) == repr(eager_detections)
    assert result.detections[1].tracking_id == 2


def test_each_detection_holds_its_faces_own_mesh_and_matrix():
    result = _convert.landmarker_result(frame_with_faces(matrix=True), NAMES)

    assert len(result.facial_transformation_matrixes) == 2
    for index, detection in enumerate(result.detections):
        assert detection.face_landmarks is result.face_landmarks[index]
        assert detection.facial_transformation_matrix is result.facial_transformation_matrixes[index]


def test_matrices_read_as_the_float32_arrays_sent_for_the_faces_that_have_one():
    frame = frame_with_faces(count=3, matrix=True)
    del frame.faces[1].transformation_matrix[:]
    result = _convert.landmarker_result(frame, NAMES)

    matrices = result.facial_transformation_matrixes
    assert len(matrices) == 2
    for matrix in matrices:
        assert matrix.shape == (4, 4) and matrix.dtype == np.float32
        np.testing.assert_array_equal(matrix, np.arange(16, dtype=np.float32).reshape(4, 4))
    assert result.detections[1].facial_transformation_matrix is None
    assert result.detections[2].facial_transformation_matrix is matrices[1]


def test_an_unread_result_pickles_and_copies_with_its_points():
    frame = frame_with_faces(matrix=True)
    for twin in (pickle.loads(pickle.dumps(_convert.landmarker_result(frame, NAMES))),
                 copy.deepcopy(_convert.landmarker_result(frame, NAMES))):
        assert twin.face_landmarks[1] == [NormalizedLandmark(*frame.faces[1].mesh_xyz[:3]),
                                          NormalizedLandmark(*frame.faces[1].mesh_xyz[3:])]
        np.testing.assert_array_equal(twin.face_landmarks[0].numpy_view(),
                                      np.array(frame.faces[0].mesh_xyz, dtype=np.float32).reshape(-1, 3))
        assert len(twin.facial_transformation_matrixes) == 2


def test_items_are_built_once_so_changes_to_them_stay():
    builds = []

    def build(*items):
        builds.append(items)
        return list(items)

    items = LazyList(build, "a", "b")
    assert builds == []
    assert len(items) == 2 and items[0] == "a" and list(items) == ["a", "b"]
    assert builds == [("a", "b")]

    result = _convert.landmarker_result(frame_with_faces(), NAMES)
    result.detections[0].tracking_id = 7
    result.face_blendshapes[0][0].score = 1.0
    assert result.detections[0].tracking_id == 7
    assert result.face_blendshapes[0][0].score == 1.0


def test_a_result_survives_pickling_and_copying_with_its_changes():
    result = _convert.landmarker_result(frame_with_faces(), NAMES)
    result.detections[1].tracking_id = 9

    for twin in (pickle.loads(pickle.dumps(result)), copy.deepcopy(result)):
        assert twin == result
        assert twin.detections[1].tracking_id == 9
        assert isinstance(twin.detections, list) and isinstance(twin.face_blendshapes[0], list)


def test_a_lazy_list_is_not_equal_to_other_sequences_or_hashable():
    items = LazyList(list, (1, 2))
    assert items == [1, 2] and items != [2, 1] and items != (1, 2)
    assert items == LazyList(list, (1, 2))
    try:
        hash(items)
    except TypeError:
        pass
    else:
        raise AssertionError("a LazyList hashed, though a list does not")
