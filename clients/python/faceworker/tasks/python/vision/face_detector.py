"""``vision.face_detector``."""

from ....vision import FaceDetector, FaceDetectorOptions, FaceDetectorResult

__all__ = ["FaceDetector", "FaceDetectorOptions", "FaceDetectorResult"]
