"""Per-frame face pipeline time: our pipeline-bench executable against MediaPipe's Python solutions.

    make bench-pipeline
    .venv-tools/bin/python tools/bench_pipeline.py --frames Tests/FaceDetectionTests/Fixtures/video \
        --ours .build/release/pipeline-bench

Both sides get the same JPEG bytes: the frame_*.jpg files of --frames in name order, read into
memory before timing. Frame k of a run (warm-up frames included, k = 0, 1, ...) is file
k mod N; the fixture video loops smoothly, so a tracker never sees a jump when it wraps.
Two modes are timed per frame, from JPEG bytes to result:

* detect:    decode + FaceDetection(model_selection=0, min_detection_confidence=0.5).process
* landmarks: decode + FaceMesh(static_image_mode=False, max_num_faces=1, refine_landmarks=True).process

MediaPipe decodes with OpenCV (cv2.imdecode, then cvtColor BGR to RGB): on these 640x360
frames it takes about half of Pillow's time, and the peer should get its fastest path. It is
timed here with time.perf_counter_ns around decode + process, with a fresh solution object
per round. Ours is timed by the executable itself, run as

    <ours> --frames DIR --mode detect|landmarks --warmup W --iterations I

which prints one JSON line: {"mode": "detect", "median_ms": ..., "p90_ms": ..., "iterations": I}.

Each mode is measured --rounds times, the two sides alternating, and each side keeps its round
with the lowest median, so a burst of other work on a small machine spoils one round, not the
ratio. The output is a table, then, as the very last line, one JSON object:
{"bench": "pipeline", "detect_ratio": R, "landmarks_ratio": R,
 "ours_ms": {"detect": ..., "landmarks": ...}, "mediapipe_ms": {"detect": ..., "landmarks": ...}}
with medians in ms and R = ours / MediaPipe. The goal (P1, P2) is a ratio of at most 0.5.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from mediapipe_solutions import load_solutions

from bench_args import count

GOAL = 0.5
MODES = ("detect", "landmarks")
OURS_TIMEOUT_S = 600


def fail(message):
    sys.exit(f"error: {message}")


def read_frames(folder):
    files = sorted(folder.glob("frame_*.jpg"))
    if not files:
        fail(f"no frame_*.jpg in {folder}; tools/make_pipeline_fixtures.py writes the fixture video")
    return [path.read_bytes() for path in files]


def check_ours(ours):
    if not ours.is_file() or not os.access(ours, os.X_OK):
        fail(f"benchmark executable {ours} is missing; `make bench-pipeline` builds it "
             "(swift build -c release --product pipeline-bench)")


def load_decoder():
    try:
        import cv2
    except ImportError:
        fail("OpenCV's Python package is not installed in this interpreter; `make venv` creates .venv-tools")

    def decode(jpeg):
        bgr = cv2.imdecode(np.frombuffer(jpeg, dtype=np.uint8), cv2.IMREAD_COLOR)
        return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    return decode


def mediapipe_solution(solutions, mode):
    if mode == "detect":
        return (solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5),
                lambda result: bool(result.detections))
    return (solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=1, refine_landmarks=True,
                                         min_detection_confidence=0.5, min_tracking_confidence=0.5),
            lambda result: bool(result.multi_face_landmarks))


def summary_ms(samples_ns):
    samples = np.asarray(samples_ns, dtype=np.float64) / 1e6
    return float(np.median(samples)), float(np.percentile(samples, 90))


def time_mediapipe(solutions, decode, frames, mode, warmup, iterations):
    """Median and p90 in ms, and how many timed frames gave a face (a peer that finds nothing
    does less work, so the count is shown beside the time)."""
    solution, found_face = mediapipe_solution(solutions, mode)
    process = solution.process
    count = len(frames)
    for k in range(warmup):
        process(decode(frames[k % count]))
    samples, with_face = [], 0
    clock = time.perf_counter_ns
    for k in range(warmup, warmup + iterations):
        jpeg = frames[k % count]
        start = clock()
        result = process(decode(jpeg))
        samples.append(clock() - start)
        with_face += found_face(result)
    solution.close()
    return (*summary_ms(samples), with_face)


def time_ours(ours, frames_dir, mode, warmup, iterations):
    command = [str(ours), "--frames", str(frames_dir), "--mode", mode,
               "--warmup", str(warmup), "--iterations", str(iterations)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=OURS_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        fail(f"{' '.join(command)} did not finish within {OURS_TIMEOUT_S} s")
    if done.returncode != 0:
        fail(f"{' '.join(command)} exited with status {done.returncode}:\n{done.stderr.strip()}")
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    try:
        result = json.loads(lines[-1])
        median, p90 = float(result["median_ms"]), float(result["p90_ms"])
    except (IndexError, ValueError, KeyError, TypeError):
        fail(f"{' '.join(command)} did not print the expected JSON line; stdout was:\n{done.stdout.strip()}")
    if result.get("mode") != mode or result.get("iterations") != iterations:
        fail(f"{ours} answered for mode {result.get('mode')} with {result.get('iterations')} iterations, "
             f"asked for {mode} with {iterations}")
    return median, p90


def print_table(rows, iterations):
    header = ("mode", "MediaPipe ms", "p90", "frames with a face", "ours ms", "p90", "ours/MediaPipe",
              f"goal (<= {GOAL})")
    lines = [header] + [
        (mode, f"{mm:.3f}", f"{mp90:.3f}", f"{faces}/{iterations}", f"{om:.3f}", f"{op90:.3f}", f"{om / mm:.3f}",
         "met" if om / mm <= GOAL else "NOT met")
        for mode, (mm, mp90, faces), (om, op90) in rows
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def summary_json(rows):
    summary = {"bench": "pipeline"}
    summary.update({f"{mode}_ratio": round(ours[0] / peer[0], 3) for mode, peer, ours in rows})
    summary["ours_ms"] = {mode: round(ours[0], 4) for mode, _, ours in rows}
    summary["mediapipe_ms"] = {mode: round(peer[0], 4) for mode, peer, _ in rows}
    return json.dumps(summary, separators=(",", ":"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=Path, required=True, help="folder of frame_*.jpg files")
    parser.add_argument("--ours", type=Path, required=True, help="our pipeline-bench executable")
    parser.add_argument("--warmup", type=count(0), default=30, help="untimed frames first (default 30)")
    parser.add_argument("--iterations", type=count(1), default=300, help="timed frames (default 300)")
    parser.add_argument("--rounds", type=count(1), default=3, help="alternating measurements per mode (default 3)")
    args = parser.parse_args()

    frames = read_frames(args.frames)
    check_ours(args.ours)
    decode = load_decoder()
    solutions = load_solutions()
    rows = []
    for mode in MODES:
        peer, ours = [], []
        for _ in range(args.rounds):
            peer.append(time_mediapipe(solutions, decode, frames, mode, args.warmup, args.iterations))
            ours.append(time_ours(args.ours, args.frames, mode, args.warmup, args.iterations))
        rows.append((mode, min(peer), min(ours)))
        print(f"measured {mode} on {len(frames)} frames", file=sys.stderr, flush=True)
    print("MediaPipe decodes with OpenCV (cv2.imdecode + cvtColor to RGB); both sides get the same JPEG bytes")
    print_table(rows, args.iterations)
    print(summary_json(rows))


if __name__ == "__main__":
    main()
