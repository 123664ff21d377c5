"""``mediapipe.framework``: the message formats MediaPipe's Solutions return and draw."""

from . import formats

__all__ = ["formats"]
