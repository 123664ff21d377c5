"""A Session stream's life: open first, every frame answered after a half-close, and a cancelled
stream's session closed and freed. On a worker of this module's own, whose session count is known."""

from __future__ import annotations

from typing import Iterator

import grpc
import pytest

import faceworker
from faceworker import FaceWorkerError, StatusCode
from faceworker.v1 import faceworker_pb2 as pb

from conftest import CALL_SECONDS, STUBS, RunningWorker, fixture_bytes, running_worker, stub_of, video_frames
from doors import LeanSession, SessionStream


@pytest.fixture(scope="module")
def quiet_worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningWorker]:
    with running_worker(tmp_path_factory.mktemp("lifecycle")) as running:
        yield running


@pytest.fixture
def stub(quiet_worker: RunningWorker) -> Iterator:
    with stub_of(quiet_worker) as stub:
        yield stub
    quiet_worker.sessions_become(0)


def video(**options) -> pb.SessionOptions:
    return pb.SessionOptions(running_mode=pb.RUNNING_MODE_VIDEO, tracking_enabled=True, **options)


def frame(index: int, jpeg: bytes) -> pb.Frame:
    return pb.Frame(jpeg=jpeg, timestamp_ms=index * 33)


def test_both_doors_sessions_are_counted_alike(stub, quiet_worker):
    with SessionStream(stub) as stream, LeanSession(quiet_worker.socket_path):
        stream.open()
        through_grpc = stub.GetStats(pb.GetStatsRequest(), timeout=CALL_SECONDS)
        through_lean = faceworker.get_stats(quiet_worker.socket_path)
        assert through_grpc.sessions == through_lean.sessions == 2

    quiet_worker.sessions_become(0)


def test_after_a_half_close_every_frame_is_answered_then_the_call_ends_ok(stub, quiet_worker):
    frames = video_frames()[:6]
    with SessionStream(stub) as stream:
        stream.open(video())
        for index, jpeg in enumerate(frames):
            stream.send(frame=frame(index, jpeg))
        stream.half_close()
        answers = stream.rest()

        assert [a.WhichOneof("kind") for a in answers] == ["result"] * len(frames)
        assert [a.result.timestamp_ms for a in answers] == [index * 33 for index in range(len(frames))]
        assert all(len(a.result.faces) == 1 for a in answers)
        assert stream.call.code() == grpc.StatusCode.OK
    quiet_worker.sessions_become(0)


def test_a_half_close_frees_the_sessions_name(stub, quiet_worker):
    with SessionStream(stub) as stream:
        stream.open(name="half-closed")
        stream.half_close()
        assert stream.rest() == []

    with LeanSession(quiet_worker.socket_path, name="half-closed") as reopened:
        assert reopened.opened.name == "half-closed"


def test_a_cancelled_stream_closes_its_session_and_frees_it(stub, quiet_worker):
    frames = video_frames()
    with SessionStream(stub) as stream:
        stream.open(video(output_face_mesh=True), name="cancelled")
        for index, jpeg in enumerate(frames[:8]):
            stream.send(frame=frame(index, jpeg))
        assert stream.outcome().kind == "result"
        quiet_worker.sessions_become(1)
        stream.call.cancel()
        with pytest.raises(grpc.RpcError) as raised:
            stream.rest()
        assert raised.value.code() == grpc.StatusCode.CANCELLED

    quiet_worker.sessions_become(0)
    # The name is free again, and the worker goes on serving both doors.
    with LeanSession(quiet_worker.socket_path, name="cancelled") as lean:
        assert lean.process(pb.Frame(jpeg=frames[0])).kind == "result"
    with SessionStream(stub) as stream:
        stream.open(video())
        assert stream.process(frame(0, frames[0])).kind == "result"


def test_frames_waiting_when_the_stream_is_cancelled_are_never_processed(stub, quiet_worker):
    frames = video_frames()
    before = faceworker.get_stats(quiet_worker.socket_path)
    with SessionStream(stub) as stream:
        stream.open(video(output_face_mesh=True, landmark_mode=pb.LANDMARK_MODE_ALL))
        for index, jpeg in enumerate(frames[:8]):
            stream.send(frame=frame(index, jpeg))
        assert stream.outcome().kind == "result"
        stream.call.cancel()
    quiet_worker.sessions_become(0)
    after = faceworker.get_stats(quiet_worker.socket_path)

    processed = after.frames_processed - before.frames_processed
    assert 1 <= processed < 8, f"{processed} of the 8 frames were processed"


def test_the_first_request_must_open_the_session(stub):
    with SessionStream(stub) as stream:
        stream.send(frame=pb.Frame(jpeg=fixture_bytes("astronaut.jpg")))
        with pytest.raises(grpc.RpcError) as raised:
            stream.next()

    assert raised.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "`open`" in raised.value.details()


def test_a_second_open_or_an_empty_request_is_refused_in_the_stream_which_goes_on(stub):
    with SessionStream(stub) as stream:
        opened = stream.open()
        stream.send(open=pb.OpenSessionRequest())
        again = stream.next()
        stream.send()
        empty = stream.next()
        after = stream.process(pb.Frame(jpeg=fixture_bytes("astronaut.jpg")))

    assert again.error.code == pb.Status.FAILED_PRECONDITION and "already open" in again.error.message
    assert empty.error.code == pb.Status.UNIMPLEMENTED
    assert again.error.session_id == empty.error.session_id == opened.session_id
    assert after.kind == "result" and len(after.result.faces) == 1


def test_reset_is_answered_after_the_frames_before_it_and_forgets_the_timestamps(stub):
    jpeg = video_frames()[0]
    with SessionStream(stub) as stream:
        opened = stream.open(video())
        assert stream.process(pb.Frame(jpeg=jpeg, timestamp_ms=100)).kind == "result"
        stream.send(reset=STUBS.service.SessionResetRequest())
        answer = stream.next()
        assert answer.WhichOneof("kind") == "reset"
        assert answer.reset.session_id == opened.session_id
        later = stream.process(pb.Frame(jpeg=jpeg, timestamp_ms=50))

    assert later.kind == "result" and len(later.result.faces) == 1


def test_a_session_of_the_lean_socket_is_no_business_of_a_stream(stub, quiet_worker):
    with LeanSession(quiet_worker.socket_path, name="lean-owned") as lean, SessionStream(stub) as stream:
        stream.open()
        # The stream's frames go to its own session, whatever session_id another connection's has.
        answer = stream.process(pb.Frame(jpeg=fixture_bytes("astronaut.jpg")))
        assert answer.kind == "result" and answer.result.session_id == stream.session_id != lean.session_id
        with pytest.raises(FaceWorkerError) as raised:
            lean.connection.call(pb.ClientMessage(process_frame=pb.ProcessFrameRequest(
                session_id=stream.session_id, frame=pb.Frame(jpeg=fixture_bytes("astronaut.jpg")))))
        assert raised.value.code == StatusCode.NOT_FOUND
