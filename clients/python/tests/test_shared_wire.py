"""Subscriptions and shared-memory buffers on the wire, against a scripted fake worker.

The fake answers each message of one connection with what the test's script
returns, and may serve one buffer handoff on an abstract socket; the tests
check what the client sends (the handoff's token and descriptor, a frame's
region) and what it makes of the answers. They need no face-worker.
"""

from __future__ import annotations

import fcntl
import mmap
import os
import socket
import struct
import threading
import uuid
from pathlib import Path
from typing import Callable, Iterator, List, Optional

import numpy as np
import pytest

import faceworker as mp
from faceworker import StatusCode, vision
from faceworker._proto import faceworker_pb2 as pb

HEADER = struct.Struct(">BI")

# Given one client message, the worker messages that answer it; None among them hangs up there.
Script = Callable[[pb.ClientMessage], List[Optional[pb.WorkerMessage]]]


def framed(message: pb.WorkerMessage) -> bytes:
    payload = message.SerializeToString()
    return HEADER.pack(0, len(payload)) + payload


def read_message(connection: socket.socket) -> Optional[pb.ClientMessage]:
    header = connection.recv(HEADER.size, socket.MSG_WAITALL)
    if len(header) < HEADER.size:
        return None
    _, length = HEADER.unpack(header)
    payload = connection.recv(length, socket.MSG_WAITALL) if length else b""
    return pb.ClientMessage.FromString(payload)


class ScriptedWorker:
    """Answers every message of one connection with its script, until the client hangs up."""

    def __init__(self, path: str, script: Script) -> None:
        self.path = path
        self.received: List[pb.ClientMessage] = []
        self._script = script
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(path)
        self._listener.listen(1)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        connection, _ = self._listener.accept()
        with connection:
            while (message := read_message(connection)) is not None:
                self.received.append(message)
                for answer in self._script(message):
                    if answer is None:
                        return
                    connection.sendall(framed(answer))

    def stop(self) -> None:
        self._thread.join(timeout=30)
        self._listener.close()


class FakeHandoff:
    """One buffer handoff on an abstract socket: records the token and descriptors, answers with ``answer``."""

    def __init__(self, answer: pb.WorkerMessage) -> None:
        self.address = f"@faceworker-test-{uuid.uuid4().hex}"
        self.token = b""
        self.fds: List[int] = []
        self._answer = answer
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind("\0" + self.address[1:])
        self._listener.listen(1)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        connection, _ = self._listener.accept()
        with connection:
            self.token, self.fds, _, _ = socket.recv_fds(connection, 1024, 4)
            connection.sendall(framed(self._answer))

    def join(self) -> None:
        self._thread.join(timeout=30)
        self._listener.close()


@pytest.fixture
def scripted(tmp_path: Path) -> Iterator[Callable[[Script], ScriptedWorker]]:
    """Starts a scripted fake worker: ``scripted(script)``."""
    started: List[ScriptedWorker] = []

    def start(script: Script) -> ScriptedWorker:
        worker = ScriptedWorker(str(tmp_path / f"fake{len(started)}.sock"), script)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


def opened(message: pb.ClientMessage, session_id: int = 7) -> pb.WorkerMessage:
    return pb.WorkerMessage(
        call_id=message.call_id,
        open_session=pb.OpenSessionResponse(session_id=session_id, options=message.open_session.options),
    )


def detector_script(handoff: FakeHandoff, buffer_id: int = 3) -> Script:
    """Opens a session, reserves ``buffer_id`` at ``handoff``, answers frames with no face."""

    def script(message: pb.ClientMessage) -> List[pb.WorkerMessage]:
        kind = message.WhichOneof("kind")
        if kind == "open_session":
            return [opened(message)]
        if kind == "register_buffer":
            reservation = pb.RegisterBufferResponse(buffer_id=buffer_id, token=b"token-42", handoff_address=handoff.address)
            return [pb.WorkerMessage(call_id=message.call_id, register_buffer=reservation)]
        if kind == "process_frame":
            result = pb.FrameResult(session_id=7, timestamp_ms=message.process_frame.frame.timestamp_ms)
            return [pb.WorkerMessage(call_id=message.call_id, frame_result=result)]
        if kind == "close_session":
            return [pb.WorkerMessage(call_id=message.call_id, close_session=pb.CloseSessionResponse(session_id=7))]
        return []

    return script


