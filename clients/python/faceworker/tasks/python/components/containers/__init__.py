"""``mediapipe.tasks.python.components.containers``: the face tasks' result containers, by MediaPipe's names."""

from . import bounding_box, category, detections, keypoint, landmark
from .bounding_box import BoundingBox
from .category import Category
from .detections import Detection, DetectionResult
from .landmark import NormalizedLandmark

__all__ = [
    "BoundingBox",
    "Category",
    "Detection",
    "DetectionResult",
    "NormalizedLandmark",
    "bounding_box",
    "category",
    "detections",
    "keypoint",
    "landmark",
]
