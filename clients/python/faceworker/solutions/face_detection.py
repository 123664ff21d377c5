"""MediaPipe's legacy Face Detection Solution, run by the worker.

Code written for ``mp.solutions.face_detection`` runs with a changed import::

    import faceworker as mp
    mp_face_detection = mp.solutions.face_detection

    with mp_face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5) as face_detection:
        results = face_detection.process(rgb_image)
        for detection in results.detections or []:
            print(detection.score[0], detection.location_data.relative_bounding_box)

``model_selection`` 0 runs MediaPipe's short-range detector (faces within
about 2 m), 1 the full-range one (about 5 m): ML Kit's FAST and ACCURATE
performance modes. Every image is processed on its own, as MediaPipe does.
"""

from __future__ import annotations

import enum
from typing import Any, List, Optional

from .._proto import faceworker_pb2 as pb
from ..options import BaseOptions, FaceDetectorOptions, PerformanceMode, RunningMode
from ._base import SolutionBase
from ._formats import Detection, LocationData

__all__ = ["FaceDetection", "FaceKeyPoint", "get_key_point"]

_PERFORMANCE_MODES = {0: PerformanceMode.FAST, 1: PerformanceMode.ACCURATE}


class FaceKeyPoint(enum.IntEnum):
    """The six face detection key points, in the order of ``relative_keypoints``."""

    RIGHT_EYE = 0
    LEFT_EYE = 1
    NOSE_TIP = 2
    MOUTH_CENTER = 3
    RIGHT_EAR_TRAGION = 4
    LEFT_EAR_TRAGION = 5


def get_key_point(detection: Any, key_point_enum: FaceKeyPoint) -> Optional[Any]:
    """A detection's key point of that type (a ``LocationData.RelativeKeypoint``), or None without a detection."""
    if not detection or not detection.location_data:
        return None
    return detection.location_data.relative_keypoints[key_point_enum]


class FaceDetection(SolutionBase):
    """MediaPipe Face Detection: each face's box, score and six key points on an RGB image."""

    def __init__(self, min_detection_confidence: float = 0.5, model_selection: int = 0, *,
                 base_options: Optional[BaseOptions] = None) -> None:
        """Opens a worker session for face detection.

        Args:
            min_detection_confidence: Lowest score, in [0, 1], for a face to
                be reported.
            model_selection: 0 for the short-range model (faces within about
                2 m of the camera), 1 for the full-range model (about 5 m).
            base_options: Where the worker is (FaceWorker's addition); by
                default the socket rule of :func:`faceworker.default_socket_path`.

        Raises:
            ValueError: When ``model_selection`` is neither 0 nor 1.
            WorkerNotRunningError: When no worker listens on the socket.
            FaceWorkerError: INVALID_ARGUMENT when the worker refuses
                ``min_detection_confidence``.
        """
        if model_selection not in _PERFORMANCE_MODES:
            raise ValueError(f"model_selection must be 0 (short range) or 1 (full range), got {model_selection!r}")
        options = FaceDetectorOptions(
            base_options=base_options or BaseOptions(),
            running_mode=RunningMode.IMAGE,
            min_detection_confidence=min_detection_confidence,
            performance_mode=_PERFORMANCE_MODES[model_selection],
            # MediaPipe reports faces of every size.
            min_face_size=0.0,
        )
        super().__init__(options, "detections")

    def process(self, image: Any) -> Any:
        """Finds the faces on an RGB image.

        Args:
            image: An H x W x 3 uint8 numpy array, RGB.

        Returns:
            A NamedTuple whose ``detections`` is a list of Detection messages,
            highest score first, or None when no face was found. Each has
            ``score[0]``, ``location_data.relative_bounding_box`` (xmin, ymin,
            width, height as fractions of the image) and six
            ``location_data.relative_keypoints`` in :class:`FaceKeyPoint` order.

        Raises:
            ValueError: When the image is not three-channel uint8 data, or
                the Solution is closed.
        """
        return super().process(image)

    def _shape(self, frame: pb.FrameResult) -> Optional[List[Any]]:
        return [_detection(face, frame.image_width, frame.image_height) for face in frame.faces] or None


def _detection(face: pb.Face, width: int, height: int) -> Any:
    detection = Detection(label_id=[0], score=[face.score])
    location = detection.location_data
    location.format = LocationData.RELATIVE_BOUNDING_BOX
    box = face.bounding_box
    location.relative_bounding_box.xmin = box.x / width
    location.relative_bounding_box.ymin = box.y / height
    location.relative_bounding_box.width = box.width / width
    location.relative_bounding_box.height = box.height / height
    for keypoint in face.keypoints:
        location.relative_keypoints.add(x=keypoint.normalized.x, y=keypoint.normalized.y)
    return detection
