"""``mediapipe.framework.formats``: ``landmark_pb2``, ``detection_pb2``, ``location_data_pb2``.

MediaPipe Tasks' face examples build a ``landmark_pb2.NormalizedLandmarkList``
from a result to draw it with ``solutions.drawing_utils``; these are the
messages the Solutions return, so such code runs switched by its imports.
"""

from . import detection_pb2, landmark_pb2, location_data_pb2

__all__ = ["detection_pb2", "landmark_pb2", "location_data_pb2"]
