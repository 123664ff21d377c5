"""The asyncio client (``faceworker.aio``) against a real worker: concurrent calls on one event
loop, video order, live streams as events, worker restarts, and the loop never held up."""

from __future__ import annotations

import asyncio
import socket
import threading
from pathlib import Path
from typing import Any, Dict, List

import numpy as np
import pytest
from PIL import Image as PILImage

import faceworker as mp
from faceworker import BaseOptions, FaceWorkerError, StatusCode, WorkerNotRunningError, aio, get_stats, vision
from faceworker._proto import faceworker_pb2 as pb
from faceworker.vision import DropReason, ReconnectPolicy, RunningMode

from conftest import FIXTURES, fixture_path, video_frames
from test_reconnect import DEADLINE_SECONDS, RestartableWorker

REQUESTS = 50
# Each request's astronaut sits this many pixels further right than the one before.
STEP = 4


def shifted_astronauts() -> List[np.ndarray]:
    """REQUESTS RGB frames, the astronaut moved STEP pixels further right on each."""
    with PILImage.open(FIXTURES / "astronaut.jpg") as image:
        astronaut = np.asarray(image.convert("RGB"))
    return [np.roll(astronaut, STEP * index, axis=1) for index in range(REQUESTS)]


def box(result: Any) -> tuple:
    detection = result.detections[0]
    return (detection.bounding_box.origin_x, detection.bounding_box.origin_y, detection.bounding_box.width,
            detection.bounding_box.height, detection.categories[0].score)


class Heartbeat:
    """A coroutine that counts how often the event loop gets to run it."""

    def __init__(self) -> None:
        self.beats = 0
        self._stopped = False

    async def run(self) -> None:
        while not self._stopped:
            self.beats += 1
            await asyncio.sleep(0)

    def stop(self) -> None:
        self._stopped = True


def test_fifty_concurrent_requests_on_one_connection_each_get_their_own_answer(worker, base_options):
    frames = shifted_astronauts()

    async def main() -> None:
        connections_before = get_stats(worker.socket_path).connections
        options = vision.FaceDetectorOptions(base_options=base_options)
        async with aio.FaceDetector.create_from_options(options) as first, \
                aio.FaceDetector.create_from_options(options) as second:
            # What each frame gets alone, one call at a time.
            alone = [box(await first.detect(mp.Image(mp.ImageFormat.SRGB, frame))) for frame in frames]
            # The loop's tasks share one connection.
            assert get_stats(worker.socket_path).connections == connections_before + 1
            heartbeat = Heartbeat()
            beating = asyncio.create_task(heartbeat.run())
            beats_while_waiting: Dict[int, int] = {}

            async def request(index: int) -> Any:
                task = first if index % 2 == 0 else second
                before = heartbeat.beats
                result = await task.detect(mp.Image(mp.ImageFormat.SRGB, frames[index]))
                beats_while_waiting[index] = heartbeat.beats - before
                return result

            results = await asyncio.gather(*(request(index) for index in range(REQUESTS)))
            heartbeat.stop()
            await beating

        assert len(results) == REQUESTS
        # Every answer is its own request's: what its frame gets alone, and no two frames get the same.
        assert [box(result) for result in results] == alone
        assert len(set(alone)) == REQUESTS
        # While each request waited for the worker, the loop went on running other coroutines.
        assert all(beats > 0 for beats in beats_while_waiting.values())

    asyncio.run(main())


def test_video_frames_sent_at_once_are_processed_in_order(base_options):
    frames = video_frames()

    async def main() -> List[Any]:
        options = vision.FaceDetectorOptions(base_options=base_options, running_mode=RunningMode.VIDEO,
                                             tracking_enabled=True)
        async with aio.FaceDetector.create_from_options(options) as detector:
            return await asyncio.gather(*(
                detector.detect_for_video(mp.Image.create_from_file(path), index * 33)
                for index, path in enumerate(frames)
            ))

    results = asyncio.run(main())
    assert [result.timestamp_ms for result in results] == [index * 33 for index in range(len(frames))]
    # One face, followed through every frame: one tracking ID.
    assert {result.detections[0].tracking_id for result in results} == {results[0].detections[0].tracking_id}


