"""MediaPipe's side of the benchmarks: decode a JPEG and run a legacy solution or a Task on it, timed
per frame.

Used in-process by bench_pipeline.py and bench.py, and by mediapipe_live_peer.py. Run as a program it is one of the eight peer
processes whose memory `make bench` adds up (P5):

    .venv-tools/bin/python -m tools.peers.mediapipe_peer --frames DIR --mode landmarks --iterations 150

which prints one JSON line: {"mode": ..., "iterations": ..., "median_ms": ..., "max_rss_kib": ...}.
With --serve it is instead the newest MediaPipe's side of `make bench`, run from that release's own
environment (.venv-tasks): it loads the frames once, prints "ready", then for each JSON line
{"mode": ..., "warmup": W, "iterations": I, "fps": F} on stdin times a run (F paces the timed frames;
0 or absent sends each straight after the last) and prints one JSON line
{"samples_ns": [...], "faces": N, "version": ...}.

Every mode is timed from JPEG bytes to result:

* detect:       decode + FaceDetection(model_selection=0, min_detection_confidence=0.5).process
* landmarks:    decode + FaceMesh(static_image_mode=False, max_num_faces=1, refine_landmarks=True).process
* tasks:        decode + MediaPipe Tasks' FaceLandmarker in VIDEO mode on face_landmarker.task (from
                --models), one face, blendshapes and facial transformation matrixes on:
                detect_for_video on an mp.Image of the decoded pixels, frame k at k * 1000 / 30 ms
* tasks_detect: decode + MediaPipe Tasks' FaceDetector in VIDEO mode on the bundle's own
                face_detector.tflite (the short-range detector), default options

The first two need mediapipe 0.10.14's legacy solutions; the Tasks modes run on any release that has
the Tasks API, 1.2.3 among them.

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
import zipfile
from pathlib import Path

import numpy as np

from tools.shared.bench_args import count
from tools.shared.bench_process import fail
from tools.shared.mediapipe_solutions import load_solutions

MODES = ("detect", "landmarks", "tasks", "tasks_detect")
LEGACY_MODES = ("detect", "landmarks")
TASKS_BUNDLE = "face_landmarker.task"
FRAME_MS = 1000 / 30


def read_frames(folder):
    """The bytes of every frame_*.jpg in folder, in name order."""
    files = sorted(Path(folder).glob("frame_*.jpg"))
    if not files:
        fail(f"no frame_*.jpg in {folder}; tools/goldens/make_pipeline_fixtures.py writes the fixture video")
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
    solution has `process(rgb)` and `close()`; `solutions` is mediapipe.solutions, which only the
    legacy modes read, and `models` the folder of face_landmarker.task, which only the Tasks modes
    read."""
    if mode == "detect":
        return (solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5),
                lambda result: bool(result.detections))
    if mode == "tasks":
        return TasksLandmarker(bundle_path(models)), lambda result: bool(result.face_landmarks)
    if mode == "tasks_detect":
        return TasksDetector(bundle_path(models)), lambda result: bool(result.detections)
    return (solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=1, refine_landmarks=True,
                                         min_detection_confidence=0.5, min_tracking_confidence=0.5),
            lambda result: bool(result.multi_face_landmarks))


def bundle_path(models):
    if models is None:
        fail("the Tasks modes read face_landmarker.task from --models")
    bundle = Path(models) / TASKS_BUNDLE
    if not bundle.is_file():
        fail(f"{bundle} is missing; `make models` fetches it")
    return bundle


