"""A second session beside `make bench`'s measured one, for the P2t-busy-neighbour and P2t-with-stream
rows. It runs in the client's own environment (.venv-client), as bench_python_client.py does:

    .venv-client/bin/python -m tools.bench.bench_neighbour --socket SOCKET --frames DIR [--fps 5]

It opens a FaceDetector session in video mode (detection only) and prints "ready". Without --fps
the session then stays open and idle; with --fps it sends the frame_*.jpg files of DIR, in name
order and cycled, at that rate, each detect_for_video call waiting for its result. End of input
closes the session, and the program prints one JSON line: {"frames": N, "faces": F}, the frames it
sent and the faces found in them.
"""

import argparse
import json
import sys
import threading
import time
from pathlib import Path

from tools.peers.mediapipe_peer import read_frames
from tools.shared.bench_args import count


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", required=True, help="the worker's socket")
    parser.add_argument("--frames", type=Path, required=True, help="folder of frame_*.jpg files")
    parser.add_argument("--fps", type=count(1), help="send detection frames at this rate (default: stay idle)")
    args = parser.parse_args()
    try:
        from faceworker import BaseOptions, vision
    except ImportError:
        sys.exit("error: the faceworker package is not installed in this interpreter; "
                 "`make .venv-client/.ok` builds .venv-client with it")
    frames = read_frames(args.frames)
    options = vision.FaceDetectorOptions(base_options=BaseOptions(socket_path=args.socket),
                                         running_mode=vision.RunningMode.VIDEO)
    finished = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), finished.set()), daemon=True).start()
    sent = faces = 0
    with vision.FaceDetector.create_from_options(options) as detector:
        print("ready", flush=True)
        if args.fps is None:
            finished.wait()
        else:
            period_s = 1 / args.fps
            start = time.monotonic()
            while not finished.wait(max(0.0, start + sent * period_s - time.monotonic())):
                result = detector.detect_for_video(frames[sent % len(frames)], round(sent * period_s * 1000))
                faces += len(result.detections)
                sent += 1
    print(json.dumps({"frames": sent, "faces": faces}), flush=True)


if __name__ == "__main__":
    main()
