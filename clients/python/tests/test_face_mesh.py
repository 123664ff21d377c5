"""The face mesh reads as MediaPipe's list of NormalizedLandmark, built from the worker's packed floats."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from faceworker import _convert
from faceworker._proto import faceworker_pb2 as pb
from faceworker.vision import FaceMesh, NormalizedLandmark

POINTS = 478


def packed_frame(points: int = POINTS) -> pb.FrameResult:
    """A frame with one face whose mesh holds `points` points of distinct float32 values."""
    rng = random.Random(478)
    frame = pb.FrameResult(image_width=640, image_height=360)
    face = frame.faces.add(score=0.9)
    face.mesh_xyz.extend(rng.uniform(-1, 1) for _ in range(3 * points))
    return frame


def expected_landmarks(frame: pb.FrameResult) -> list:
    """The landmarks one at a time, as the client built them from one message per point."""
    xyz = list(frame.faces[0].mesh_xyz)
    return [NormalizedLandmark(x=xyz[i], y=xyz[i + 1], z=xyz[i + 2]) for i in range(0, len(xyz), 3)]


def mesh_of(frame: pb.FrameResult) -> FaceMesh:
    return _convert.landmarker_result(frame).face_landmarks[0]


def test_the_mesh_reads_as_a_list_of_normalized_landmarks():
    frame = packed_frame()
    expected = expected_landmarks(frame)
    mesh = mesh_of(frame)

    assert len(mesh) == POINTS
    assert all(type(point) is NormalizedLandmark for point in mesh)
    assert [(p.x, p.y, p.z) for p in mesh] == [(p.x, p.y, p.z) for p in expected]
    assert mesh == expected and expected == mesh
    assert not (mesh != expected)
    assert mesh[0] == expected[0] and mesh[-1] == expected[-1] and mesh[468] == expected[468]
    assert mesh[468:473] == expected[468:473] and isinstance(mesh[468:473], list)
    assert list(reversed(mesh)) == expected[::-1]
    assert expected[10] in mesh
    assert mesh.index(expected[10]) == 10
    assert repr(mesh) == repr(expected)
    assert mesh[np.int64(3)] == expected[3]


def test_the_values_are_the_float32_values_sent():
    frame = packed_frame(points=1)
    frame.faces[0].mesh_xyz[:] = [0.1, 0.2, -0.3]

    point = mesh_of(frame)[0]

    assert (point.x, point.y, point.z) == tuple(float(v) for v in np.array([0.1, 0.2, -0.3], dtype=np.float32))
    assert point.visibility is None and point.presence is None


def test_an_index_out_of_range_is_an_index_error():
    mesh = mesh_of(packed_frame())

    with pytest.raises(IndexError, match="478"):
        mesh[POINTS]
    with pytest.raises(IndexError):
        mesh[-POINTS - 1]
    with pytest.raises(TypeError):
        mesh["nose"]  # type: ignore[index]


def test_a_landmark_is_built_once_so_changes_to_it_stay():
    mesh = mesh_of(packed_frame())

    picked = mesh[7]
    picked.x = 2.0
    assert mesh[7] is picked
    assert mesh[-(POINTS - 7)] is picked
    # The first iteration builds the others around the ones already handed out.
    assert list(mesh)[7] is picked and mesh[7].x == 2.0
    mesh[8].y = 3.0
    assert [point.y for point in mesh][8] == 3.0


def test_meshes_compare_by_their_points():
    frame = packed_frame()
    other = packed_frame()
    other.faces[0].mesh_xyz[5] = 0.5

    assert mesh_of(frame) == mesh_of(frame)
    assert mesh_of(frame) != mesh_of(other)
    assert mesh_of(frame) != mesh_of(frame)[:-1]
    assert mesh_of(frame) != tuple(mesh_of(frame))
    with pytest.raises(TypeError):
        hash(mesh_of(frame))


def test_no_mesh_is_an_empty_list():
    frame = pb.FrameResult()
    frame.faces.add(score=0.9)

    result = _convert.landmarker_result(frame)

    assert result.face_landmarks == [[]]
    assert result.detections[0].face_landmarks == []
    assert not result.detections[0].face_landmarks
    assert list(result.detections[0].face_landmarks) == []
    assert result.detections[0].face_landmarks.numpy_view().shape == (0, 3)


def test_a_trailing_partial_point_is_not_a_point():
    frame = packed_frame(points=2)
    frame.faces[0].mesh_xyz.append(0.25)

    mesh = mesh_of(frame)

    assert len(mesh) == 2
    assert len(list(mesh)) == 2
    assert mesh.numpy_view().shape == (2, 3)


def test_numpy_view_holds_every_point_without_copies_to_change():
    frame = packed_frame()
    mesh = mesh_of(frame)

    view = mesh.numpy_view()

    assert view.shape == (POINTS, 3) and view.dtype == np.float32
    np.testing.assert_array_equal(view, np.array(frame.faces[0].mesh_xyz, dtype=np.float32).reshape(-1, 3))
    assert not view.flags.writeable
    with pytest.raises(ValueError):
        view[0, 0] = 1.0
    assert [p.x for p in mesh] == view[:, 0].tolist()


def test_a_mesh_survives_pickling_with_its_changes():
    mesh = mesh_of(packed_frame())
    mesh[3].z = 9.0

    copy = pickle.loads(pickle.dumps(mesh))

    assert copy == mesh
    assert copy[3].z == 9.0
    np.testing.assert_array_equal(copy.numpy_view(), mesh.numpy_view())


def test_a_mesh_is_made_from_any_packed_floats():
    assert FaceMesh([0.5, 0.25, 0.0, 1.0, 0.75, -0.5]) == [
        NormalizedLandmark(0.5, 0.25, 0.0),
        NormalizedLandmark(1.0, 0.75, -0.5),
    ]
    assert FaceMesh(np.zeros((4, 3))) == [NormalizedLandmark(0.0, 0.0, 0.0)] * 4
    # Without an array to start from, numpy_view makes one.
    np.testing.assert_array_equal(FaceMesh([0.5, 0.25, 0.0]).numpy_view(), [[0.5, 0.25, 0.0]])
