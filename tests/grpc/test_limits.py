"""The worker's limits hold for gRPC as for the lean socket, with the same codes and words: one
worker for the session limit, one with small limits for everything else."""

from __future__ import annotations

import queue
import threading
import time
from contextlib import ExitStack
from typing import Iterator

import grpc
import pytest

import faceworker
from faceworker import FaceWorkerError
from faceworker._connection import Connection
from faceworker.v1 import faceworker_pb2 as pb

from conftest import CALL_SECONDS, STUBS, RunningWorker, fixture_bytes, running_worker, stub_of, video_frames
from doors import LeanSession, SessionStream, grpc_code, service
from hostile_jpeg import replacing_size
from same import assert_same_outcomes

MAX_MESSAGE_BYTES = 200_000
STREAM_WAIT_SECONDS = 1
"""How long a test watches for something that must not happen (a send going on)."""


@pytest.fixture(scope="module")
def small_worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningWorker]:
    with running_worker(tmp_path_factory.mktemp("limits"), "--max-queued-frames", "1", "--threads", "1",
                        "--max-pixels", "300000", "--max-subscribers-per-session", "1",
                        "--max-message-bytes", str(MAX_MESSAGE_BYTES)) as running:
        yield running


@pytest.fixture
def small_stub(small_worker):
    with stub_of(small_worker) as stub:
        yield stub


def test_the_worker_wide_session_limit_ends_the_call_as_it_refuses_a_lean_open(tmp_path):
    with running_worker(tmp_path, "--max-sessions", "2") as worker, stub_of(worker) as stub:
        with LeanSession(worker.socket_path) as first, LeanSession(worker.socket_path):
            with pytest.raises(grpc.RpcError) as through_grpc, SessionStream(stub) as stream:
                stream.open()
            with pytest.raises(FaceWorkerError) as through_lean:
                LeanSession(worker.socket_path)
            first.close()
            with SessionStream(stub) as stream:
                stream.open()
                assert stream.process(pb.Frame(jpeg=fixture_bytes("astronaut.jpg"))).kind == "result"

    assert grpc_code(through_grpc.value) == through_lean.value.code == pb.Status.RESOURCE_EXHAUSTED
    assert through_grpc.value.details() == through_lean.value.message
    assert "--max-sessions" in through_lean.value.message


def test_too_many_waiting_frames_get_the_lean_sockets_error_in_the_stream(small_stub, small_worker):
    frames = [pb.Frame(jpeg=jpeg, timestamp_ms=index) for index, jpeg in enumerate(video_frames()[:12])]
    options = pb.SessionOptions(running_mode=pb.RUNNING_MODE_VIDEO, output_face_mesh=True)
    with LeanSession(small_worker.socket_path, options) as lean:
        futures = [lean.submit(frame) for frame in frames]
        through_lean = [lean.outcome(future) for future in futures]
    with SessionStream(small_stub) as stream:
        stream.open(options)
        for frame in frames:
            stream.send(frame=frame)
        stream.half_close()
        through_grpc = [stream.outcome() for _ in frames]
        assert stream.rest() == []

    # A refusal is answered when it is made, before the results of frames that were waiting, as on
    # the lean socket; every frame is answered once, and the results come in the frames' order.
    assert sorted(o.timestamp_ms for o in through_grpc) == [f.timestamp_ms for f in frames]
    results = [o.timestamp_ms for o in through_grpc if o.kind == "result"]
    assert results == sorted(results)
    for outcomes in (through_grpc, through_lean):
        assert {o.kind for o in outcomes} == {"result", "error"}
    # Which frames find the queue full depends on timing; the refusal does not.
    refusals = {(o.code, o.message) for o in through_grpc + through_lean if o.kind == "error"}
    assert len(refusals) == 1, refusals
    ((code, message),) = refusals
    assert code == pb.Status.RESOURCE_EXHAUSTED and "--max-queued-frames" in message


def test_the_max_pixels_flag_applies_alike(small_stub, small_worker):
    big = pb.Frame(jpeg=replacing_size(fixture_bytes("astronaut.jpg"), 1000, 1000))
    with SessionStream(small_stub) as stream, LeanSession(small_worker.socket_path) as lean:
        stream.open()
        through_grpc, through_lean = stream.process(big), lean.process(big)

    assert_same_outcomes([through_grpc], [through_lean])
    assert through_grpc.code == pb.Status.RESOURCE_EXHAUSTED and "300000" in through_grpc.message


