"""P2 through the Python client, for `make bench`: one FaceLandmarker in video mode, timed per frame.

It runs in the client's own light environment, the one `make test-python` builds, not in the
tools' environment (which holds MediaPipe, not the client):

    .venv-client/bin/python -m tools.bench.bench_python_client --socket SOCKET --frames DIR

The task asks for what face-bench --landmarks asks for, P2's workload: video mode, tracking, ML
Kit's landmarks, contours and classification, the 478-point mesh, one face, every other option
at the worker's default. With --landmarker it asks for P2t's, what face-bench --landmarker asks for
and a MediaPipe Tasks program would: video mode, one face, the Face Landmarker's 478 points with
blendshapes and the facial transformation matrix. The frame_*.jpg files of DIR are sent in name order, cycled, their JPEG
bytes handed to detect_for_video as they are. A frame's time runs from the call to the
FaceLandmarkerResult it returns; neither it nor MediaPipe's time reads the points afterwards (the
client may build them on access, as MediaPipe's protobuf results build their Python objects).
The --warmup frames come first, in the same session, untimed, as MediaPipe's peer warms up.

Prints one JSON line: median_ms, overhead_median_ms (round trip minus the worker's own total: the
socket, the client's encoding and decoding), frames timed and faces found in them.
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from tools.shared.bench_args import count


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", required=True, help="the worker's socket")
    parser.add_argument("--frames", type=Path, required=True, help="folder of frame_*.jpg files")
    parser.add_argument("--warmup", type=count(0), default=30, help="untimed frames first (default 30)")
    parser.add_argument("--iterations", type=count(1), default=300, help="timed frames (default 300)")
    parser.add_argument("--landmarker", action="store_true",
                        help="P2t's workload: blendshapes and matrices, no ML Kit outputs")
    args = parser.parse_args()
    try:
        from faceworker import BaseOptions, vision
    except ImportError:
        sys.exit("error: the faceworker package is not installed in this interpreter; "
                 "`make .venv-client/.ok` builds .venv-client with it")
    frames = [path.read_bytes() for path in sorted(args.frames.glob("frame_*.jpg"))]
    if not frames:
        sys.exit(f"error: no frame_*.jpg in {args.frames}")

    if args.landmarker:
        workload = dict(output_face_blendshapes=True, output_facial_transformation_matrixes=True)
    else:
        # P2's workload runs the attention mesh, as face-bench --landmarks does; the Tasks-style
        # FaceLandmarker would otherwise run the Face Landmarker's own, costlier mesh.
        workload = dict(landmark_mode=vision.LandmarkMode.ALL, contour_mode=vision.ContourMode.ALL,
                        classification_mode=vision.ClassificationMode.ALL, tracking_enabled=True,
                        mesh_model=vision.MeshModel.ATTENTION_MESH)
    options = vision.FaceLandmarkerOptions(
        base_options=BaseOptions(socket_path=args.socket),
        running_mode=vision.RunningMode.VIDEO,
        num_faces=1,
        **workload,
    )
    clock = time.perf_counter_ns
    samples_ns, overheads_ns, faces = [], [], 0
    with vision.FaceLandmarker.create_from_options(options) as landmarker:
        for k in range(args.warmup + args.iterations):
            jpeg, timestamp_ms = frames[k % len(frames)], round(k * 1000 / 30)
            start = clock()
            result = landmarker.detect_for_video(jpeg, timestamp_ms)
            elapsed = clock() - start
            if k >= args.warmup:
                samples_ns.append(elapsed)
                overheads_ns.append(max(0, elapsed - result.timings.total_us * 1000))
                faces += len(result.face_landmarks)
    print(json.dumps({"median_ms": round(statistics.median(samples_ns) / 1e6, 4),
                      "overhead_median_ms": round(statistics.median(overheads_ns) / 1e6, 4),
                      "frames": len(samples_ns), "faces": faces}))


if __name__ == "__main__":
    main()
