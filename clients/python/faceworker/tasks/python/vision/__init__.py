"""``mediapipe.tasks.python.vision``: the face tasks, their options and results, and the drawing helpers.

Every task, option and result class is the one :mod:`faceworker.vision`
gives; ``drawing_utils`` and ``drawing_styles`` draw as MediaPipe's do.
"""

from ....vision import *  # noqa: F401,F403  (the same objects, under MediaPipe's names)
from ....vision import __all__ as _task_names
from . import drawing_styles, drawing_utils, face_detector, face_landmarker

__all__ = [*_task_names, "drawing_styles", "drawing_utils", "face_detector", "face_landmarker"]
