"""MediaPipe Tasks' import paths, for programs that switch from ``mediapipe`` by their imports.

``faceworker.tasks`` answers as ``mp.tasks`` does (``mp.tasks.BaseOptions``,
``mp.tasks.vision.FaceLandmarker``) and as the package ``mediapipe.tasks``
does (``from faceworker.tasks import python``). Every name is the object
:mod:`faceworker` and :mod:`faceworker.vision` already give, not a copy.
"""

import sys

from . import python
from .python import BaseOptions, components, vision

# MediaPipe binds ``mp.tasks`` to mediapipe.tasks.python, whose ``vision`` is then reachable as
# ``mediapipe.tasks.vision`` by attribute; registering it lets the import statement work too.
sys.modules[__name__ + ".vision"] = vision

__all__ = ["BaseOptions", "components", "python", "vision"]
