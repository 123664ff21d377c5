"""``mediapipe.framework.formats.landmark_pb2``, for faces: NormalizedLandmark and NormalizedLandmarkList."""

from ...solutions._formats import NormalizedLandmark, NormalizedLandmarkList

__all__ = ["NormalizedLandmark", "NormalizedLandmarkList"]