def registered(buffer_id: int, size: int) -> pb.WorkerMessage:
    return pb.WorkerMessage(buffer_registered=pb.BufferRegistered(buffer_id=buffer_id, size_bytes=size))


def frames_sent(worker: ScriptedWorker) -> List[pb.Frame]:
    return [message.process_frame.frame for message in worker.received if message.HasField("process_frame")]


def test_the_handoff_sends_the_token_with_one_sealed_memfd_that_is_the_buffer(scripted):
    handoff = FakeHandoff(registered(3, 4096))
    worker = scripted(detector_script(handoff))

    with mp.SharedFrameBuffer(4096) as buffer, vision.FaceDetector.create_from_options(
        vision.FaceDetectorOptions(base_options=mp.BaseOptions(socket_path=worker.path))
    ) as detector:
        detector.register_buffer(buffer)
        handoff.join()
        buffer.write(b"written by the client", offset=100)

        assert handoff.token == b"token-42"
        assert len(handoff.fds) == 1
        fd = handoff.fds[0]
        try:
            assert os.readlink(f"/proc/self/fd/{fd}").startswith("/memfd:")
            assert fcntl.fcntl(fd, fcntl.F_GET_SEALS) & fcntl.F_SEAL_SHRINK
            assert os.fstat(fd).st_size == 4096
            with mmap.mmap(fd, 4096, prot=mmap.PROT_READ) as seen:
                assert seen[100:121] == b"written by the client"
        finally:
            os.close(fd)


def test_a_view_into_the_buffer_is_sent_as_its_region_with_its_row_stride(scripted):
    handoff = FakeHandoff(registered(3, 64 * 1024))
    worker = scripted(detector_script(handoff))
    options = vision.FaceDetectorOptions(base_options=mp.BaseOptions(socket_path=worker.path))

    with mp.SharedFrameBuffer(64 * 1024) as buffer, vision.FaceDetector.create_from_options(options) as detector:
        detector.register_buffer(buffer)
        # Rows of 40 pixels padded to 128 bytes, from offset 1024: a 10 x 40 crop of that frame.
        padded = buffer.array((20, 128), offset=1024)
        padded[:] = 9
        rgb = padded[:, :120].reshape(20, 40, 3)[5:15]
        detector.detect(mp.Image(mp.ImageFormat.SRGB, rgb))
        gray = buffer.array((8, 16), offset=0)
        detector.detect(mp.Image(mp.ImageFormat.GRAY8, gray))
        jpeg = buffer.write(b"\xff\xd8 a JPEG file's bytes", offset=5000)
        detector.detect(jpeg)
        nv12 = buffer.region(8000, 6 * 4 + 2 * 3 * 2)
        detector.detect(mp.Image(mp.ImageFormat.NV12, nv12, width=6, height=4))

    rgb_frame, gray_frame, jpeg_frame, nv12_frame = frames_sent(worker)
    assert rgb_frame.raw.region == pb.BufferRegion(buffer_id=3, offset=1024 + 5 * 128, length=10 * 128)
    assert (rgb_frame.raw.width, rgb_frame.raw.height, rgb_frame.raw.row_stride) == (40, 10, 128)
    assert rgb_frame.raw.format == pb.PIXEL_FORMAT_RGB and rgb_frame.raw.data == b""
    assert gray_frame.raw.region == pb.BufferRegion(buffer_id=3, offset=0, length=8 * 16)
    assert gray_frame.raw.row_stride == 16
    assert jpeg_frame.WhichOneof("image") == "shared_jpeg"
    assert jpeg_frame.shared_jpeg == pb.BufferRegion(buffer_id=3, offset=5000, length=len(b"\xff\xd8 a JPEG file's bytes"))
    assert nv12_frame.raw.region == pb.BufferRegion(buffer_id=3, offset=8000, length=36)
    assert nv12_frame.raw.format == pb.PIXEL_FORMAT_NV12


