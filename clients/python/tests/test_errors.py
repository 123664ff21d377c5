"""Errors: the worker's refusals carry its status code and message; a missing worker says how to start it."""

from __future__ import annotations

import numpy as np
import pytest

import faceworker as mp
from faceworker import BaseOptions, StatusCode, vision

from conftest import fixture_path, start_worker, stop_worker


def test_tracking_in_image_mode_is_invalid_argument_that_says_why(base_options):
    options = vision.FaceDetectorOptions(base_options=base_options, tracking_enabled=True)

    with pytest.raises(mp.FaceWorkerError) as raised:
        vision.FaceDetector.create_from_options(options)

    assert raised.value.code == StatusCode.INVALID_ARGUMENT
    assert "tracking_enabled" in raised.value.message and "IMAGE" in raised.value.message


def test_a_corrupt_jpeg_is_invalid_argument_and_the_detector_goes_on(base_options):
    with open(fixture_path("astronaut.jpg"), "rb") as file:
        jpeg = file.read()
    with vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options)) as detector:
        for corrupt in (b"this is not a JPEG", jpeg[:2] + b"\xff\xe0\x00\x04ab" + b"\x00" * 100):
            with pytest.raises(mp.FaceWorkerError) as raised:
                detector.detect(corrupt)
            assert raised.value.code == StatusCode.INVALID_ARGUMENT
            assert raised.value.message

        assert len(detector.detect(jpeg).detections) == 1


def test_raw_bytes_that_do_not_fit_their_size_are_invalid_argument(base_options):
    with vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options)) as detector:
        with pytest.raises(mp.FaceWorkerError) as raised:
            detector.detect(mp.Image(mp.ImageFormat.SRGB, b"\x00" * 100, width=64, height=64))

    assert raised.value.code == StatusCode.INVALID_ARGUMENT


def test_a_worker_that_is_not_running_says_how_to_start_it(tmp_path):
    socket_path = str(tmp_path / "nobody.sock")
    options = vision.FaceDetectorOptions(base_options=BaseOptions(socket_path=socket_path))

    with pytest.raises(mp.WorkerNotRunningError) as raised:
        vision.FaceDetector.create_from_options(options)

    error = raised.value
    assert isinstance(error, mp.FaceWorkerError)
    assert error.code == StatusCode.UNAVAILABLE
    assert "make run" in str(error)
    assert f"face-worker --socket {socket_path}" in str(error)


def test_a_stale_socket_file_also_means_not_running(tmp_path):
    import socket

    path = str(tmp_path / "stale.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.close()  # the file stays, but nobody listens

    with pytest.raises(mp.WorkerNotRunningError):
        mp.ping(path)


def test_a_worker_that_stops_fails_the_calls_with_unavailable(tmp_path):
    worker = start_worker(tmp_path)
    try:
        detector = vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=worker.base_options))
        image = mp.Image.create_from_file(fixture_path("astronaut.jpg"))
        assert len(detector.detect(image).detections) == 1
    finally:
        stop_worker(worker)

    with pytest.raises(mp.FaceWorkerError) as raised:
        detector.detect(image)
    assert raised.value.code == StatusCode.UNAVAILABLE
    detector.close()


def test_the_workers_limits_come_back_as_resource_exhausted_with_its_message(tmp_path):
    worker = start_worker(tmp_path, "--max-pixels", "10000", "--max-message-bytes", "200000")
    try:
        detector = vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=worker.base_options))
        small = np.zeros((64, 64, 3), np.uint8)

        with pytest.raises(mp.FaceWorkerError) as too_many_pixels:
            detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))
        assert detector.detect(mp.Image(mp.ImageFormat.SRGB, small)).detections == []

        # 512 x 512 x 3 bytes exceed the message limit: the worker says so, then closes the connection.
        with pytest.raises(mp.FaceWorkerError) as too_large:
            detector.detect(mp.Image(mp.ImageFormat.SRGB, np.zeros((512, 512, 3), np.uint8)))
        with pytest.raises(mp.FaceWorkerError) as afterwards:
            detector.detect(mp.Image(mp.ImageFormat.SRGB, small))
        detector.close()
    finally:
        stop_worker(worker)

    assert too_many_pixels.value.code == StatusCode.RESOURCE_EXHAUSTED
    assert "10000" in too_many_pixels.value.message
    assert too_large.value.code == StatusCode.RESOURCE_EXHAUSTED
    assert "200000" in too_large.value.message
    assert afterwards.value.code == StatusCode.RESOURCE_EXHAUSTED


def test_a_bare_array_is_refused_because_its_channel_order_is_unknown(base_options):
    with vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options)) as detector:
        with pytest.raises(TypeError, match="SRGB"):
            detector.detect(np.zeros((8, 8, 3), np.uint8))


def test_a_closed_detector_refuses_calls(base_options):
    detector = vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options))
    detector.close()
    detector.close()  # closing twice is harmless

    with pytest.raises(ValueError, match="closed"):
        detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))
