"""``containers.detections``: a face detection, and the detector's result (MediaPipe's DetectionResult)."""

from .....results import Detection
from .....results import FaceDetectorResult as DetectionResult

__all__ = ["Detection", "DetectionResult"]
