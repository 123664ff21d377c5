"""The lean socket's bad-input suite through gRPC: each refusal has the status code and the words the
lean socket gives for the same input (sent through the lean Python client beside it), and the
stream goes on after a refused frame."""

from __future__ import annotations

import math

import pytest

from faceworker.v1 import faceworker_pb2 as pb

from conftest import fixture_bytes
from doors import LeanSession, SessionStream, refused_open
from hostile_jpeg import progressive, replacing_frame_header_length, replacing_size, with_restart_marker_inside
from same import assert_same_outcomes

INVALID_ARGUMENT = pb.Status.INVALID_ARGUMENT
RESOURCE_EXHAUSTED = pb.Status.RESOURCE_EXHAUSTED
ASTRONAUT = fixture_bytes("astronaut.jpg")


def both_doors(stub, worker, options: pb.SessionOptions, frames):
    """The frames' outcomes through a Session stream, asserted equal to the lean socket's; then a
    sound frame through the same stream, which must still be processed."""
    with SessionStream(stub) as stream, LeanSession(worker.socket_path, options) as lean:
        stream.open(options)
        through_grpc = [stream.process(frame) for frame in frames]
        through_lean = [lean.process(frame) for frame in frames]
        assert_same_outcomes(through_grpc, through_lean)
        later = max((frame.timestamp_ms for frame in frames), default=0) + 1000
        after = stream.process(pb.Frame(jpeg=ASTRONAUT, timestamp_ms=later))
        assert after.kind == "result" and len(after.result.faces) == 1, "the stream goes on"
    return through_grpc


@pytest.mark.parametrize("field, options", [
    ("min_detection_confidence", pb.SessionOptions(min_detection_confidence=1.5)),
    ("min_face_size", pb.SessionOptions(min_face_size=-0.1)),
    ("min_suppression_threshold", pb.SessionOptions(min_suppression_threshold=2)),
    ("min_face_presence_confidence", pb.SessionOptions(min_face_presence_confidence=-1)),
    ("min_tracking_confidence", pb.SessionOptions(running_mode=pb.RUNNING_MODE_VIDEO,
                                                  min_tracking_confidence=math.nan)),
    ("num_faces", pb.SessionOptions(num_faces=0)),
    ("max_missed_frames", pb.SessionOptions(running_mode=pb.RUNNING_MODE_VIDEO, max_missed_frames=100_000)),
    ("detector_interval_frames", pb.SessionOptions(running_mode=pb.RUNNING_MODE_VIDEO,
                                                   detector_interval_frames=1001)),
    ("tracking_enabled", pb.SessionOptions(running_mode=pb.RUNNING_MODE_IMAGE, tracking_enabled=True)),
    ("running_mode", pb.SessionOptions(running_mode=9)),
], ids=lambda value: value if isinstance(value, str) else "")
def test_an_option_out_of_range_ends_the_call_as_the_lean_open_is_refused(stub, worker, field, options):
    code, message = refused_open(stub, worker, options)

    assert code == INVALID_ARGUMENT
    assert field in message


@pytest.mark.parametrize("name", ["", "x" * 129, "é" * 64 + "x", "line\nbreak", "nul\0"],
                         ids=["empty", "129-bytes", "129-utf8-bytes", "newline", "nul"])
def test_a_bad_session_name_ends_the_call_as_the_lean_open_is_refused(stub, worker, name):
    code, message = refused_open(stub, worker, pb.SessionOptions(), name)

    assert code == INVALID_ARGUMENT
    assert "name" in message


def test_a_name_in_use_ends_the_call_with_already_exists(stub, worker):
    with LeanSession(worker.socket_path, name="taken"):
        code, message = refused_open(stub, worker, pb.SessionOptions(), "taken")

    assert code == pb.Status.ALREADY_EXISTS
    assert "taken" in message


def _raw(**fields) -> pb.Frame:
    return pb.Frame(raw=pb.RawImage(**fields))


