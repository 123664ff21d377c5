"""MediaPipe's side of the benchmarks: decode a JPEG and run a legacy solution on it, timed per frame.

Used in-process by bench_pipeline.py and bench.py, and by mediapipe_live_peer.py. Run as a program it is one of the eight peer
processes whose memory `make bench` adds up (P5):

    .venv-tools/bin/python tools/mediapipe_peer.py --frames DIR --mode landmarks --iterations 150

which prints one JSON line: {"mode": ..., "iterations": ..., "median_ms": ..., "max_rss_kib": ...}.

Every mode is timed from JPEG bytes to result:

* detect:    decode + FaceDetection(model_selection=0, min_detection_confidence=0.5).process
* landmarks: decode + FaceMesh(static_image_mode=False, max_num_faces=1, refine_landmarks=True).process
* tasks:     decode + MediaPipe Tasks' FaceLandmarker in VIDEO mode on face_landmarker.task (from
             --models), one face, blendshapes and facial transformation matrixes on:
             detect_for_video on an mp.Image of the decoded pixels, frame k at k * 1000 / 30 ms

MediaPipe decodes with OpenCV (cv2.imdecode, then cvtColor BGR to RGB): on 640x360 frames it takes
about half of Pillow's time, and the peer should get its fastest path.
"""

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench_args import count
from bench_process import fail
from mediapipe_solutions import load_solutions

MODES = ("detect", "landmarks", "tasks")
TASKS_BUNDLE = "face_landmarker.task"
FRAME_MS = 1000 / 30


def read_frames(folder):
    """The bytes of every frame_*.jpg in folder, in name order."""
    files = sorted(Path(folder).glob("frame_*.jpg"))
    if not files:
        fail(f"no frame_*.jpg in {folder}; tools/make_pipeline_fixtures.py writes the fixture video")
    return [path.read_bytes() for path in files]


def load_decoder():
    try:
        import cv2
    except ImportError:
        fail("OpenCV's Python package is not installed in this interpreter; `make venv` creates .venv-tools")

    def decode(jpeg):
        bgr = cv2.imdecode(np.frombuffer(jpeg, dtype=np.uint8), cv2.IMREAD_COLOR)
        return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    return decode


def make_solution(solutions, mode, models=None):
    """A fresh MediaPipe solution for `mode`, and a test of whether its result holds a face. The
    solution has `process(rgb)` and `close()`; `models` is the folder of face_landmarker.task,
    which only the tasks mode reads."""
    if mode == "detect":
        return (solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5),
                lambda result: bool(result.detections))
    if mode == "tasks":
        return TasksLandmarker(Path(models) / TASKS_BUNDLE), lambda result: bool(result.face_landmarks)
    return (solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=1, refine_landmarks=True,
                                         min_detection_confidence=0.5, min_tracking_confidence=0.5),
            lambda result: bool(result.multi_face_landmarks))


class TasksLandmarker:
    """MediaPipe Tasks' FaceLandmarker in VIDEO mode behind the legacy solutions' `process`: each
    call is the next frame of a 30 fps video, so timestamps rise as the task requires."""

    def __init__(self, bundle):
        if not bundle.is_file():
            fail(f"{bundle} is missing; `make models` fetches it")
        import mediapipe as mp
        from mediapipe.tasks.python import BaseOptions, vision
        self._image = lambda rgb: mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb)
        options = vision.FaceLandmarkerOptions(
            base_options=BaseOptions(model_asset_path=str(bundle)), running_mode=vision.RunningMode.VIDEO,
            num_faces=1, output_face_blendshapes=True, output_facial_transformation_matrixes=True)
        self._landmarker = vision.FaceLandmarker.create_from_options(options)
        self._frame = 0

    def process(self, rgb):
        result = self._landmarker.detect_for_video(self._image(rgb), round(self._frame * FRAME_MS))
        self._frame += 1
        return result

    def close(self):
        self._landmarker.close()


@contextlib.contextmanager
def native_log_held_back():
    """MediaPipe's C++ side writes a few warnings to file descriptor 2 whenever it builds and
    starts a graph; they would bury the benchmark's own output. They are held back in a file
    and shown only if building or warming up fails."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+") as held:
        os.dup2(held.fileno(), 2)
        try:
            yield
        except BaseException:
            os.dup2(saved, 2)
            held.seek(0)
            sys.stderr.write(held.read())
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)


class Peer:
    """MediaPipe's solutions and OpenCV's decoder, loaded once."""

    def __init__(self, models=None):
        self.decode = load_decoder()
        self.solutions = load_solutions()
        self.models = models

    def time(self, frames, mode, warmup, iterations):
        """Per-frame times in ns of `iterations` frames after `warmup` untimed ones, and how many
        timed frames gave a face (a peer that finds nothing does less work, so the count is shown
        beside the time). Frame k of the run is frames[k mod len(frames)], warm-up included; a
        fresh solution object is made per call."""
        n = len(frames)
        with native_log_held_back():
            solution, found_face = make_solution(self.solutions, mode, self.models)
            process, decode = solution.process, self.decode
            for k in range(warmup):
                process(decode(frames[k % n]))
        samples, with_face = [], 0
        clock = time.perf_counter_ns
        for k in range(warmup, warmup + iterations):
            jpeg = frames[k % n]
            start = clock()
            result = process(decode(jpeg))
            samples.append(clock() - start)
            with_face += found_face(result)
        solution.close()
        return samples, with_face


def peak_rss_kib(pid="self"):
    """A process's peak resident memory in KiB (VmHWM). Not getrusage(), whose ru_maxrss survives
    execve and so would count a parent's peak too."""
    status = Path(f"/proc/{pid}/status")
    for line in status.read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    fail(f"no VmHWM line in {status}")


def main():
    parser = argparse.ArgumentParser(description="One MediaPipe peer process: time a mode, report peak memory.")
    parser.add_argument("--frames", type=Path, required=True, help="folder of frame_*.jpg files")
    parser.add_argument("--mode", choices=MODES, default="landmarks")
    parser.add_argument("--models", type=Path, help="folder of face_landmarker.task (the tasks mode)")
    parser.add_argument("--warmup", type=count(0), default=10, help="untimed frames first (default 10)")
    parser.add_argument("--iterations", type=count(1), default=150, help="timed frames (default 150)")
    args = parser.parse_args()
    frames = read_frames(args.frames)
    samples, _ = Peer(args.models).time(frames, args.mode, args.warmup, args.iterations)
    print(json.dumps({"mode": args.mode, "iterations": args.iterations,
                      "median_ms": round(float(np.median(samples)) / 1e6, 4),
                      "max_rss_kib": peak_rss_kib()}))


if __name__ == "__main__":
    main()
