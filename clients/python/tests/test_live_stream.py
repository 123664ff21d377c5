"""LIVE_STREAM mode: callbacks for every frame, drops, and errors raised in the caller's thread."""

from __future__ import annotations

import threading
import time

import pytest

import faceworker as mp
from faceworker import StatusCode, vision
from faceworker._proto import faceworker_pb2 as pb

from conftest import fixture_path, video_frames


class Recorder:
    """Collects what the callbacks receive, from the reader thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.results = []
        self.dropped = []
        self.threads = set()

    def on_result(self, result, image, timestamp_ms) -> None:
        with self.lock:
            self.results.append((result, image, timestamp_ms))
            self.threads.add(threading.current_thread().name)

    def on_dropped(self, reason, image, timestamp_ms) -> None:
        with self.lock:
            self.dropped.append((reason, image, timestamp_ms))


def until(condition, what: str) -> None:
    """Waits for ``condition``; the deadline only stops a test that would otherwise hang."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, f"waited 30 s: {what}"
        time.sleep(0.01)


def live_options(base_options, recorder, **options):
    return vision.FaceDetectorOptions(
        base_options=base_options,
        running_mode=vision.RunningMode.LIVE_STREAM,
        result_callback=recorder.on_result,
        frame_dropped_callback=recorder.on_dropped,
        **options,
    )


def test_every_frame_is_answered_or_reported_dropped(base_options):
    recorder = Recorder()
    images = [mp.Image.create_from_file(frame) for frame in video_frames()]
    timestamps = [index * 33 for index in range(len(images))]

    detector = vision.FaceDetector.create_from_options(live_options(base_options, recorder, tracking_enabled=True))
    for image, timestamp in zip(images, timestamps):
        assert detector.detect_async(image, timestamp) is None
    detector.close()

    answered = [timestamp for _, _, timestamp in recorder.results]
    dropped = [timestamp for _, _, timestamp in recorder.dropped]
    assert sorted(answered + dropped) == timestamps
    assert answered == sorted(answered)
    # How many frames a newer one replaced depends on how fast the worker runs; that each one it
    # replaced is told, and why, does not.
    assert {reason for reason, _, _ in recorder.dropped} <= {vision.DropReason.REPLACED}
    # close() lets the newest frame be processed rather than dropped.
    assert answered[-1] == timestamps[-1]
    for result, image, timestamp in recorder.results:
        assert result.timestamp_ms == timestamp
        assert image is images[timestamps.index(timestamp)]
        assert len(result.detections) == 1
        assert result.detections[0].tracking_id is not None
    assert recorder.threads == {"faceworker-reader"}


def test_a_live_stream_answers_sent_frames_in_order_and_the_newest_always(base_options):
    answered = []
    options = vision.FaceDetectorOptions(
        base_options=base_options,
        running_mode=vision.RunningMode.LIVE_STREAM,
        result_callback=lambda result, image, timestamp: answered.append((result.timestamp_ms, timestamp)),
    )
    image = mp.Image.create_from_file(video_frames()[0])
    sent = list(range(1, 11))
    # close() waits for every answer, and raises an error any frame met.
    with vision.FaceDetector.create_from_options(options) as detector:
        for timestamp in sent:
            detector.detect_async(image, timestamp)

    timestamps = [timestamp for _, timestamp in answered]
    assert all(result_timestamp == timestamp for result_timestamp, timestamp in answered)
    assert set(timestamps) <= set(sent), "each result is for a frame that was sent"
    assert all(earlier < later for earlier, later in zip(timestamps, timestamps[1:])), "in order, each once"
    # The newest frame is never replaced, and close() waits for it.
    assert timestamps[-1] == sent[-1]


