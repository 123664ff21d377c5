"""``vision.face_landmarker``."""

from ....vision import (
    Blendshapes,
    FaceLandmarker,
    FaceLandmarkerOptions,
    FaceLandmarkerResult,
    FaceLandmarksConnections,
)

__all__ = ["Blendshapes", "FaceLandmarker", "FaceLandmarkerOptions", "FaceLandmarkerResult", "FaceLandmarksConnections"]
