"""LIVE_STREAM through gRPC: a burst faster than the worker replaces waiting frames, and every
frame still gets exactly one answer."""

from __future__ import annotations

from faceworker.v1 import faceworker_pb2 as pb

from conftest import video_frames
from doors import SessionStream


def live_options() -> pb.SessionOptions:
    return pb.SessionOptions(running_mode=pb.RUNNING_MODE_LIVE_STREAM, tracking_enabled=True,
                             output_face_mesh=True)


def test_a_burst_replaces_waiting_frames_and_every_frame_is_answered_once(stub):
    frames = video_frames()
    timestamps = [index * 33 for index in range(len(frames))]
    with SessionStream(stub) as stream:
        opened = stream.open(live_options())
        for jpeg, timestamp in zip(frames, timestamps):
            stream.send(frame=pb.Frame(jpeg=jpeg, timestamp_ms=timestamp))
        stream.half_close()
        answers = stream.rest()

    kinds = [answer.WhichOneof("kind") for answer in answers]
    assert set(kinds) <= {"result", "dropped"}, kinds
    results = [a.result for a in answers if a.WhichOneof("kind") == "result"]
    dropped = [a.dropped for a in answers if a.WhichOneof("kind") == "dropped"]
    assert sorted([r.timestamp_ms for r in results] + [d.timestamp_ms for d in dropped]) == timestamps
    assert [r.timestamp_ms for r in results] == sorted(r.timestamp_ms for r in results)
    # Sent back to back, faster than the worker runs the mesh: newer frames replace waiting ones.
    assert dropped, "no frame was dropped"
    assert all(d.reason == pb.FrameDropped.REASON_REPLACED for d in dropped)
    assert all(d.session_id == opened.session_id for d in dropped)
    # The newest frame has nothing to replace it.
    assert results[-1].timestamp_ms == timestamps[-1]
    # The first frame processed runs the detector; later ones may land where the motion of the
    # frames skipped lost the face.
    assert len(results[0].faces) == 1

