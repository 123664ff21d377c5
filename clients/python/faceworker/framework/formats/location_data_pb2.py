"""``mediapipe.framework.formats.location_data_pb2``: LocationData."""

from ...solutions._formats import LocationData

__all__ = ["LocationData"]
