"""Shared-memory frames against the worker: the same faces as bytes sent inline, and every bad input refused clearly."""

from __future__ import annotations

import fcntl
import os
import threading

import numpy as np
import pytest
from PIL import Image as PILImage

import faceworker as mp
from faceworker import StatusCode, vision
from faceworker._connection import Connection
from faceworker._handoff import register
from faceworker._proto import faceworker_pb2 as pb

from conftest import fixture_path, start_worker, stop_worker, video_frames


def rgb_pixels(name: str) -> np.ndarray:
    with PILImage.open(fixture_path(name)) as picture:
        return np.asarray(picture.convert("RGB"))


def nv12_bytes(rgb: np.ndarray) -> bytes:
    """BT.601 limited-range NV12 of an even-sized RGB image."""
    r, g, b = (rgb[:, :, channel].astype(np.float64) for channel in range(3))
    y = 16 + 0.257 * r + 0.504 * g + 0.098 * b
    u = 128 - 0.148 * r - 0.291 * g + 0.439 * b
    v = 128 + 0.439 * r - 0.368 * g - 0.071 * b
    block = lambda plane: plane.reshape(plane.shape[0] // 2, 2, plane.shape[1] // 2, 2).mean(axis=(1, 3))  # noqa: E731
    chroma = np.stack([block(u), block(v)], axis=-1)
    return np.concatenate([y.ravel(), chroma.ravel()]).round().clip(0, 255).astype(np.uint8).tobytes()


def detector(base_options):
    return vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options))


def test_a_jpeg_in_shared_memory_gives_the_faces_of_the_same_bytes_inline(base_options):
    with open(fixture_path("three_faces.jpg"), "rb") as file:
        jpeg = file.read()
    with mp.SharedFrameBuffer(len(jpeg) + 100) as buffer, detector(base_options) as task:
        task.register_buffer(buffer)
        shared = task.detect(buffer.write(jpeg, offset=100))
        inline = task.detect(jpeg)

    assert len(inline.detections) == 3
    assert shared.detections == inline.detections


def test_rgb_pixels_written_into_a_view_give_the_faces_of_the_same_pixels_inline(base_options):
    pixels = rgb_pixels("two_faces.jpg")
    height, width, _ = pixels.shape
    with mp.SharedFrameBuffer(height * width * 3) as buffer, detector(base_options) as task:
        task.register_buffer(buffer)
        view = buffer.array((height, width, 3))
        view[:] = pixels
        shared = task.detect(mp.Image(mp.ImageFormat.SRGB, view))
        inline = task.detect(mp.Image(mp.ImageFormat.SRGB, pixels))

    assert len(inline.detections) == 2
    assert shared.detections == inline.detections


def test_a_bgr_crop_of_a_padded_frame_is_read_in_place(base_options):
    pixels = rgb_pixels("astronaut.jpg")[:, :, ::-1]
    height, width, _ = pixels.shape
    stride = width * 3 + 64
    with mp.SharedFrameBuffer(stride * height) as buffer, detector(base_options) as task:
        task.register_buffer(buffer)
        rows = buffer.array((height, stride))
        frame = rows[:, : width * 3].reshape(height, width, 3)
        frame[:] = pixels
        shared = task.detect(mp.Image(mp.ImageFormat.SBGR, frame))
        inline = task.detect(mp.Image(mp.ImageFormat.SBGR, np.ascontiguousarray(pixels)))

    assert len(inline.detections) == 1
    assert shared.detections == inline.detections


def test_nv12_in_a_region_gives_the_faces_of_the_same_bytes_inline(base_options):
    pixels = rgb_pixels("astronaut.jpg")
    height, width = pixels.shape[0] // 2 * 2, pixels.shape[1] // 2 * 2
    nv12 = nv12_bytes(pixels[:height, :width])
    with mp.SharedFrameBuffer(len(nv12)) as buffer, detector(base_options) as task:
        task.register_buffer(buffer)
        shared = task.detect(mp.Image(mp.ImageFormat.NV12, buffer.write(nv12), width=width, height=height))
        inline = task.detect(mp.Image(mp.ImageFormat.NV12, nv12, width=width, height=height))

    assert len(inline.detections) == 1
    assert shared.detections == inline.detections


def test_live_frames_from_shared_memory_each_get_their_answer(base_options):
    frames = [rgb_pixels(path) for path in video_frames()[:6]]
    height, width, _ = frames[0].shape
    answered = []
    settled = threading.Semaphore(0)

    def on_result(result, image, timestamp_ms):
        answered.append((timestamp_ms, len(result.detections)))
        settled.release()

    options = vision.FaceDetectorOptions(
        base_options=base_options,
        running_mode=vision.RunningMode.LIVE_STREAM,
        result_callback=on_result,
        frame_dropped_callback=lambda reason, image, timestamp_ms: settled.release(),
    )
    with mp.SharedFrameBuffer(height * width * 3) as buffer, vision.FaceDetector.create_from_options(options) as task:
        task.register_buffer(buffer)
        view = buffer.array((height, width, 3))
        for index, pixels in enumerate(frames):
            # One slot: it is the worker's until this frame's answer.
            view[:] = pixels
            task.detect_async(mp.Image(mp.ImageFormat.SRGB, view), index)
            assert settled.acquire(timeout=60)

    assert answered == [(index, 1) for index in range(len(frames))]


