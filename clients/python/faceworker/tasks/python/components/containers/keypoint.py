"""``containers.keypoint``."""

from .....results import NormalizedKeypoint

__all__ = ["NormalizedKeypoint"]
