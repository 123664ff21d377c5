"""``mediapipe.tasks.python.core.base_options``: where the worker is (see :class:`faceworker.BaseOptions`)."""

from ....options import BaseOptions

__all__ = ["BaseOptions"]