def test_a_message_over_the_maximum_ends_the_call_with_resource_exhausted_and_frees_the_session(small_stub, small_worker):
    oversized = pb.Frame(raw=pb.RawImage(format=pb.PIXEL_FORMAT_RGB, width=512, height=512, data=bytes(512 * 512 * 3)))
    with SessionStream(small_stub) as stream:
        stream.open()
        stream.send(frame=oversized)
        with pytest.raises(grpc.RpcError) as raised:
            stream.next()

    assert raised.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert str(MAX_MESSAGE_BYTES) in raised.value.details()
    small_worker.sessions_become(0)
    assert small_stub.Ping(pb.PingRequest(payload=b"still here"), timeout=CALL_SECONDS).payload == b"still here"


def test_more_subscribers_than_allowed_ends_the_subscribe_call_as_the_lean_one_is_refused(small_stub, small_worker):
    subscriber = Connection(small_worker.socket_path)
    with LeanSession(small_worker.socket_path, name="popular"):
        first = small_stub.Subscribe(pb.SubscribeRequest(name="popular"), timeout=CALL_SECONDS)
        assert next(first).WhichOneof("kind") == "subscribed"
        with pytest.raises(grpc.RpcError) as through_grpc:
            next(small_stub.Subscribe(pb.SubscribeRequest(name="popular"), timeout=CALL_SECONDS))
        with pytest.raises(FaceWorkerError) as through_lean:
            subscriber.call(pb.ClientMessage(subscribe=pb.SubscribeRequest(name="popular")))
        first.cancel()
    subscriber.close()

    assert grpc_code(through_grpc.value) == through_lean.value.code == pb.Status.RESOURCE_EXHAUSTED
    assert through_grpc.value.details() == through_lean.value.message


def test_a_connection_holds_as_many_streams_as_a_lean_connection_may_hold_sessions_and_subscriptions_and_more_wait(tmp_path):
    # One session and one subscription a connection, and 8 streams for unary calls: 10 streams.
    with running_worker(tmp_path, "--max-sessions-per-connection", "1", "--max-subscriptions-per-connection", "1") as worker, \
            stub_of(worker) as stub, ExitStack() as streams:
        opened = [streams.enter_context(SessionStream(stub)) for _ in range(10)]
        for stream in opened:
            stream.open()
        worker.sessions_become(10)
        waiting = streams.enter_context(SessionStream(stub))
        waiting.send(open=pb.OpenSessionRequest(options=pb.SessionOptions()))
        # The eleventh stream is neither opened nor refused: grpcio holds it until a stream ends. So
        # its first answer comes after the end of another, whenever each happens.
        events = queue.Queue()
        reader = threading.Thread(target=lambda: events.put(waiting.next().WhichOneof("kind")), daemon=True)
        reader.start()
        assert faceworker.get_stats(worker.socket_path).sessions == 10
        events.put("a stream ends")
        opened[0].half_close()
        assert opened[0].rest() == []
        assert [events.get(timeout=CALL_SECONDS) for _ in range(2)] == ["a stream ends", "opened"]
        reader.join()
        assert waiting.process(pb.Frame(jpeg=fixture_bytes("astronaut.jpg"))).kind == "result"


def test_a_client_that_sends_without_reading_is_held_back_then_every_frame_is_answered(small_worker):
    jpeg = fixture_bytes("astronaut.jpg")
    frames = 3000
    pulled = [0]

    def requests():
        yield service.SessionRequest(open=pb.OpenSessionRequest(options=pb.SessionOptions(running_mode=pb.RUNNING_MODE_VIDEO)))
        for index in range(frames):
            pulled[0] += 1
            yield service.SessionRequest(frame=pb.Frame(jpeg=jpeg, timestamp_ms=index))

    # A client that reads nothing takes in only what its receive window holds, a few answers.
    with grpc.insecure_channel(small_worker.grpc_target, options=[("grpc.http2.bdp_probe", 0),
                                                                   ("grpc.http2.lookahead_bytes", 1024)]) as channel:
        call = STUBS.service_grpc.FaceWorkerStub(channel).Session(requests(), timeout=CALL_SECONDS)
        try:
            # Once the worker holds as many unanswered frames as it will, the client cannot send more.
            before = -1
            while pulled[0] != before:
                before = pulled[0]
                time.sleep(STREAM_WAIT_SECONDS)
            assert pulled[0] < frames, f"the worker took all {frames} frames from a client that read none of its answers"
            answers = list(call)
        finally:
            call.cancel()

    assert answers[0].WhichOneof("kind") == "opened"
    # Each frame is answered, with a result or, when the small worker's queue is full, a refusal.
    assert len(answers) == 1 + frames
    assert {answer.WhichOneof("kind") for answer in answers[1:]} <= {"result", "error"}
