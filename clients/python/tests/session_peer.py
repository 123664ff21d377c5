"""A process of the cross-process test (test_cross_process.py): a producer or a subscriber of one shared session.

    python session_peer.py producer SOCKET NAME FRAME...   waits for "go" on stdin, feeds the frames
                                                           through shared memory, prints each result
    python session_peer.py reader SOCKET NAME              prints every event until the session ends
    python session_peer.py stuck SOCKET NAME               blocks in its first callback, so it reads
                                                           nothing more, until "read" comes on stdin

Each prints one JSON object a line, flushed, starting with {"ready": ...}
once its session or subscription is open.
"""

from __future__ import annotations

import json
import sys
import threading
from typing import Any

import numpy as np
from PIL import Image as PILImage

import faceworker as mp
from faceworker import vision


def say(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


def faces(result: Any) -> list:
    return [
        [box.origin_x, box.origin_y, box.width, box.height]
        for box in (detection.bounding_box for detection in result.detections)
    ]


def produce(socket_path: str, name: str, frame_paths: list) -> None:
    frames = [np.asarray(PILImage.open(path).convert("RGB")) for path in frame_paths]
    height, width, _ = frames[0].shape
    options = vision.FaceLandmarkerOptions(
        base_options=mp.BaseOptions(socket_path=socket_path),
        running_mode=vision.RunningMode.VIDEO,
        session_name=name,
    )
    with mp.SharedFrameBuffer(height * width * 3) as buffer:
        with vision.FaceLandmarker.create_from_options(options) as landmarker:
            landmarker.register_buffer(buffer)
            pixels = buffer.array((height, width, 3))
            say(ready=name)
            if sys.stdin.readline().strip() != "go":
                return
            for index, frame in enumerate(frames):
                # The one write of the frame; the worker reads it in place.
                pixels[:] = frame
                result = landmarker.detect_for_video(mp.Image(mp.ImageFormat.SRGB, pixels), index * 40)
                say(result=result.timestamp_ms, faces=faces(result))
        say(closed=name)


def subscribe(socket_path: str, name: str, stuck: bool) -> None:
    may_read = threading.Event()
    if not stuck:
        may_read.set()

    def on_result(result: Any, timestamp_ms: int) -> None:
        may_read.wait()
        say(result=timestamp_ms, faces=faces(result))

    options = vision.FaceSubscriberOptions(
        base_options=mp.BaseOptions(socket_path=socket_path),
        session_name=name,
        result_callback=on_result,
        events_missed_callback=lambda count: say(missed=count),
        session_ended_callback=lambda reason: say(ended=reason.name),
    )
    with vision.FaceSubscriber.create_from_options(options) as subscriber:
        say(ready=name, queue_limit=subscriber.queue_limit)
        if stuck:
            sys.stdin.readline()
            may_read.set()
        subscriber.wait_for_end()


def main() -> None:
    role, socket_path, name, *frame_paths = sys.argv[1:]
    if role == "producer":
        produce(socket_path, name, frame_paths)
    else:
        subscribe(socket_path, name, stuck=role == "stuck")


if __name__ == "__main__":
    main()