def test_a_live_stream_accounts_for_every_frame_once(base_options):
    frames = video_frames()

    async def main() -> List[Any]:
        options = vision.FaceLandmarkerOptions(base_options=base_options, running_mode=RunningMode.LIVE_STREAM)
        landmarker = await aio.FaceLandmarker.create_from_options(options)

        async def collect() -> List[Any]:
            return [event async for event in landmarker.results()]

        collecting = asyncio.create_task(collect())
        for index, path in enumerate(frames):
            landmarker.detect_async(mp.Image.create_from_file(path), index * 33)
        await landmarker.close()
        return await collecting

    events = asyncio.run(main())
    timestamps = [event.timestamp_ms for event in events]
    assert sorted(timestamps) == [index * 33 for index in range(len(frames))]
    results = [event for event in events if isinstance(event, vision.FaceLandmarkerResult)]
    drops = [event for event in events if isinstance(event, aio.FrameDropped)]
    assert len(results) + len(drops) == len(frames)
    assert all(drop.reason == DropReason.REPLACED for drop in drops)
    # Each frame the detector ran on has its face (a face followed across dropped frames may be lost).
    assert all(len(result.face_landmarks) == 1 for result in results if result.detector_ran)
    # Results come in the frames' order, and the last frame, which nothing replaced, has one.
    assert [result.timestamp_ms for result in results] == sorted(result.timestamp_ms for result in results)
    assert results[-1].timestamp_ms == (len(frames) - 1) * 33


def test_a_live_frame_the_worker_refuses_is_an_event_and_the_stream_goes_on(base_options):
    async def main() -> List[Any]:
        options = vision.FaceDetectorOptions(base_options=base_options, running_mode=RunningMode.LIVE_STREAM)
        detector = await aio.FaceDetector.create_from_options(options)
        image = mp.Image.create_from_file(fixture_path("astronaut.jpg"))
        detector.detect_async(image, 10)
        events = [await detector.results().__anext__()]
        detector.detect_async(image, 5)  # not after 10: refused
        detector.detect_async(image, 20)
        await detector.close()
        return events + [event async for event in detector.results()]

    first, refused, last = asyncio.run(main())
    assert isinstance(first, vision.FaceDetectorResult) and first.timestamp_ms == 10
    assert isinstance(refused, aio.FrameFailed) and refused.timestamp_ms == 5
    assert refused.error.code == StatusCode.INVALID_ARGUMENT
    assert isinstance(last, vision.FaceDetectorResult) and last.timestamp_ms == 20


def test_a_task_used_from_a_second_event_loop_fails_clearly(base_options):
    first_loop = asyncio.new_event_loop()
    second_loop = asyncio.new_event_loop()
    try:
        detector = first_loop.run_until_complete(
            aio.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options)))
        image = mp.Image.create_from_file(fixture_path("astronaut.jpg"))
        with pytest.raises(RuntimeError, match="another event loop"):
            second_loop.run_until_complete(detector.detect(image))
        # The task still serves its own loop.
        assert len(first_loop.run_until_complete(detector.detect(image)).detections) == 1
        first_loop.run_until_complete(detector.close())
    finally:
        first_loop.close()
        second_loop.close()


def test_callbacks_are_refused_since_results_take_their_place(base_options):
    options = vision.FaceDetectorOptions(base_options=base_options, running_mode=RunningMode.LIVE_STREAM,
                                         result_callback=lambda result, image, timestamp: None)

    async def main() -> None:
        await aio.FaceDetector.create_from_options(options)

    with pytest.raises(ValueError, match=r"results\(\)"):
        asyncio.run(main())


def test_calls_in_the_wrong_mode_are_refused_as_in_mediapipe(base_options):
    async def main() -> None:
        async with aio.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options)) \
                as detector:
            with pytest.raises(ValueError, match="video mode"):
                await detector.detect_for_video(mp.Image.create_from_file(fixture_path("astronaut.jpg")), 0)
            with pytest.raises(ValueError, match="live stream mode"):
                detector.detect_async(mp.Image.create_from_file(fixture_path("astronaut.jpg")), 0)
        with pytest.raises(ValueError, match="closed"):
            await detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))

    asyncio.run(main())


