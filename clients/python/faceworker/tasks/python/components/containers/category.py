"""``containers.category``."""

from .....results import Category

__all__ = ["Category"]
