"""``mediapipe.tasks.python.components``: the containers results are made of."""

from . import containers

__all__ = ["containers"]
