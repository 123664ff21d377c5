"""The Python client's own cost per FaceLandmarker result: one 478-point face, from wire bytes to points read.

    python clients/python/benchmarks/result_cost.py [--mlkit] [--repetitions N]

One repetition does what the client does with an answer that has arrived, and what a user then
does with it: parse the serialized WorkerMessage, turn its FrameResult into the
FaceLandmarkerResult that FaceLandmarker.detect returns, and read x, y and z of all 478 face mesh
points. Socket reads and the worker's time are not in it (face-bench measures transport).

The message is built with the generated protobuf code, as the worker answers a FaceLandmarker
with default options on a 640x360 frame: box, score, six keypoints, head angles, presence score
and the packed mesh, whose points scatter over a face-sized part of the image with the depths a
face has. --mlkit adds what a session with every ML Kit output and tracking gets too (`make
bench`'s P2): ML Kit's ten landmarks, fifteen contours (133 points), the probabilities and a
tracking ID.

Prints one JSON line: {"python_result_us": median microseconds per result}.
"""

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

# Runs from any environment that has protobuf (and numpy, for the fast path), installed client or not.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from faceworker import _convert  # noqa: E402
from faceworker._proto import faceworker_pb2 as pb  # noqa: E402

MESH_POINTS = 478
WIDTH, HEIGHT = 640, 360
# ML Kit's contour sizes, in ContourType order.
CONTOUR_POINTS = [36, 5, 5, 5, 5, 16, 16, 11, 9, 9, 9, 2, 3, 1, 1]


def answer(mlkit: bool) -> bytes:
    """A serialized WorkerMessage holding one frame's result with one face."""
    rng = random.Random(478)
    message = pb.WorkerMessage(call_id=1234)
    frame = message.frame_result
    frame.session_id = 1
    frame.timestamp_ms = 1_700_000_033
    frame.image_width, frame.image_height = WIDTH, HEIGHT
    frame.timings.received_unix_us = 1_700_000_000_033_000
    frame.timings.queued_us, frame.timings.decode_us, frame.timings.landmarks_us = 41, 598, 2612
    frame.timings.total_us = 3268
    face = frame.faces.add()
    centre_x, centre_y, half_width, half_height = 0.46, 0.41, 0.11, 0.24
    face.bounding_box.x = (centre_x - half_width) * WIDTH
    face.bounding_box.y = (centre_y - half_height) * HEIGHT
    face.bounding_box.width = 2 * half_width * WIDTH
    face.bounding_box.height = 2 * half_height * HEIGHT
    face.score = 0.9373
    for keypoint_type in range(1, 7):
        keypoint = face.keypoints.add(type=keypoint_type)
        keypoint.normalized.x = centre_x + rng.uniform(-half_width, half_width)
        keypoint.normalized.y = centre_y + rng.uniform(-half_height, half_height)
        keypoint.position.x = keypoint.normalized.x * WIDTH
        keypoint.position.y = keypoint.normalized.y * HEIGHT
    face.head_euler_angle_x, face.head_euler_angle_y, face.head_euler_angle_z = -4.7, 11.2, -2.9
    face.presence_score = 0.9991
    mesh = []
    for _ in range(MESH_POINTS):
        mesh += [
            centre_x + rng.uniform(-half_width, half_width),
            centre_y + rng.uniform(-half_height, half_height),
            rng.uniform(-0.08, 0.06),
        ]
    face.mesh_xyz.extend(mesh)
    if mlkit:
        for landmark_type in range(1, 11):
            landmark = face.landmarks.add(type=landmark_type)
            landmark.position.x = rng.uniform(230, 360)
            landmark.position.y = rng.uniform(60, 240)
        for contour_type, points in enumerate(CONTOUR_POINTS, start=1):
            contour = face.contours.add(type=contour_type)
            for _ in range(points):
                contour.points_xy.extend([rng.uniform(230, 360), rng.uniform(60, 240)])
        face.smiling_probability = 0.83
        face.left_eye_open_probability, face.right_eye_open_probability = 0.97, 0.95
        face.tracking_id = 0
    return message.SerializeToString()


def decode_and_read(payload: bytes) -> float:
    """What the client and its user do with one answer; returns a sum so nothing is skipped."""
    result = _convert.landmarker_result(pb.WorkerMessage.FromString(payload).frame_result)
    total = 0.0
    for point in result.face_landmarks[0]:
        total += point.x + point.y + point.z
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mlkit", action="store_true", help="add ML Kit's outputs and a tracking ID, as in P2")
    parser.add_argument("--repetitions", type=int, default=3000, help="timed results (default 3000)")
    parser.add_argument("--warmup", type=int, default=300, help="untimed results first (default 300)")
    args = parser.parse_args()
    if args.repetitions < 1 or args.warmup < 0:
        parser.error("--repetitions must be at least 1 and --warmup at least 0")

    payload = answer(args.mlkit)
    if len(_convert.landmarker_result(pb.WorkerMessage.FromString(payload).frame_result).face_landmarks[0]) != MESH_POINTS:
        sys.exit("error: the client did not return the 478 mesh points it was sent")
    for _ in range(args.warmup):
        decode_and_read(payload)
    samples_ns = []
    for _ in range(args.repetitions):
        start = time.perf_counter_ns()
        decode_and_read(payload)
        samples_ns.append(time.perf_counter_ns() - start)
    print(json.dumps({"python_result_us": round(statistics.median(samples_ns) / 1000, 1)}))


if __name__ == "__main__":
    main()
