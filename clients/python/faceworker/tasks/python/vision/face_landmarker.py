"""``vision.face_landmarker``."""

from ....vision import FaceLandmarker, FaceLandmarkerOptions, FaceLandmarkerResult, FaceLandmarksConnections

__all__ = ["FaceLandmarker", "FaceLandmarkerOptions", "FaceLandmarkerResult", "FaceLandmarksConnections"]