def test_a_worker_restart_is_an_event_between_the_old_answers_and_the_new(tmp_path: Path):
    restartable = RestartableWorker(tmp_path)
    try:
        policy = ReconnectPolicy(deadline_seconds=DEADLINE_SECONDS, outage_callback=lambda outage: None)
        base = BaseOptions(socket_path=restartable.socket_path, reconnect=policy)
        image = mp.Image.create_from_file(fixture_path("astronaut.jpg"))

        async def main() -> List[Any]:
            live = await aio.FaceDetector.create_from_options(
                vision.FaceDetectorOptions(base_options=base, running_mode=RunningMode.LIVE_STREAM))
            detector = await aio.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base))
            events = live.results()
            live.detect_async(image, 0)
            seen = [await events.__anext__()]
            restartable.restart()
            # An IMAGE call after the loss waits for the task to be back and runs on the new worker.
            result = await detector.detect(image)
            assert result.session_restarted and len(result.detections) == 1
            timestamp = 1
            while not any(isinstance(event, vision.FaceDetectorResult) and event.timestamp_ms > 0 for event in seen):
                live.detect_async(image, timestamp)
                timestamp += 1
                seen.append(await events.__anext__())
            await detector.close()
            await live.close()
            return seen

        events = asyncio.run(main())
    finally:
        restartable.close()
    assert isinstance(events[0], vision.FaceDetectorResult) and events[0].timestamp_ms == 0
    restarts = [index for index, event in enumerate(events) if isinstance(event, aio.WorkerRestarted)]
    assert len(restarts) == 1 and events[restarts[0]].outage.error is None
    # Frames sent while the task was away are dropped as such, never lost; the new worker's
    # first answer comes after the event and says tracking started anew.
    for event in events[1:restarts[0]]:
        assert isinstance(event, aio.FrameDropped) and event.reason == DropReason.WORKER_RESTARTED
    after = events[restarts[0] + 1:]
    assert all(isinstance(event, (aio.FrameDropped, vision.FaceDetectorResult)) for event in after)
    assert isinstance(after[-1], vision.FaceDetectorResult) and after[-1].session_restarted


class SilentWorker:
    """A socket that opens sessions like a worker but never answers a frame, until told to hang up."""

    def __init__(self, directory: Path) -> None:
        self.socket_path = str(directory / "silent.sock")
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(self.socket_path)
        self._listener.listen(1)
        self.frames = threading.Semaphore(0)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        self._connection, _ = self._listener.accept()
        reader = self._connection.makefile("rb")
        try:
            while True:
                header = reader.read(5)
                if len(header) < 5:
                    return
                length = int.from_bytes(header[1:], "big")
                message = pb.ClientMessage.FromString(reader.read(length))
                if message.WhichOneof("kind") == "open_session":
                    opened = pb.OpenSessionResponse(session_id=1)
                    answer = pb.WorkerMessage(call_id=message.call_id, open_session=opened)
                    payload = answer.SerializeToString()
                    self._connection.sendall(b"\0" + len(payload).to_bytes(4, "big") + payload)
                elif message.WhichOneof("kind") == "process_frame":
                    self.frames.release()
        except OSError:
            return

    def hang_up(self) -> None:
        self._connection.shutdown(socket.SHUT_RDWR)
        self._connection.close()
        self._thread.join()
        self._listener.close()


def test_a_call_waiting_for_the_worker_never_holds_up_the_loop(tmp_path: Path):
    silent = SilentWorker(tmp_path)
    beats_to_count = 1000

    async def main() -> None:
        options = vision.FaceDetectorOptions(base_options=BaseOptions(socket_path=silent.socket_path, reconnect=False))
        detector = await aio.FaceDetector.create_from_options(options)
        waiting = asyncio.create_task(detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg"))))
        heartbeat = Heartbeat()
        beating = asyncio.create_task(heartbeat.run())
        # The frame is on the wire, unanswered; the loop keeps running the heartbeat meanwhile.
        await asyncio.get_running_loop().run_in_executor(None, silent.frames.acquire)
        while heartbeat.beats < beats_to_count:
            await asyncio.sleep(0)
        heartbeat.stop()
        await beating
        assert not waiting.done()
        silent.hang_up()
        with pytest.raises(FaceWorkerError) as lost:
            await waiting
        assert lost.value.code == StatusCode.UNAVAILABLE
        await detector.close()

    asyncio.run(main())


def test_no_worker_is_told_as_by_the_blocking_tasks(tmp_path: Path):
    options = vision.FaceDetectorOptions(base_options=BaseOptions(socket_path=str(tmp_path / "none.sock")))

    async def main() -> None:
        await aio.FaceDetector.create_from_options(options)

    with pytest.raises(WorkerNotRunningError, match="none.sock"):
        asyncio.run(main())
