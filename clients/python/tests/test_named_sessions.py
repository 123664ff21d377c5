"""Named sessions against the worker: a subscriber hears what the producer gets, and the rules of names."""

from __future__ import annotations

import threading
from typing import List

import pytest

import faceworker as mp
from faceworker import StatusCode, vision
from faceworker._connection import Connection
from faceworker._proto import faceworker_pb2 as pb

from conftest import fixture_path, start_worker, stop_worker, video_frames


class Heard:
    """What a subscriber's callbacks received, and a way to wait for the end."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.results: List[tuple] = []
        self.errors: List[tuple] = []
        self.resets = 0
        self.ended: List[vision.SessionEndReason] = []

    def options(self, base_options: mp.BaseOptions, name: str) -> vision.FaceSubscriberOptions:
        return vision.FaceSubscriberOptions(
            base_options=base_options,
            session_name=name,
            result_callback=self.on_result,
            frame_error_callback=lambda error, timestamp: self.errors.append((error, timestamp)),
            session_reset_callback=self.on_reset,
            session_ended_callback=self.ended.append,
        )

    def on_result(self, result, timestamp_ms) -> None:
        with self.lock:
            self.results.append((result, timestamp_ms))

    def on_reset(self) -> None:
        self.resets += 1


def video_options(base_options, name, **options):
    return vision.FaceDetectorOptions(
        base_options=base_options, running_mode=vision.RunningMode.VIDEO, session_name=name, **options
    )


def subscribe(base_options, heard: Heard, name: str) -> vision.FaceSubscriber:
    return vision.FaceSubscriber.create_from_options(heard.options(base_options, name))


def test_a_subscriber_gets_every_result_of_the_producer_in_order(base_options):
    heard = Heard()
    images = [mp.Image.create_from_file(frame) for frame in video_frames()]
    produced = []

    producer = vision.FaceDetector.create_from_options(video_options(base_options, "order", tracking_enabled=True))
    assert producer.session_name == "order"
    with subscribe(base_options, heard, "order") as subscriber:
        assert subscriber.session_name == "order" and subscriber.queue_limit > 0
        for index, image in enumerate(images):
            produced.append(producer.detect_for_video(image, index * 33))
        producer.close()
        assert subscriber.wait_for_end(timeout=60) == vision.SessionEndReason.SESSION_CLOSED

    assert [timestamp for _, timestamp in heard.results] == [index * 33 for index in range(len(images))]
    # The very results the producer got, faces, tracking IDs and timings alike.
    assert [result for result, _ in heard.results] == produced
    assert heard.ended == [vision.SessionEndReason.SESSION_CLOSED]


def test_a_landmarker_sessions_subscriber_gets_its_meshes(base_options):
    heard = Heard()
    options = vision.FaceLandmarkerOptions(base_options=base_options, session_name="mesh")
    with vision.FaceLandmarker.create_from_options(options) as producer:
        with subscribe(base_options, heard, "mesh") as subscriber:
            produced = producer.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))
            producer.close()
            subscriber.wait_for_end(timeout=60)

    ((result, _),) = heard.results
    assert isinstance(result, vision.FaceLandmarkerResult)
    assert len(result.face_landmarks[0]) == 478
    assert result == produced


def test_a_subscriber_hears_the_producers_errors_and_resets(base_options):
    heard = Heard()
    image = mp.Image.create_from_file(video_frames()[0])
    with vision.FaceDetector.create_from_options(video_options(base_options, "errors")) as producer:
        with subscribe(base_options, heard, "errors") as subscriber:
            producer.detect_for_video(image, 10)
            with pytest.raises(mp.FaceWorkerError) as raised:
                producer.detect_for_video(b"not a JPEG", 20)
            producer.reset()
            producer.detect_for_video(image, 1)
            producer.close()
            subscriber.wait_for_end(timeout=60)

    assert [timestamp for _, timestamp in heard.results] == [10, 1]
    ((error, timestamp),) = heard.errors
    assert (error.code, error.message, timestamp) == (raised.value.code, raised.value.message, 20)
    assert heard.resets == 1


def test_close_unsubscribes_and_the_producer_goes_on(base_options):
    heard = Heard()
    image = mp.Image.create_from_file(fixture_path("astronaut.jpg"))
    with vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options, session_name="leave")) as producer:
        subscriber = subscribe(base_options, heard, "leave")
        producer.detect(image)
        subscriber.close()
        assert subscriber.end_reason == vision.SessionEndReason.UNSUBSCRIBED
        assert len(producer.detect(image).detections) == 1

    assert heard.ended == [vision.SessionEndReason.UNSUBSCRIBED]


def test_a_producer_that_goes_away_ends_the_subscription(base_options):
    heard = Heard()
    producer = vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options, session_name="gone"))
    with subscribe(base_options, heard, "gone") as subscriber:
        # The connection closes without closing the session first.
        producer._connection.close()
        assert subscriber.wait_for_end(timeout=60) == vision.SessionEndReason.PRODUCER_GONE


def open_named(base_options, name):
    return vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options, session_name=name))


@pytest.mark.parametrize(
    "name", ["", "x" * 129, "é" * 64 + "x", "line\nbreak", "tab\there", "nul\0"], ids=["empty", "129-bytes", "129-utf8-bytes", "newline", "tab", "nul"]
)
def test_a_bad_session_name_is_invalid_argument(base_options, name):
    with pytest.raises(mp.FaceWorkerError) as raised:
        open_named(base_options, name)

    assert raised.value.code == StatusCode.INVALID_ARGUMENT
    assert "name" in raised.value.message


def test_a_name_of_128_bytes_is_accepted(base_options):
    with open_named(base_options, "é" * 64) as producer:
        assert producer.session_name == "é" * 64


def test_a_name_in_use_is_already_exists_until_its_session_closes(base_options):
    with open_named(base_options, "taken"):
        with pytest.raises(mp.FaceWorkerError) as raised:
            open_named(base_options, "taken")
    with open_named(base_options, "taken") as again:
        assert again.session_name == "taken"

    assert raised.value.code == StatusCode.ALREADY_EXISTS
    assert "taken" in raised.value.message


def test_subscribing_to_no_session_is_not_found_and_to_no_name_invalid_argument(base_options):
    with pytest.raises(mp.FaceWorkerError) as unknown:
        subscribe(base_options, Heard(), "nobody-has-this-name")
    with pytest.raises(mp.FaceWorkerError) as empty:
        subscribe(base_options, Heard(), "")

    assert unknown.value.code == StatusCode.NOT_FOUND
    assert "nobody-has-this-name" in unknown.value.message
    assert empty.value.code == StatusCode.INVALID_ARGUMENT


def test_subscribing_to_your_own_session_is_failed_precondition(worker):
    connection = Connection(worker.socket_path)
    try:
        connection.call(pb.ClientMessage(open_session=pb.OpenSessionRequest(name="mine")))
        with pytest.raises(mp.FaceWorkerError) as raised:
            connection.call(pb.ClientMessage(subscribe=pb.SubscribeRequest(name="mine")))
    finally:
        connection.close()

    assert raised.value.code == StatusCode.FAILED_PRECONDITION
    assert raised.value.message


def test_more_subscribers_than_allowed_is_resource_exhausted(tmp_path):
    worker = start_worker(tmp_path, "--max-subscribers-per-session", "1")
    try:
        with open_named(worker.base_options, "popular"):
            with subscribe(worker.base_options, Heard(), "popular"):
                with pytest.raises(mp.FaceWorkerError) as raised:
                    subscribe(worker.base_options, Heard(), "popular")
        stats = mp.get_stats(worker.socket_path)
    finally:
        stop_worker(worker)

    assert raised.value.code == StatusCode.RESOURCE_EXHAUSTED
    assert "1" in raised.value.message
    assert stats.subscriptions == 0
