"""``containers.bounding_box``."""

from .....results import BoundingBox

__all__ = ["BoundingBox"]
