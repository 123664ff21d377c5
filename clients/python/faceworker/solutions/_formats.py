"""The protobuf messages MediaPipe's Solutions return: Detection, LocationData, NormalizedLandmarkList.

They are built here from their descriptions, with MediaPipe's message names
and field numbers, so they read, print, compare and serialize as MediaPipe's
(``detection.score[0]``, ``landmark.HasField("visibility")``, the same wire
bytes). They live in a descriptor pool of their own, so a program may import
MediaPipe beside this client.
"""

from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_F = descriptor_pb2.FieldDescriptorProto
_OPTIONAL, _REPEATED = _F.LABEL_OPTIONAL, _F.LABEL_REPEATED


def _field(message: descriptor_pb2.DescriptorProto, name: str, number: int, kind: int, label: int = _OPTIONAL,
           type_name: str = "", packed: bool = False) -> None:
    field = message.field.add(name=name, number=number, type=kind, label=label)
    if type_name:
        field.type_name = type_name
    if packed:
        field.options.packed = True


def _file() -> descriptor_pb2.FileDescriptorProto:
    file = descriptor_pb2.FileDescriptorProto(name="faceworker/solutions/formats.proto", package="mediapipe",
                                              syntax="proto2")

    landmark = file.message_type.add(name="NormalizedLandmark")
    for number, name in enumerate(("x", "y", "z", "visibility", "presence"), start=1):
        _field(landmark, name, number, _F.TYPE_FLOAT)
    landmarks = file.message_type.add(name="NormalizedLandmarkList")
    _field(landmarks, "landmark", 1, _F.TYPE_MESSAGE, _REPEATED, ".mediapipe.NormalizedLandmark")

    location = file.message_type.add(name="LocationData")
    formats = location.enum_type.add(name="Format")
    for number, name in enumerate(("GLOBAL", "BOUNDING_BOX", "RELATIVE_BOUNDING_BOX", "MASK")):
        formats.value.add(name=name, number=number)
    box = location.nested_type.add(name="BoundingBox")
    relative_box = location.nested_type.add(name="RelativeBoundingBox")
    for number, name in enumerate(("xmin", "ymin", "width", "height"), start=1):
        _field(box, name, number, _F.TYPE_INT32)
        _field(relative_box, name, number, _F.TYPE_FLOAT)
    keypoint = location.nested_type.add(name="RelativeKeypoint")
    _field(keypoint, "x", 1, _F.TYPE_FLOAT)
    _field(keypoint, "y", 2, _F.TYPE_FLOAT)
    _field(keypoint, "keypoint_label", 3, _F.TYPE_STRING)
    _field(keypoint, "score", 4, _F.TYPE_FLOAT)
    _field(location, "format", 1, _F.TYPE_ENUM, type_name=".mediapipe.LocationData.Format")
    _field(location, "bounding_box", 2, _F.TYPE_MESSAGE, type_name=".mediapipe.LocationData.BoundingBox")
    _field(location, "relative_bounding_box", 3, _F.TYPE_MESSAGE,
           type_name=".mediapipe.LocationData.RelativeBoundingBox")
    # Field 4, the binary mask, is never set by the face solutions and is left out.
    _field(location, "relative_keypoints", 5, _F.TYPE_MESSAGE, _REPEATED,
           ".mediapipe.LocationData.RelativeKeypoint")

    detection = file.message_type.add(name="Detection")
    associated = detection.nested_type.add(name="AssociatedDetection")
    _field(associated, "id", 1, _F.TYPE_INT32)
    _field(associated, "confidence", 2, _F.TYPE_FLOAT)
    _field(detection, "label", 1, _F.TYPE_STRING, _REPEATED)
    _field(detection, "label_id", 2, _F.TYPE_INT32, _REPEATED, packed=True)
    _field(detection, "score", 3, _F.TYPE_FLOAT, _REPEATED, packed=True)
    _field(detection, "location_data", 4, _F.TYPE_MESSAGE, type_name=".mediapipe.LocationData")
    _field(detection, "feature_tag", 5, _F.TYPE_STRING)
    _field(detection, "track_id", 6, _F.TYPE_STRING)
    _field(detection, "detection_id", 7, _F.TYPE_INT64)
    _field(detection, "associated_detections", 8, _F.TYPE_MESSAGE, _REPEATED,
           ".mediapipe.Detection.AssociatedDetection")
    _field(detection, "display_name", 9, _F.TYPE_STRING, _REPEATED)
    _field(detection, "timestamp_usec", 10, _F.TYPE_INT64)
    return file


_pool = descriptor_pool.DescriptorPool()
_pool.Add(_file())


def _message_class(name: str) -> type:
    descriptor = _pool.FindMessageTypeByName(name)
    get_message_class = getattr(message_factory, "GetMessageClass", None)
    if get_message_class is not None:
        return get_message_class(descriptor)
    # protobuf before 4.21 builds classes through a factory.
    return message_factory.MessageFactory(_pool).GetPrototype(descriptor)


NormalizedLandmark = _message_class("mediapipe.NormalizedLandmark")
NormalizedLandmarkList = _message_class("mediapipe.NormalizedLandmarkList")
LocationData = _message_class("mediapipe.LocationData")
Detection = _message_class("mediapipe.Detection")

__all__ = ["Detection", "LocationData", "NormalizedLandmark", "NormalizedLandmarkList"]
