"""``mediapipe.framework.formats.detection_pb2``: Detection."""

from ...solutions._formats import Detection

__all__ = ["Detection"]
