"""A task outlives its worker: reconnects across real worker restarts, on the same socket path and
under socket activation (a parent that holds the listening socket across restarts)."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Iterator, List, Optional

import pytest

import faceworker as mp
from faceworker import (
    BaseOptions,
    ConnectionLostError,
    FaceWorkerError,
    SharedFrameBuffer,
    StatusCode,
    WorkerStoppingError,
    vision,
)
from faceworker._proto import faceworker_pb2 as pb
from faceworker.vision import DropReason, Outage, ReconnectPolicy, RunningMode

from conftest import fixture_path, video_frames
from worker_process import MODELS, answers_ping, launch, stop

# Long enough for a debug worker to load its models on a shared machine.
DEADLINE_SECONDS = 60.0


class RestartableWorker:
    """A worker on a fixed socket that the test stops and starts again.

    With ``activated``, this object plays the service manager: it binds the socket once and passes
    it to each worker as LISTEN_FDS, so connections made while no worker runs wait in its queue.
    """

    def __init__(self, directory: Path, activated: bool = False) -> None:
        self.socket_path = str(directory / "faceworker.sock")
        self.directory = directory
        self.listener: Optional[socket.socket] = None
        if activated:
            self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.listener.bind(self.socket_path)
            self.listener.listen(64)
        self.starts = 0
        self.process = self.start()

    def start(self) -> subprocess.Popen:
        self.starts += 1
        log = self.directory / f"worker-{self.starts}.log"
        ready = lambda: answers_ping(self.socket_path)  # noqa: E731
        if self.listener is None:
            self.process = launch(["--socket", self.socket_path], log, ready, "a ping")
        else:
            fd = self.listener.fileno()

            def pass_listener() -> None:
                # In the child: the socket becomes descriptor 3, announced for this very process.
                os.dup2(fd, 3)
                os.environ["LISTEN_FDS"] = "1"
                os.environ["LISTEN_PID"] = str(os.getpid())

            self.process = launch(["--socket", self.socket_path], log, ready, "a ping",
                                  preexec_fn=pass_listener, pass_fds=(3,))
        return self.process

    def restart(self, kill: bool = False) -> None:
        """Stops the worker (SIGTERM and its drain, or SIGKILL) and starts a new one."""
        self.stop(kill)
        self.start()

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
            self.process.wait()
        else:
            stop(self.process)

    def close(self) -> None:
        self.stop()
        if self.listener is not None:
            self.listener.close()


@pytest.fixture(params=["socket", "activated"])
def restartable(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RestartableWorker]:
    running = RestartableWorker(tmp_path, activated=request.param == "activated")
    yield running
    running.close()


class Outages:
    """Collects the outage notices of a task."""

    def __init__(self) -> None:
        self.notices: "queue.Queue[Outage]" = queue.Queue()

    def policy(self, deadline_seconds: float = DEADLINE_SECONDS) -> ReconnectPolicy:
        return ReconnectPolicy(deadline_seconds=deadline_seconds, outage_callback=self.notices.put)

    def next(self) -> Outage:
        return self.notices.get(timeout=DEADLINE_SECONDS + 10)


def jpeg(name: str = "astronaut.jpg") -> bytes:
    return Path(fixture_path(name)).read_bytes()


def wait_until_pending(task: vision.FaceDetector, count: int) -> None:
    """Waits until ``count`` calls of the task are on the wire, unanswered."""
    deadline = time.monotonic() + 30
    while len(task._connection._pending) < count:
        assert time.monotonic() < deadline, "the calls were never sent"
        time.sleep(0.01)


def test_image_mode_survives_a_restart(restartable: RestartableWorker) -> None:
    outages = Outages()
    options = vision.FaceDetectorOptions(
        base_options=BaseOptions(socket_path=restartable.socket_path, reconnect=outages.policy()))
    with vision.FaceDetector.create_from_options(options) as detector:
        assert len(detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg"))).detections) == 1
        restartable.restart()
        result = detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))
        assert len(result.detections) == 1
        assert result.session_restarted
        outage = outages.next()
        assert outage.error is None and outage.cause.code == StatusCode.UNAVAILABLE
        assert outage.dropped_frames == 0
        # The next result is an ordinary one again, and the notice came once.
        assert not detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg"))).session_restarted
        assert outages.notices.empty()


def test_video_call_in_flight_raises_unavailable_once(restartable: RestartableWorker) -> None:
    outages = Outages()
    frames = video_frames()
    options = vision.FaceDetectorOptions(
        base_options=BaseOptions(socket_path=restartable.socket_path, reconnect=outages.policy()),
        running_mode=RunningMode.VIDEO, tracking_enabled=True)
    with vision.FaceDetector.create_from_options(options) as detector:
        first = detector.detect_for_video(mp.Image.create_from_file(frames[0]), 0)
        assert first.detections and first.detections[0].tracking_id is not None
        # A frame on the wire that the worker will never answer: stopped, then killed.
        restartable.process.send_signal(signal.SIGSTOP)
        failures: "queue.Queue[BaseException]" = queue.Queue()

        def in_flight() -> None:
            try:
                detector.detect_for_video(mp.Image.create_from_file(frames[1]), 33)
            except BaseException as error:  # noqa: BLE001 - handed to the test's thread
                failures.put(error)

        caller = threading.Thread(target=in_flight)
        caller.start()
        wait_until_pending(detector, 1)
        restartable.restart(kill=True)
        caller.join()
        error = failures.get_nowait()
        assert isinstance(error, FaceWorkerError) and error.code == StatusCode.UNAVAILABLE
        # The next call works, on a session that tracks anew (its timestamps go on from the old ones).
        after = detector.detect_for_video(mp.Image.create_from_file(frames[2]), 66)
        assert after.session_restarted and after.detections
        assert outages.next().dropped_frames == 1


def test_live_stream_frames_in_flight_are_dropped_never_lost(restartable: RestartableWorker) -> None:
    outages = Outages()
    answers: "queue.Queue[tuple]" = queue.Queue()
    options = vision.FaceDetectorOptions(
        base_options=BaseOptions(socket_path=restartable.socket_path, reconnect=outages.policy()),
        running_mode=RunningMode.LIVE_STREAM,
        result_callback=lambda result, image, timestamp: answers.put(("result", timestamp, result)),
        frame_dropped_callback=lambda reason, image, timestamp: answers.put((reason, timestamp, None)))
    image = mp.Image.create_from_file(fixture_path("astronaut.jpg"))
    with vision.FaceDetector.create_from_options(options) as detector:
        detector.detect_async(image, 0)
        assert answers.get(timeout=30)[0] == "result"
        restartable.process.send_signal(signal.SIGSTOP)
        # Three fit in the socket's buffer, so sending them never waits for the stopped worker.
        stranded = list(range(1, 4))
        for timestamp in stranded:
            detector.detect_async(image, timestamp)
        wait_until_pending(detector, len(stranded))
        restartable.restart(kill=True)
        outage = outages.next()
        assert outage.error is None and outage.dropped_frames == len(stranded)
        detector.detect_async(image, 100)
        heard = {}
        while 100 not in heard:
            kind, timestamp, result = answers.get(timeout=30)
            assert timestamp not in heard, f"frame {timestamp} was answered twice"
            heard[timestamp] = (kind, result)
    assert all(heard[timestamp][0] == DropReason.WORKER_RESTARTED for timestamp in stranded)
    assert heard[100][0] == "result" and heard[100][1].session_restarted
    assert answers.empty()


def test_a_named_session_and_its_subscriber_come_back(restartable: RestartableWorker) -> None:
    producer_outages, subscriber_outages = Outages(), Outages()
    results: "queue.Queue[int]" = queue.Queue()
    resets = threading.Event()
    image = mp.Image.create_from_file(fixture_path("astronaut.jpg"))
    producer_options = vision.FaceDetectorOptions(
        base_options=BaseOptions(socket_path=restartable.socket_path, reconnect=producer_outages.policy()),
        running_mode=RunningMode.VIDEO, session_name="door-camera")
    with vision.FaceDetector.create_from_options(producer_options) as producer:
        subscriber_options = vision.FaceSubscriberOptions(
            base_options=BaseOptions(socket_path=restartable.socket_path, reconnect=subscriber_outages.policy()),
            session_name="door-camera",
            result_callback=lambda result, timestamp: results.put(timestamp),
            session_reset_callback=resets.set)
        with vision.FaceSubscriber.create_from_options(subscriber_options) as subscriber:
            producer.detect_for_video(image, 1)
            assert results.get(timeout=30) == 1
            restartable.restart()
            # The producer's next call waits for its session, under the same name, on the new worker.
            assert producer.detect_for_video(image, 2).session_restarted
            assert producer.session_name == "door-camera"
            assert subscriber_outages.next().error is None
            assert resets.is_set()
            # Frames sent once the subscriber is back reach it.
            producer.detect_for_video(image, 3)
            heard = []
            while 3 not in heard:
                heard.append(results.get(timeout=30))
            assert subscriber.end_reason is None and subscriber.wait_for_end(timeout=0) is None
    assert producer_outages.next().error is None


def test_shared_memory_buffers_are_registered_again(restartable: RestartableWorker) -> None:
    outages = Outages()
    data = jpeg()
    options = vision.FaceDetectorOptions(
        base_options=BaseOptions(socket_path=restartable.socket_path, reconnect=outages.policy()))
    with SharedFrameBuffer(len(data)) as buffer, vision.FaceDetector.create_from_options(options) as detector:
        region = buffer.write(data)
        detector.register_buffer(buffer)
        assert len(detector.detect(region).detections) == 1
        restartable.restart()
        assert len(detector.detect(region).detections) == 1
        assert outages.next().error is None


def test_the_reconnect_gives_up_at_its_deadline(tmp_path: Path) -> None:
    worker = RestartableWorker(tmp_path)
    outages = Outages()
    deadline = 1.0
    options = vision.FaceDetectorOptions(
        base_options=BaseOptions(socket_path=worker.socket_path, reconnect=outages.policy(deadline)))
    detector = vision.FaceDetector.create_from_options(options)
    worker.stop()
    outage = outages.next()
    assert outage.error is not None and outage.error.code == StatusCode.UNAVAILABLE
    # The deadline is what this test is about, so its time is checked: never before it, and well short
    # of the policy's default (30 s) or the test's own wait, with room for a loaded machine.
    assert deadline <= outage.seconds < deadline + 10.0
    # Every later call raises why, at once: the worker is not awaited again.
    for _ in range(2):
        with pytest.raises(FaceWorkerError) as raised:
            detector.detect(jpeg())
        assert raised.value.code == StatusCode.UNAVAILABLE and "within 1 s" in raised.value.message
    detector.close()
    assert outages.notices.empty(), "the outage is told once"


def test_a_worker_that_refuses_the_options_ends_the_outage_with_its_error(tmp_path: Path) -> None:
    # The task asks for FACE_LANDMARKER; the new worker runs without the bundle and refuses it.
    worker = RestartableWorker(tmp_path)
    outages = Outages()
    options = vision.FaceLandmarkerOptions(
        base_options=BaseOptions(socket_path=worker.socket_path, reconnect=outages.policy()))
    lean = tmp_path / "models-without-bundle"
    lean.mkdir()
    for path in MODELS.iterdir():
        if path.name != "face_landmarker.task":
            (lean / path.name).symlink_to(path.resolve())
    with vision.FaceLandmarker.create_from_options(options) as landmarker:
        worker.stop()
        bare = launch(["--socket", worker.socket_path], tmp_path / "bare.log",
                      lambda: answers_ping(worker.socket_path), "a ping", models=lean)
        try:
            outage = outages.next()
            # The worker's own refusal, not the UNAVAILABLE a reconnect gives up with at its deadline:
            # a refusal is not retried.
            assert outage.error is not None and outage.error.code == StatusCode.FAILED_PRECONDITION
            with pytest.raises(FaceWorkerError) as raised:
                landmarker.detect(jpeg())
            assert raised.value.code == StatusCode.FAILED_PRECONDITION
        finally:
            stop(bare)


def test_without_reconnect_every_later_call_raises_unavailable(tmp_path: Path) -> None:
    worker = RestartableWorker(tmp_path)
    options = vision.FaceDetectorOptions(base_options=BaseOptions(socket_path=worker.socket_path, reconnect=False))
    try:
        with vision.FaceDetector.create_from_options(options) as detector:
            assert detector.detect(jpeg()).detections
            worker.restart()
            for _ in range(2):
                with pytest.raises(FaceWorkerError) as raised:
                    detector.detect(jpeg())
                assert raised.value.code == StatusCode.UNAVAILABLE
    finally:
        worker.close()


def test_without_reconnect_a_subscriber_hears_the_worker_stopping(tmp_path: Path) -> None:
    worker = RestartableWorker(tmp_path)
    ended: "queue.Queue[object]" = queue.Queue()
    producer_options = vision.FaceDetectorOptions(
        base_options=BaseOptions(socket_path=worker.socket_path, reconnect=False),
        running_mode=RunningMode.VIDEO, session_name="stopping-camera")
    try:
        with vision.FaceDetector.create_from_options(producer_options):
            options = vision.FaceSubscriberOptions(
                base_options=BaseOptions(socket_path=worker.socket_path, reconnect=False),
                session_name="stopping-camera", result_callback=lambda result, timestamp: None,
                session_ended_callback=ended.put)
            subscriber = vision.FaceSubscriber.create_from_options(options)
            worker.stop()
            assert subscriber.wait_for_end(timeout=30) == vision.SessionEndReason.WORKER_STOPPING
            assert ended.get_nowait() == vision.SessionEndReason.WORKER_STOPPING
            subscriber.close()
    finally:
        worker.close()


@pytest.mark.parametrize("refusal", ["unimplemented", "not-a-worker-message"])
def test_a_worker_that_speaks_another_protocol_ends_the_outage_with_its_error(
    tmp_path: Path, refusal: str
) -> None:
    # The wire tests' fakes play both workers, on one socket path: the first opens the session and
    # hangs up on the first frame; the one that comes back does not speak this protocol (a call it
    # does not know, or bytes that are no WorkerMessage).
    from test_shared_wire import HEADER, ScriptedWorker, opened
    from test_wire import FakeWorker

    path = str(tmp_path / "faceworker.sock")

    def old(message: pb.ClientMessage) -> list:
        return [opened(message)] if message.WhichOneof("kind") == "open_session" else [None]

    asked: List[pb.ClientMessage] = []

    def newer(message: pb.ClientMessage) -> list:
        asked.append(message)
        return [pb.WorkerMessage(call_id=message.call_id, error=pb.Status(
            code=StatusCode.UNIMPLEMENTED, message="faceworker.v2 does not know this call"))]

    first = ScriptedWorker(path, old)
    outages = Outages()
    options = vision.FaceDetectorOptions(base_options=BaseOptions(socket_path=path, reconnect=outages.policy()))
    detector = vision.FaceDetector.create_from_options(options)
    with pytest.raises(FaceWorkerError) as cut:
        detector.detect(jpeg())
    assert cut.value.code == StatusCode.UNAVAILABLE
    first.stop()
    os.unlink(path)
    if refusal == "unimplemented":
        second = ScriptedWorker(path, newer)
        expected = StatusCode.UNIMPLEMENTED
    else:
        second = FakeWorker(path, lambda message: asked.append(message) or HEADER.pack(0, 3) + b"\xff\xff\xff")
        expected = StatusCode.DATA_LOSS
    try:
        outage = outages.next()
        assert outage.error is not None and outage.error.code == expected, outage
        for _ in range(2):
            with pytest.raises(FaceWorkerError) as raised:
                detector.detect(jpeg())
            assert raised.value.code == expected
        # The worker's answer is not retried: it was asked once, and the later calls raise it without asking again.
        assert [message.WhichOneof("kind") for message in asked] == ["open_session"]
    finally:
        detector.close()
        second.stop()



def test_a_stopping_worker_is_told_from_a_cut_connection(tmp_path: Path) -> None:
    # A draining worker refuses a frame with UNAVAILABLE and its reason, then hangs up on the next:
    # the application hears the worker's words first, then the client's own about the cut.
    from test_shared_wire import ScriptedWorker, opened

    frames = []

    def draining(message: pb.ClientMessage) -> list:
        if message.WhichOneof("kind") == "open_session":
            return [opened(message)]
        frames.append(message)
        if len(frames) == 1:
            return [pb.WorkerMessage(call_id=message.call_id, error=pb.Status(
                code=StatusCode.UNAVAILABLE, message="the worker is shutting down"))]
        return [None]

    worker = ScriptedWorker(str(tmp_path / "faceworker.sock"), draining)
    options = vision.FaceDetectorOptions(base_options=BaseOptions(socket_path=worker.path, reconnect=False))
    try:
        with vision.FaceDetector.create_from_options(options) as detector:
            with pytest.raises(FaceWorkerError) as refused:
                detector.detect(jpeg())
            assert isinstance(refused.value, WorkerStoppingError) and not isinstance(refused.value, ConnectionLostError)
            assert refused.value.code == StatusCode.UNAVAILABLE
            assert refused.value.message == "the worker is shutting down"
            with pytest.raises(FaceWorkerError) as cut:
                detector.detect(jpeg())
            assert isinstance(cut.value, ConnectionLostError) and not isinstance(cut.value, WorkerStoppingError)
            assert cut.value.code == StatusCode.UNAVAILABLE
            assert "shutting down" not in cut.value.message and "closed" in cut.value.message, cut.value.message
    finally:
        worker.stop()