# Each: the frame, the code it must get, words its message must hold.
FRAMES = {
    "not-a-jpeg": (pb.Frame(jpeg=b"this is not a JPEG"), INVALID_ARGUMENT, ""),
    "noise": (pb.Frame(jpeg=bytes((i * 131 + 17) % 256 for i in range(5000))), INVALID_ARGUMENT, ""),
    "cut-in-the-header": (pb.Frame(jpeg=ASTRONAUT[:40]), INVALID_ARGUMENT, ""),
    "bogus-header-length": (pb.Frame(jpeg=replacing_frame_header_length(ASTRONAUT, 0)), INVALID_ARGUMENT,
                            "Bogus marker length"),
    "thousands-of-scans": (pb.Frame(jpeg=progressive(10_000)), INVALID_ARGUMENT, "scans"),
    "jpeg-of-zero-width": (pb.Frame(jpeg=replacing_size(ASTRONAUT, 0, 510)), INVALID_ARGUMENT, ""),
    "jpeg-over-max-pixels": (pb.Frame(jpeg=replacing_size(ASTRONAUT, 60_000, 60_000)), RESOURCE_EXHAUSTED,
                             "--max-pixels"),
    "raw-over-max-pixels": (_raw(format=pb.PIXEL_FORMAT_RGB, width=10_000, height=10_000, data=bytes(16)),
                            RESOURCE_EXHAUSTED, "--max-pixels"),
    "raw-shorter-than-its-layout": (_raw(format=pb.PIXEL_FORMAT_RGB, width=100, height=100, row_stride=320,
                                         data=bytes(100 * 320 - 1)), INVALID_ARGUMENT, "32000"),
    "raw-of-zero-width": (_raw(format=pb.PIXEL_FORMAT_GRAY8, width=0, height=10), INVALID_ARGUMENT, ""),
    "raw-without-a-format": (_raw(width=8, height=8, data=bytes(64)), INVALID_ARGUMENT, ""),
    "raw-stride-below-a-row": (_raw(format=pb.PIXEL_FORMAT_RGB, width=10, height=2, row_stride=29,
                                    data=bytes(58)), INVALID_ARGUMENT, ""),
    "no-image": (pb.Frame(), INVALID_ARGUMENT, ""),
}


@pytest.mark.parametrize("case", list(FRAMES))
def test_a_bad_frame_gets_the_lean_sockets_error_in_the_stream(stub, worker, case):
    frame, code, words = FRAMES[case]
    frame.timestamp_ms = 7

    (outcome,) = both_doors(stub, worker, pb.SessionOptions(), [frame])

    assert (outcome.kind, outcome.code, outcome.timestamp_ms) == ("error", code, 7)
    assert words in outcome.message and outcome.message


@pytest.mark.parametrize("mode", [pb.RUNNING_MODE_VIDEO, pb.RUNNING_MODE_LIVE_STREAM], ids=["video", "live-stream"])
def test_a_timestamp_that_does_not_increase_is_refused_and_the_session_goes_on(stub, worker, mode):
    frames = [pb.Frame(jpeg=ASTRONAUT, timestamp_ms=t) for t in (100, 100, 50, 133)]

    outcomes = both_doors(stub, worker, pb.SessionOptions(running_mode=mode, tracking_enabled=True), frames)

    assert [o.kind for o in outcomes] == ["result", "error", "error", "result"]
    for refused in outcomes[1:3]:
        assert refused.code == INVALID_ARGUMENT and "timestamp" in refused.message


def test_a_damaged_jpeg_is_decoded_with_libjpegs_warning_alike(stub, worker):
    damaged = [with_restart_marker_inside(ASTRONAUT), ASTRONAUT[:len(ASTRONAUT) // 2]]

    outcomes = both_doors(stub, worker, pb.SessionOptions(), [pb.Frame(jpeg=jpeg) for jpeg in damaged])

    for outcome in outcomes:
        assert outcome.kind == "result"
        (warning,) = outcome.result.warnings
        assert "JPEG" in warning
        assert outcome.result.image_width == 512


def test_a_damaged_jpeg_is_refused_when_the_session_asks_alike(stub, worker):
    damaged = [with_restart_marker_inside(ASTRONAUT), ASTRONAUT[:len(ASTRONAUT) // 2],
               ASTRONAUT[:int(len(ASTRONAUT) * 0.99)]]
    lenient = both_doors(stub, worker, pb.SessionOptions(), [pb.Frame(jpeg=jpeg) for jpeg in damaged])

    strict = both_doors(stub, worker, pb.SessionOptions(refuse_damaged_jpeg=True),
                        [pb.Frame(jpeg=jpeg) for jpeg in damaged])

    for decoded, refused in zip(lenient, strict):
        assert (refused.kind, refused.code) == ("error", INVALID_ARGUMENT)
        assert decoded.result.warnings[0] in refused.message