def test_unregistered_and_closed_buffers_are_no_longer_named(base_options):
    with mp.SharedFrameBuffer(4096) as buffer, detector(base_options) as task:
        task.register_buffer(buffer)
        task.unregister_buffer(buffer)
        with pytest.raises(ValueError, match="not registered"):
            task.detect(mp.Image(mp.ImageFormat.GRAY8, buffer.array((64, 64))))
    with pytest.raises(ValueError, match="closed"):
        buffer.array(10)


# Bad inputs: each refused with its code and words, and the task goes on.


def assert_still_works(task) -> None:
    assert len(task.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg"))).detections) == 1


def refused(call) -> mp.FaceWorkerError:
    with pytest.raises(mp.FaceWorkerError) as raised:
        call()
    return raised.value


def test_an_unsealed_memfd_is_invalid_argument(base_options):
    fd = os.memfd_create("unsealed", os.MFD_CLOEXEC)
    os.ftruncate(fd, 4096)
    try:
        with detector(base_options) as task:
            error = refused(lambda: register(task._connection, fd))
            assert_still_works(task)
    finally:
        os.close(fd)

    assert error.code == StatusCode.INVALID_ARGUMENT
    assert "seal" in error.message.lower()


def test_a_pipe_is_invalid_argument(base_options):
    read_end, write_end = os.pipe()
    try:
        with detector(base_options) as task:
            error = refused(lambda: register(task._connection, read_end))
            assert_still_works(task)
    finally:
        os.close(read_end)
        os.close(write_end)

    assert error.code == StatusCode.INVALID_ARGUMENT
    assert "memfd" in error.message


def test_an_empty_memfd_is_invalid_argument(base_options):
    fd = os.memfd_create("empty", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK)
    try:
        with detector(base_options) as task:
            error = refused(lambda: register(task._connection, fd))
    finally:
        os.close(fd)

    assert error.code == StatusCode.INVALID_ARGUMENT


@pytest.mark.parametrize(("offset", "length"), [(4000, 200), (0, 4097), (2**64 - 1, 2)], ids=["past-end", "too-long", "overflowing"])
def test_a_region_outside_its_buffer_is_out_of_range(base_options, offset, length):
    with mp.SharedFrameBuffer(4096) as buffer, detector(base_options) as task:
        task.register_buffer(buffer)
        error = refused(lambda: task.detect(buffer.region(offset, length)))
        assert_still_works(task)

    assert error.code == StatusCode.OUT_OF_RANGE
    assert "4096" in error.message


def test_a_region_whose_length_is_not_the_layouts_is_invalid_argument(base_options):
    with mp.SharedFrameBuffer(4096) as buffer, detector(base_options) as task:
        task.register_buffer(buffer)
        error = refused(lambda: task.detect(mp.Image(mp.ImageFormat.SRGB, buffer.region(0, 1000), width=16, height=16)))
        short_stride = refused(
            lambda: task.detect(mp.Image(mp.ImageFormat.SRGB, buffer.region(0, 16 * 16 * 3), width=16, height=16, row_stride=40))
        )
        assert_still_works(task)

    assert error.code == StatusCode.INVALID_ARGUMENT
    assert short_stride.code == StatusCode.INVALID_ARGUMENT
    assert "stride" in short_stride.message


def test_a_buffer_of_another_connection_is_not_found(worker, base_options):
    with mp.SharedFrameBuffer(4096) as buffer, detector(base_options) as owner:
        buffer_id = register(owner._connection, buffer.fileno()).buffer_id
        other = Connection(worker.socket_path)
        try:
            session = other.call(pb.ClientMessage(open_session=pb.OpenSessionRequest())).open_session.session_id
            frame = pb.Frame(shared_jpeg=pb.BufferRegion(buffer_id=buffer_id, offset=0, length=100))
            request = pb.ProcessFrameRequest(session_id=session, frame=frame)
            error = refused(lambda: other.call(pb.ClientMessage(process_frame=request)))
        finally:
            other.close()
        assert_still_works(owner)

    assert error.code == StatusCode.NOT_FOUND
    assert str(buffer_id) in error.message


def test_more_buffers_than_allowed_is_resource_exhausted_and_nothing_stays_mapped(tmp_path):
    worker = start_worker(tmp_path, "--max-buffers-per-connection", "2")
    buffers = [mp.SharedFrameBuffer(4096) for _ in range(3)]
    try:
        with detector(worker.base_options) as task:
            task.register_buffer(buffers[0])
            task.register_buffer(buffers[1])
            error = refused(lambda: task.register_buffer(buffers[2]))
            during = mp.get_stats(worker.socket_path)
            assert_still_works(task)
        after = mp.get_stats(worker.socket_path)
    finally:
        for buffer in buffers:
            buffer.close()
        stop_worker(worker)

    assert error.code == StatusCode.RESOURCE_EXHAUSTED
    assert "2" in error.message
    assert (during.shared_buffers, during.mapped_bytes) == (2, 2 * 4096)
    assert (after.shared_buffers, after.mapped_bytes) == (0, 0)