def test_an_ordinary_array_still_travels_by_value(scripted):
    handoff = FakeHandoff(registered(3, 4096))
    worker = scripted(detector_script(handoff))
    pixels = np.full((4, 4, 3), 7, np.uint8)

    with mp.SharedFrameBuffer(4096) as buffer, vision.FaceDetector.create_from_options(
        vision.FaceDetectorOptions(base_options=mp.BaseOptions(socket_path=worker.path))
    ) as detector:
        detector.register_buffer(buffer)
        detector.detect(mp.Image(mp.ImageFormat.SRGB, pixels))

    (frame,) = frames_sent(worker)
    assert frame.raw.data == pixels.tobytes()
    assert not frame.raw.HasField("region")


def test_the_handoffs_refusal_is_the_workers_error(scripted):
    words = "the descriptor is not sealed against shrinking (F_SEAL_SHRINK)"
    handoff = FakeHandoff(pb.WorkerMessage(error=pb.Status(code=StatusCode.INVALID_ARGUMENT, message=words)))
    worker = scripted(detector_script(handoff))

    with mp.SharedFrameBuffer(4096) as buffer, vision.FaceDetector.create_from_options(
        vision.FaceDetectorOptions(base_options=mp.BaseOptions(socket_path=worker.path))
    ) as detector:
        with pytest.raises(mp.FaceWorkerError) as raised:
            detector.register_buffer(buffer)
        handoff.join()
        for fd in handoff.fds:
            os.close(fd)

        # A refused buffer is not registered: its frames are refused before they are sent.
        with pytest.raises(ValueError, match="not registered"):
            detector.detect(mp.Image(mp.ImageFormat.GRAY8, buffer.array((4, 4))))

    assert raised.value.code == StatusCode.INVALID_ARGUMENT
    assert raised.value.message == words
    assert frames_sent(worker) == []


def test_a_handoff_answer_for_another_buffer_is_a_protocol_error(scripted):
    handoff = FakeHandoff(registered(99, 4096))
    worker = scripted(detector_script(handoff, buffer_id=3))

    with mp.SharedFrameBuffer(4096) as buffer, vision.FaceDetector.create_from_options(
        vision.FaceDetectorOptions(base_options=mp.BaseOptions(socket_path=worker.path))
    ) as detector:
        with pytest.raises(mp.ProtocolError, match="buffer 3"):
            detector.register_buffer(buffer)
        handoff.join()
        for fd in handoff.fds:
            os.close(fd)


def test_bad_regions_and_views_are_refused_before_anything_is_sent(scripted):
    handoff = FakeHandoff(registered(3, 4096))
    worker = scripted(detector_script(handoff))

    with mp.SharedFrameBuffer(4096) as buffer, mp.SharedFrameBuffer(4096) as other, vision.FaceDetector.create_from_options(
        vision.FaceDetectorOptions(base_options=mp.BaseOptions(socket_path=worker.path))
    ) as detector:
        detector.register_buffer(buffer)
        with pytest.raises(ValueError, match="negative"):
            buffer.region(-1, 10)
        with pytest.raises(ValueError, match="negative"):
            mp.BufferRegion(buffer, -8, 10)
        with pytest.raises(ValueError, match="at least 1 byte"):
            buffer.region(0, 0)
        with pytest.raises(ValueError, match="does not fit"):
            buffer.array((64, 65))
        with pytest.raises(ValueError, match="does not lie in this SharedFrameBuffer"):
            buffer.region_of(np.zeros(10, np.uint8))
        with pytest.raises(ValueError, match="does not lie in this SharedFrameBuffer"):
            buffer.region_of(other.array(10))
        with pytest.raises(ValueError, match="not registered on this FaceDetector"):
            detector.detect(mp.Image(mp.ImageFormat.GRAY8, other.array((4, 4))))
        with pytest.raises(ValueError, match="padding must lie in the buffer"):
            mp.Image(mp.ImageFormat.SRGB, buffer.array((2, 2048))[:, 2000:2024].reshape(2, 8, 3))
        with pytest.raises(ValueError, match="flipped view"):
            mp.Image(mp.ImageFormat.SRGB, buffer.array((4, 4, 3))[::-1])
        with pytest.raises(ValueError, match="not registered"):
            detector.unregister_buffer(other)

    assert frames_sent(worker) == []


