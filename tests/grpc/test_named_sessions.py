"""Subscribe through gRPC follows a named session opened through either door, and a session opened
through gRPC is followed from the lean socket: every subscriber hears what the producer got."""

from __future__ import annotations

import queue
import time

import grpc
import pytest

from faceworker import FaceWorkerError
from faceworker._connection import Connection, EventListener
from faceworker.v1 import faceworker_pb2 as pb

from conftest import CALL_SECONDS, video_frames
from doors import LeanSession, SessionStream, grpc_code, without_session

SESSION_CLOSED = pb.SessionEnded.REASON_SESSION_CLOSED


def video(**options) -> pb.SessionOptions:
    return pb.SessionOptions(running_mode=pb.RUNNING_MODE_VIDEO, tracking_enabled=True, **options)


def event_kind(update) -> str:
    assert update.WhichOneof("kind") == "event", update
    return update.event.WhichOneof("event")


class LeanSubscriber:
    """A subscription of the lean socket's Python client; its events in a queue."""

    def __init__(self, socket_path: str, name: str) -> None:
        self.connection = Connection(socket_path)
        self.events: "queue.Queue" = queue.Queue()
        listener = EventListener(on_event=self.events.put, on_lost=self.events.put)
        answer = self.connection.submit(pb.ClientMessage(subscribe=pb.SubscribeRequest(name=name)), listener=listener)
        self.subscribed = answer.result(timeout=CALL_SECONDS).subscribe

    def next(self) -> pb.SessionEvent:
        return self.events.get(timeout=CALL_SECONDS)


def test_a_grpc_subscriber_follows_a_session_of_the_lean_socket(stub, worker):
    frames = video_frames()[:5]
    with LeanSession(worker.socket_path, video(), name="lean-door") as producer:
        updates = stub.Subscribe(pb.SubscribeRequest(name="lean-door"), timeout=CALL_SECONDS)
        first = next(updates)
        assert first.WhichOneof("kind") == "subscribed"
        assert (first.subscribed.session_id, first.subscribed.name) == (producer.session_id, "lean-door")
        assert first.subscribed.options == producer.opened.options
        assert first.subscribed.queue_limit > 0

        for index, jpeg in enumerate(frames):
            produced = producer.process(pb.Frame(jpeg=jpeg, timestamp_ms=index * 33))
            update = next(updates)
            assert event_kind(update) == "frame_result"
            assert update.event.subscription_id == first.subscribed.subscription_id
            # The very result the producer got, timings included.
            assert update.event.frame_result == produced.result
        refused = producer.process(pb.Frame(jpeg=b"not a JPEG", timestamp_ms=1000))
        update = next(updates)
        assert event_kind(update) == "frame_error"
        heard = update.event.frame_error
        assert (heard.code, without_session(heard.message, producer.session_id)) == (refused.code, refused.message)
        producer.connection.call(pb.ClientMessage(reset_session=pb.ResetSessionRequest(session_id=producer.session_id)))
        assert event_kind(next(updates)) == "session_reset"
        producer.close()

    (ended,) = list(updates)
    assert event_kind(ended) == "session_ended" and ended.event.session_ended.reason == SESSION_CLOSED
    assert updates.code() == grpc.StatusCode.OK


def test_both_doors_follow_a_session_opened_on_a_grpc_stream(stub, worker):
    frames = video_frames()[:4]
    with SessionStream(stub) as producer:
        opened = producer.open(video(output_face_mesh=True), name="grpc-door")
        updates = stub.Subscribe(pb.SubscribeRequest(name="grpc-door"), timeout=CALL_SECONDS)
        assert next(updates).subscribed.session_id == opened.session_id
        lean = LeanSubscriber(worker.socket_path, "grpc-door")
        assert lean.subscribed.session_id == opened.session_id

        for index, jpeg in enumerate(frames):
            produced = producer.process(pb.Frame(jpeg=jpeg, timestamp_ms=index * 33))
            assert produced.kind == "result" and len(produced.result.faces[0].mesh_xyz) == 478 * 3
            assert next(updates).event.frame_result == produced.result
            assert lean.next().frame_result == produced.result
        producer.half_close()
        assert producer.rest() == []

    (ended,) = list(updates)
    assert ended.event.session_ended.reason == SESSION_CLOSED
    assert lean.next().session_ended.reason == SESSION_CLOSED
    lean.connection.close()


def test_cancelling_a_subscribe_call_unsubscribes(stub, worker):
    def subscriptions() -> int:
        return stub.GetStats(pb.GetStatsRequest(), timeout=CALL_SECONDS).subscriptions

    with LeanSession(worker.socket_path, name="left") as producer:
        before = subscriptions()
        updates = stub.Subscribe(pb.SubscribeRequest(name="left"), timeout=CALL_SECONDS)
        next(updates)
        assert subscriptions() == before + 1
        updates.cancel()
        deadline = time.monotonic() + 10
        while subscriptions() != before:
            assert time.monotonic() < deadline, "the cancelled subscription is still counted"
            time.sleep(0.02)
        assert producer.process(pb.Frame(jpeg=video_frames()[0])).kind == "result"


@pytest.mark.parametrize("name, code", [("nobody", pb.Status.NOT_FOUND), ("", pb.Status.INVALID_ARGUMENT)],
                         ids=["unknown", "empty"])
def test_a_subscribe_refused_ends_the_call_as_the_lean_one_is_refused(stub, lean, name, code):
    with pytest.raises(grpc.RpcError) as through_grpc:
        next(stub.Subscribe(pb.SubscribeRequest(name=name), timeout=CALL_SECONDS))
    with pytest.raises(FaceWorkerError) as through_lean:
        lean.call(pb.ClientMessage(subscribe=pb.SubscribeRequest(name=name)))

    assert grpc_code(through_grpc.value) == through_lean.value.code == code
    assert through_grpc.value.details() == through_lean.value.message

