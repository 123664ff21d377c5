"""numpy, when it is installed: the client needs it only for array images and matrices."""

try:
    import numpy
except ImportError:
    numpy = None  # type: ignore[assignment]
