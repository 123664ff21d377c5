"""``mediapipe.tasks.python``: BaseOptions, the vision tasks and the result containers."""

from . import components, core, vision
from .core.base_options import BaseOptions

# As MediaPipe, which keeps ``core`` importable but not an attribute of the package.
del core

__all__ = ["BaseOptions", "components", "vision"]