def test_without_a_drop_callback_drops_pass_silently_as_in_mediapipe(tmp_path):
    # A scripted worker, so that frames are certainly dropped: each but the last is replaced.
    from test_shared_wire import ScriptedWorker, opened

    def script(message: pb.ClientMessage) -> list:
        kind = message.WhichOneof("kind")
        if kind == "open_session":
            return [opened(message)]
        if kind == "process_frame":
            timestamp = message.process_frame.frame.timestamp_ms
            if timestamp < 10:
                dropped = pb.FrameDropped(session_id=7, timestamp_ms=timestamp, reason=pb.FrameDropped.REASON_REPLACED)
                return [pb.WorkerMessage(call_id=message.call_id, frame_dropped=dropped)]
            result = pb.FrameResult(session_id=7, timestamp_ms=timestamp, image_width=64, image_height=48)
            return [pb.WorkerMessage(call_id=message.call_id, frame_result=result)]
        if kind == "close_session":
            return [pb.WorkerMessage(call_id=message.call_id, close_session=pb.CloseSessionResponse())]
        return []

    worker = ScriptedWorker(str(tmp_path / "faceworker.sock"), script)
    results = []
    options = vision.FaceDetectorOptions(
        base_options=mp.BaseOptions(socket_path=worker.path),
        running_mode=vision.RunningMode.LIVE_STREAM,
        result_callback=lambda result, image, timestamp: results.append(timestamp),
    )
    image = mp.Image.create_from_file(video_frames()[0])
    try:
        with vision.FaceDetector.create_from_options(options) as detector:
            for timestamp in range(1, 11):
                detector.detect_async(image, timestamp)
    finally:
        worker.stop()

    assert results == [10]


def test_a_live_frame_error_is_raised_by_close(base_options):
    answered = threading.Event()
    results = []

    def on_result(result, image, timestamp):
        results.append(timestamp)
        answered.set()

    options = vision.FaceDetectorOptions(
        base_options=base_options, running_mode=vision.RunningMode.LIVE_STREAM, result_callback=on_result
    )
    image = mp.Image.create_from_file(video_frames()[0])
    detector = vision.FaceDetector.create_from_options(options)
    detector.detect_async(image, 10)
    assert answered.wait(30)
    detector.detect_async(image, 5)

    with pytest.raises(mp.FaceWorkerError) as raised:
        # The error arrives asynchronously; close() waits for every answer.
        detector.close()

    assert raised.value.code == StatusCode.INVALID_ARGUMENT
    assert "timestamp" in raised.value.message.lower()
    assert results == [10]


def test_a_live_frame_error_is_raised_by_the_next_detect_async(base_options):
    recorder = Recorder()
    image = mp.Image.create_from_file(video_frames()[0])
    failed_before = mp.get_stats(base_options.socket_path).frames_failed
    with vision.FaceDetector.create_from_options(live_options(base_options, recorder)) as detector:
        # Sent alone, so that no newer frame replaces it before it is decoded.
        detector.detect_async(b"not a JPEG", 1)
        until(lambda: mp.get_stats(base_options.socket_path).frames_failed > failed_before, "the worker answers the frame")
        with pytest.raises(mp.FaceWorkerError) as raised:
            # The error was answered before the next frame's result, so once that result is in, it is known.
            detector.detect_async(image, 2)
            until(lambda: len(recorder.results) == 1, "the next frame is answered")
            detector.detect_async(image, 3)

    assert raised.value.code == StatusCode.INVALID_ARGUMENT
    assert recorder.dropped == []


def test_a_callback_exception_is_raised_in_the_caller_thread(base_options):
    def failing(result, image, timestamp):
        raise RuntimeError(f"callback failed at {timestamp}")

    options = vision.FaceDetectorOptions(
        base_options=base_options, running_mode=vision.RunningMode.LIVE_STREAM, result_callback=failing
    )
    detector = vision.FaceDetector.create_from_options(options)
    detector.detect_async(mp.Image.create_from_file(fixture_path("astronaut.jpg")), 7)

    with pytest.raises(RuntimeError, match="callback failed at 7"):
        detector.close()


def test_live_stream_needs_a_result_callback_and_other_modes_refuse_one(base_options):
    with pytest.raises(ValueError, match="result callback must be provided"):
        vision.FaceDetector.create_from_options(
            vision.FaceDetectorOptions(base_options=base_options, running_mode=vision.RunningMode.LIVE_STREAM)
        )
    with pytest.raises(ValueError, match="should not be provided"):
        vision.FaceDetector.create_from_options(
            vision.FaceDetectorOptions(base_options=base_options, result_callback=lambda *args: None)
        )


def test_a_waiting_call_from_a_callback_is_refused_instead_of_deadlocking(base_options):
    errors = []
    image = mp.Image.create_from_file(fixture_path("astronaut.jpg"))

    def calls_reset(result, image, timestamp):
        try:
            detector.reset()
        except RuntimeError as error:
            errors.append(error)

    options = vision.FaceDetectorOptions(
        base_options=base_options, running_mode=vision.RunningMode.LIVE_STREAM, result_callback=calls_reset
    )
    detector = vision.FaceDetector.create_from_options(options)
    detector.detect_async(image, 1)
    detector.close()

    assert len(errors) == 1
    assert "callback" in str(errors[0])