# Subscriptions.


def subscribe_script(options: pb.SessionOptions, events: List[pb.SessionEvent]) -> Script:
    """Answers Subscribe, then sends ``events`` under its call_id."""

    def script(message: pb.ClientMessage) -> List[pb.WorkerMessage]:
        if message.WhichOneof("kind") != "subscribe":
            return []
        answer = pb.SubscribeResponse(
            subscription_id=11, session_id=5, name=message.subscribe.name, options=options, queue_limit=64
        )
        return [pb.WorkerMessage(call_id=message.call_id, subscribe=answer)] + [
            pb.WorkerMessage(call_id=message.call_id, session_event=event) for event in events
        ]

    return script


class Heard:
    """Every callback of a subscriber, in order."""

    def __init__(self) -> None:
        self.calls: List[tuple] = []

    def options(self, path: str, name: str = "door") -> vision.FaceSubscriberOptions:
        # A scripted worker never comes back: these are the wire's events as they come, unreconnected
        # (test_reconnect.py follows a real worker across restarts).
        return vision.FaceSubscriberOptions(
            base_options=mp.BaseOptions(socket_path=path, reconnect=False),
            session_name=name,
            result_callback=lambda result, timestamp: self.calls.append(("result", result, timestamp)),
            frame_dropped_callback=lambda reason, timestamp: self.calls.append(("dropped", reason, timestamp)),
            frame_error_callback=lambda error, timestamp: self.calls.append(("error", error, timestamp)),
            events_missed_callback=lambda count: self.calls.append(("missed", count)),
            session_reset_callback=lambda: self.calls.append(("reset",)),
            session_ended_callback=lambda reason: self.calls.append(("ended", reason)),
        )


def face_result(timestamp: int) -> pb.FrameResult:
    face = pb.Face(bounding_box=pb.BoundingBox(x=1, y=2, width=30, height=40), score=0.9)
    return pb.FrameResult(session_id=5, timestamp_ms=timestamp, image_width=64, image_height=48, faces=[face])


def test_a_subscriber_hears_every_event_in_order_and_the_end(scripted):
    status = pb.Status(code=StatusCode.INVALID_ARGUMENT, message="not a JPEG", session_id=5, timestamp_ms=30)
    events = [
        pb.SessionEvent(subscription_id=11, frame_result=face_result(10)),
        pb.SessionEvent(subscription_id=11, frame_dropped=pb.FrameDropped(session_id=5, timestamp_ms=20, reason=1)),
        pb.SessionEvent(subscription_id=11, frame_error=status),
        pb.SessionEvent(subscription_id=11, events_missed=pb.EventsMissed(count=3)),
        pb.SessionEvent(subscription_id=11, session_reset=pb.SessionReset()),
        pb.SessionEvent(subscription_id=11, frame_result=face_result(1)),
        pb.SessionEvent(subscription_id=11, session_ended=pb.SessionEnded(reason=pb.SessionEnded.REASON_PRODUCER_GONE)),
    ]
    worker = scripted(subscribe_script(pb.SessionOptions(running_mode=pb.RUNNING_MODE_LIVE_STREAM), events))
    heard = Heard()

    with vision.FaceSubscriber.create_from_options(heard.options(worker.path)) as subscriber:
        assert subscriber.wait_for_end(timeout=30) == vision.SessionEndReason.PRODUCER_GONE
        assert (subscriber.session_name, subscriber.session_id, subscriber.queue_limit) == ("door", 5, 64)

    kinds = [call[0] for call in heard.calls]
    assert kinds == ["result", "dropped", "error", "missed", "reset", "result", "ended"]
    _, first, first_timestamp = heard.calls[0]
    assert isinstance(first, vision.FaceDetectorResult) and first_timestamp == 10
    assert first.detections[0].bounding_box == vision.BoundingBox(1, 2, 30, 40)
    assert heard.calls[1] == ("dropped", vision.DropReason.REPLACED, 20)
    _, error, error_timestamp = heard.calls[2]
    assert (error.code, error.message, error.timestamp_ms, error_timestamp) == (
        StatusCode.INVALID_ARGUMENT,
        "not a JPEG",
        30,
        30,
    )
    assert heard.calls[3] == ("missed", 3)
    assert heard.calls[5][2] == 1
    # The subscription had ended: close() sends no Unsubscribe.
    assert [message.WhichOneof("kind") for message in worker.received] == ["subscribe"]


