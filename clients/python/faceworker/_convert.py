"""Turns the worker's protobuf results into the dataclasses of ``results``."""

from __future__ import annotations

from dataclasses import fields
from itertools import repeat
from operator import attrgetter
from typing import Any, Dict, List, Optional, Sequence

from . import results
from ._numpy import numpy
from ._proto import faceworker_pb2 as pb

_KEYPOINT_PREFIX = "KEYPOINT_TYPE_"
# Built once: a result is converted per frame, and these lookups were a fifth of its cost.
_KEYPOINT_LABELS = {value: name[len(_KEYPOINT_PREFIX):] for name, value in pb.KeypointType.items()}
# The message and the dataclass name the same fields; one getter reads them all in the dataclass's order.
_timings = attrgetter(*(item.name for item in fields(results.StageTimings)))
# Types added to the API after this client are skipped, as the .proto allows.
_LANDMARK_TYPES = frozenset(item.value for item in results.LandmarkType)
_CONTOUR_TYPES = frozenset(item.value for item in results.ContourType)


def detector_result(frame: pb.FrameResult) -> results.FaceDetectorResult:
    """MediaPipe's FaceDetectorResult for one frame, with FaceWorker's extras."""
    return results.FaceDetectorResult(detections=[_detection(face) for face in frame.faces], **_frame_facts(frame))


def landmarker_result(frame: pb.FrameResult, blendshape_names: Sequence[str] = ()) -> results.FaceLandmarkerResult:
    """MediaPipe's FaceLandmarkerResult for one frame, with FaceWorker's extras.

    ``blendshape_names`` are the session's names of the blendshape scores
    (empty without ``output_face_blendshapes``).
    """
    # Only the result's shape is made now: every point, score, matrix and detection when it is
    # first read. Each detection shares its face's mesh and matrix with the lists here.
    faces = frame.faces
    meshes = [results.FaceMesh.of_packed(face.mesh_xyz) for face in faces]
    matrices = results.LazyList(_matrices, faces)
    return results.FaceLandmarkerResult(
        face_landmarks=meshes,
        face_blendshapes=[results.LazyList(_blendshapes, face.blendshapes, blendshape_names) for face in faces if face.blendshapes],
        facial_transformation_matrixes=results.LazyList(_present, matrices),
        detections=results.LazyList(_detections, faces, meshes, matrices),
        **_frame_facts(frame),
    )


def _detections(faces: Sequence[pb.Face], meshes: List[results.FaceMesh], matrices: Sequence[Any]) -> List[results.Detection]:
    return [_detection(face, mesh, matrix) for face, mesh, matrix in zip(faces, meshes, matrices)]


def _matrices(faces: Sequence[pb.Face]) -> List[Any]:
    """Each face's matrix, None for a face sent without one."""
    return [_matrix(face.transformation_matrix) for face in faces]


def _present(matrices: Sequence[Any]) -> List[Any]:
    return [matrix for matrix in matrices if matrix is not None]


def _frame_facts(frame: pb.FrameResult) -> Dict[str, Any]:
    return {
        "timestamp_ms": frame.timestamp_ms,
        "image_width": frame.image_width,
        "image_height": frame.image_height,
        "detector_ran": frame.detector_ran,
        "timings": results.StageTimings(*_timings(frame.timings)),
        "warnings": list(frame.warnings),
    }


def _detection(face: pb.Face, mesh: Optional[results.FaceMesh] = None, matrix: Any = None) -> results.Detection:
    """The face's Detection; ``mesh`` and ``matrix`` are its mesh and matrix when already made."""
    box = face.bounding_box
    return results.Detection(
        bounding_box=results.BoundingBox(
            origin_x=round(box.x), origin_y=round(box.y), width=round(box.width), height=round(box.height)
        ),
        categories=[results.Category(index=0, score=face.score)],
        keypoints=[
            results.NormalizedKeypoint(x=point.normalized.x, y=point.normalized.y, label=_keypoint_label(point.type))
            for point in face.keypoints
        ],
        tracking_id=_optional(face, "tracking_id"),
        landmarks=[
            results.FaceLandmark(results.LandmarkType(item.type), results.Point(item.position.x, item.position.y))
            for item in face.landmarks
            if item.type in _LANDMARK_TYPES
        ],
        contours=[
            results.FaceContour(results.ContourType(item.type), _points(item.points_xy))
            for item in face.contours
            if item.type in _CONTOUR_TYPES
        ],
        head_euler_angle_x=_optional(face, "head_euler_angle_x"),
        head_euler_angle_y=_optional(face, "head_euler_angle_y"),
        head_euler_angle_z=_optional(face, "head_euler_angle_z"),
        smiling_probability=_optional(face, "smiling_probability"),
        left_eye_open_probability=_optional(face, "left_eye_open_probability"),
        right_eye_open_probability=_optional(face, "right_eye_open_probability"),
        presence_score=_optional(face, "presence_score"),
        face_landmarks=mesh if mesh is not None else results.FaceMesh.of_packed(face.mesh_xyz),
        facial_transformation_matrix=matrix if mesh is not None else _matrix(face.transformation_matrix),
    )


def _blendshapes(scores: Sequence[float], names: Sequence[str]) -> List[results.Category]:
    # As MediaPipe Tasks reports them: every score in the model's order, the
    # index its position, no display name. Positional, in Category's field
    # order: keywords cost half again per category, 52 per face.
    count = min(len(scores), len(names))
    return list(map(results.Category, range(count), scores, repeat("", count), names))


def _points(packed_xy: Any) -> List[results.Point]:
    xy = list(packed_xy)
    return list(map(results.Point, xy[0::2], xy[1::2]))


def _keypoint_label(keypoint_type: int) -> Optional[str]:
    # A type added to the API after this client keeps its point, without a label.
    return _KEYPOINT_LABELS.get(keypoint_type)


def _optional(face: pb.Face, name: str) -> Any:
    return getattr(face, name) if face.HasField(name) else None


def _matrix(elements: List[float]) -> Any:
    if len(elements) != 16:
        return None
    if numpy is not None:
        return numpy.array(elements, dtype=numpy.float32).reshape(4, 4)
    return [list(elements[row * 4 : row * 4 + 4]) for row in range(4)]