class TasksDetector:
    """MediaPipe Tasks' FaceDetector in VIDEO mode on the Face Landmarker bundle's own detector,
    behind the legacy solutions' `process`, frame k at k * 1000 / 30 ms."""

    def __init__(self, bundle):
        import mediapipe as mp
        from mediapipe.tasks.python import BaseOptions, vision
        with zipfile.ZipFile(bundle) as archive:
            model = archive.read("face_detector.tflite")
        self._image = lambda rgb: mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb)
        options = vision.FaceDetectorOptions(base_options=BaseOptions(model_asset_buffer=model),
                                             running_mode=vision.RunningMode.VIDEO)
        self._detector = vision.FaceDetector.create_from_options(options)
        self._frame = 0

    def process(self, rgb):
        result = self._detector.detect_for_video(self._image(rgb), round(self._frame * FRAME_MS))
        self._frame += 1
        return result

    def close(self):
        self._detector.close()


class TasksLandmarker:
    """MediaPipe Tasks' FaceLandmarker in VIDEO mode behind the legacy solutions' `process`: each
    call is the next frame of a 30 fps video, so timestamps rise as the task requires."""

    def __init__(self, bundle):
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
    """OpenCV's decoder and, once a legacy mode first needs them, MediaPipe's solutions, loaded once."""

    def __init__(self, models=None):
        self.decode = load_decoder()
        self._solutions = None
        self.models = models

    @property
    def solutions(self):
        if self._solutions is None:
            self._solutions = load_solutions()
        return self._solutions

    def solution(self, mode):
        """make_solution's solution and face test for `mode`, on this peer's models."""
        return make_solution(self.solutions if mode in LEGACY_MODES else None, mode, self.models)

    def time(self, frames, mode, warmup, iterations, fps=0):
        """Per-frame times in ns of `iterations` frames after `warmup` untimed ones, and how many
        timed frames gave a face (a peer that finds nothing does less work, so the count is shown
        beside the time). Frame k of the run is frames[k mod len(frames)], warm-up included; a
        fresh solution object is made per call. With `fps`, the timed frames start on a camera's
        schedule, the process sleeping between them, rather than one straight after another."""
        n = len(frames)
        with native_log_held_back():
            solution, found_face = self.solution(mode)
            process, decode = solution.process, self.decode
            for k in range(warmup):
                process(decode(frames[k % n]))
        samples, with_face = [], 0
        clock = time.perf_counter_ns
        period_ns = round(1e9 / fps) if fps else 0
        due = clock()
        for k in range(warmup, warmup + iterations):
            jpeg = frames[k % n]
            if period_ns:
                due += period_ns
                time.sleep(max(0, due - clock()) / 1e9)
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


def serve(peer, frames):
    """The --serve loop: one timed run per JSON line on stdin, one JSON line back."""
    import mediapipe
    print("ready", flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        samples, faces = peer.time(frames, request["mode"], request["warmup"], request["iterations"],
                                   request.get("fps", 0))
        print(json.dumps({"samples_ns": samples, "faces": faces, "version": mediapipe.__version__}), flush=True)


def main():
    parser = argparse.ArgumentParser(description="One MediaPipe peer process: time a mode, report peak memory.")
    parser.add_argument("--frames", type=Path, required=True, help="folder of frame_*.jpg files")
    parser.add_argument("--mode", choices=MODES, default="landmarks")
    parser.add_argument("--models", type=Path, help="folder of face_landmarker.task (the tasks mode)")
    parser.add_argument("--warmup", type=count(0), default=10, help="untimed frames first (default 10)")
    parser.add_argument("--iterations", type=count(1), default=150, help="timed frames (default 150)")
    parser.add_argument("--serve", action="store_true",
                        help="time runs asked for on stdin, one JSON line each way, instead of one run")
    args = parser.parse_args()
    frames = read_frames(args.frames)
    if args.serve:
        serve(Peer(args.models), frames)
        return
    samples, _ = Peer(args.models).time(frames, args.mode, args.warmup, args.iterations)
    print(json.dumps({"mode": args.mode, "iterations": args.iterations,
                      "median_ms": round(float(np.median(samples)) / 1e6, 4),
                      "max_rss_kib": peak_rss_kib()}))


if __name__ == "__main__":
    main()
