"""``containers.landmark``: the face mesh's points."""

from .....results import NormalizedLandmark

__all__ = ["NormalizedLandmark"]