def test_a_landmarker_sessions_subscriber_gets_landmarker_results(scripted):
    events = [
        pb.SessionEvent(subscription_id=11, frame_result=face_result(10)),
        pb.SessionEvent(subscription_id=11, session_ended=pb.SessionEnded(reason=pb.SessionEnded.REASON_SESSION_CLOSED)),
    ]
    worker = scripted(subscribe_script(pb.SessionOptions(output_face_mesh=True), events))
    heard = Heard()

    with vision.FaceSubscriber.create_from_options(heard.options(worker.path)) as subscriber:
        assert subscriber.wait_for_end(timeout=30) == vision.SessionEndReason.SESSION_CLOSED

    assert isinstance(heard.calls[0][1], vision.FaceLandmarkerResult)


def test_close_unsubscribes_and_hears_the_end(scripted):
    def script(message: pb.ClientMessage) -> List[pb.WorkerMessage]:
        if message.WhichOneof("kind") == "unsubscribe":
            ended = pb.SessionEvent(subscription_id=11, session_ended=pb.SessionEnded(reason=3))
            return [
                pb.WorkerMessage(call_id=subscribe_call[0], session_event=ended),
                pb.WorkerMessage(call_id=message.call_id, unsubscribe=pb.UnsubscribeResponse(subscription_id=11)),
            ]
        subscribe_call.append(message.call_id)
        return subscribe_script(pb.SessionOptions(), [])(message)

    subscribe_call: List[int] = []
    worker = scripted(script)
    heard = Heard()

    subscriber = vision.FaceSubscriber.create_from_options(heard.options(worker.path))
    assert subscriber.wait_for_end(timeout=0.1) is None
    subscriber.close()

    assert heard.calls == [("ended", vision.SessionEndReason.UNSUBSCRIBED)]
    assert worker.received[1].unsubscribe.subscription_id == 11


def test_a_refused_subscription_is_the_workers_error(scripted):
    words = "no open session is named door"
    worker = scripted(
        lambda m: [pb.WorkerMessage(call_id=m.call_id, error=pb.Status(code=StatusCode.NOT_FOUND, message=words))]
    )

    with pytest.raises(mp.FaceWorkerError) as raised:
        vision.FaceSubscriber.create_from_options(Heard().options(worker.path))

    assert (raised.value.code, raised.value.message) == (StatusCode.NOT_FOUND, words)


def test_a_callback_error_is_raised_by_wait_for_end(scripted):
    events = [
        pb.SessionEvent(subscription_id=11, frame_result=face_result(10)),
        pb.SessionEvent(subscription_id=11, session_ended=pb.SessionEnded(reason=1)),
    ]
    worker = scripted(subscribe_script(pb.SessionOptions(), events))

    def failing(result, timestamp):
        raise RuntimeError(f"callback failed at {timestamp}")

    options = vision.FaceSubscriberOptions(
        base_options=mp.BaseOptions(socket_path=worker.path), session_name="door", result_callback=failing
    )
    with vision.FaceSubscriber.create_from_options(options) as subscriber:
        with pytest.raises(RuntimeError, match="callback failed at 10"):
            subscriber.wait_for_end(timeout=30)
        assert subscriber.end_reason == vision.SessionEndReason.SESSION_CLOSED


def test_a_subscriber_needs_a_result_callback():
    with pytest.raises(ValueError, match="result callback"):
        vision.FaceSubscriber.create_from_options(vision.FaceSubscriberOptions(session_name="door"))


def test_a_lost_connection_ends_the_wait_with_the_error(scripted):
    worker = scripted(lambda message: subscribe_script(pb.SessionOptions(), [])(message) + [None])
    heard = Heard()
    subscriber = vision.FaceSubscriber.create_from_options(heard.options(worker.path))

    with pytest.raises(mp.FaceWorkerError) as raised:
        subscriber.wait_for_end(timeout=30)
    subscriber.close()

    assert raised.value.code == StatusCode.UNAVAILABLE
    assert heard.calls == []
