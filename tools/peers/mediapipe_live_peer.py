"""One MediaPipe process of `make bench`'s P7 and P7t: a 30 fps live stream through FaceMesh(refine_landmarks=True),
or through MediaPipe Tasks' FaceLandmarker.

    .venv-tools/bin/python -m tools.peers.mediapipe_live_peer --frames DIR [--fps 30]
    .venv-tasks/bin/python -m tools.peers.mediapipe_live_peer --frames DIR [--fps 30] --mode tasks --models DIR

It builds the solution (as P2's and P2t's peers do: cv2 decode, then FaceMesh(static_image_mode=False,
max_num_faces=1, refine_landmarks=True).process, or with --mode tasks the Tasks FaceLandmarker with
blendshapes and matrices on, mediapipe_peer.py's TasksLandmarker), warms it up, and prints `ready`. Each line it
then reads, a number of frames N, runs one live stream of N frames and prints one JSON line:
{"frames": N, "processed": ..., "answered": ..., "latencies_ms": [...]}. End of input ends it.

A live stream, as a camera delivers it: frame i arrives at start + i / fps. Whenever the process
is free it takes the newest frame that has arrived; older ones not yet taken are skipped, never
processed (the worker's own rule in live-stream mode: it keeps only the newest waiting frame).
When no new frame has arrived it sleeps until the next one does. A processed frame's latency
runs from its arrival to the end of its processing, as face-bench's runs from sending to the
answer. A frame counts as answered when its processing ends before the next frame arrives,
within its 1 / fps slot: a skipped frame, or one that ends later, is not. The video goes on
across streams (the frame after the last one of a stream comes next), as a camera's would, so
the solution's tracking is never broken by a jump back to the first frame.
"""

import argparse
import json
import sys
import time
from pathlib import Path

from tools.peers.mediapipe_peer import Peer, native_log_held_back, read_frames
from tools.shared.bench_args import count

WARMUP_FRAMES = 10


def stream(process, frames, first, length, period_ns):
    """One live stream of `length` frames, from frames[first] on (cycled): the latency in ms of
    each processed frame, and how many were answered within their slot."""
    clock = time.monotonic_ns
    start = clock()
    latencies_ms, answered, next_frame = [], 0, 0
    while next_frame < length:
        newest = min(length - 1, (clock() - start) // period_ns)
        if newest < next_frame:
            time.sleep(max(0, start + next_frame * period_ns - clock()) / 1e9)
            continue
        process(frames[(first + newest) % len(frames)])
        latency_ns = clock() - (start + newest * period_ns)
        latencies_ms.append(round(latency_ns / 1e6, 3))
        answered += latency_ns <= period_ns
        next_frame = newest + 1
    return latencies_ms, answered


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=Path, required=True, help="folder of frame_*.jpg files")
    parser.add_argument("--fps", type=count(1), default=30, help="frames per second of the stream (default 30)")
    parser.add_argument("--mode", choices=("landmarks", "tasks"), default="landmarks",
                        help="FaceMesh(refine_landmarks=True), or the Tasks FaceLandmarker (default landmarks)")
    parser.add_argument("--models", type=Path, help="folder of face_landmarker.task (--mode tasks)")
    args = parser.parse_args()
    frames = read_frames(args.frames)
    peer = Peer(args.models)
    with native_log_held_back():
        solution, _ = peer.solution(args.mode)

        def process(jpeg):
            return solution.process(peer.decode(jpeg))

        for k in range(WARMUP_FRAMES):
            process(frames[k % len(frames)])
    print("ready", flush=True)
    period_ns = round(1e9 / args.fps)
    position = WARMUP_FRAMES
    for line in sys.stdin:
        try:
            length = int(line)
        except ValueError:
            sys.exit(f"error: expected a number of frames per line, got {line.strip()!r}")
        latencies_ms, answered = stream(process, frames, position, length, period_ns)
        position += length
        print(json.dumps({"frames": length, "processed": len(latencies_ms), "answered": answered,
                          "latencies_ms": latencies_ms}), flush=True)
    solution.close()


if __name__ == "__main__":
    main()
