"""ML Kit contours read as lists of pixel Points, from the worker's packed floats."""

from __future__ import annotations

from faceworker import _convert
from faceworker._proto import faceworker_pb2 as pb
from faceworker.vision import ContourType, Point


def test_contour_points_are_read_two_floats_at_a_time():
    frame = pb.FrameResult()
    face = frame.faces.add(score=0.9)
    face.contours.add(type=pb.CONTOUR_TYPE_NOSE_BOTTOM, points_xy=[10.5, 20.25, 30, 40, 50, 60])
    # A trailing partial point is not a point.
    face.contours.add(type=pb.CONTOUR_TYPE_NOSE_BRIDGE, points_xy=[1, 2, 3])

    detection = _convert.detector_result(frame).detections[0]

    assert detection.contour(ContourType.NOSE_BOTTOM).points == [Point(10.5, 20.25), Point(30, 40), Point(50, 60)]
    assert detection.contour(ContourType.NOSE_BRIDGE).points == [Point(1, 2)]
    assert isinstance(detection.contour(ContourType.NOSE_BOTTOM).points, list)
