"""Write the Swift vision APIs' golden file: what the Python client answers on the fixtures.

    .venv-client/bin/python -m tools.goldens.make_client_goldens \
        --worker .build/debug/face-worker --models models \
        --fixtures Tests/Fixtures \
        --out Tests/FaceWorkerVisionAPITests/Goldens/python_client.json

The Swift products that mirror MediaPipe Tasks (FaceDetector, FaceLandmarker) and ML Kit
(FaceDetector) must give the Python client's results on the same images with the same options.
This script starts a worker on a private socket, runs the Python client's tasks on the fixtures,
and writes what they answer:

* detector: vision.FaceDetector with its defaults; IMAGE on the stills, VIDEO on the one-face
  video (frame k at k * 33 ms);
* landmarker: vision.FaceLandmarker with num_faces 2, blendshapes and matrices on; IMAGE on the
  stills, VIDEO on the first frames of the video;
* mlkit: vision.FaceDetector with ML Kit's options (accurate, every landmark, contour and
  classification); IMAGE on the stills, and VIDEO with tracking on the two-face video.

Numbers are written with 9 significant digits, which identify a float32 exactly. Boxes are the
Python client's (whole pixels, halves to even).
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import faceworker as mp
from faceworker import BaseOptions, vision

STILLS = ["astronaut.jpg", "two_faces.jpg", "three_faces.jpg", "chelsea.jpg"]
LANDMARKER_STILLS = ["astronaut.jpg", "two_faces.jpg", "chelsea.jpg"]
LANDMARKER_VIDEO_FRAMES = 6
FRAME_MS = 33


def n(value):
    return float(f"{float(value):.9g}")


def detection(item):
    box = item.bounding_box
    return {
        "box": [box.origin_x, box.origin_y, box.width, box.height],
        "score": n(item.categories[0].score),
        "keypoints": [[n(point.x), n(point.y)] for point in item.keypoints],
        "labels": [point.label for point in item.keypoints],
    }


def mlkit_face(item):
    def optional(value):
        return None if value is None else n(value)

    box = item.bounding_box
    return {
        "box": [box.origin_x, box.origin_y, box.width, box.height],
        "landmarks": {landmark.type.name: [n(landmark.position.x), n(landmark.position.y)] for landmark in item.landmarks},
        "contours": {contour.type.name: [[n(p.x), n(p.y)] for p in contour.points] for contour in item.contours},
        "head_euler_angle_x": optional(item.head_euler_angle_x),
        "head_euler_angle_y": optional(item.head_euler_angle_y),
        "head_euler_angle_z": optional(item.head_euler_angle_z),
        "smiling_probability": optional(item.smiling_probability),
        "left_eye_open_probability": optional(item.left_eye_open_probability),
        "right_eye_open_probability": optional(item.right_eye_open_probability),
        "tracking_id": item.tracking_id,
    }


def landmarker_result(result):
    return {
        "landmarks": [[[n(p.x), n(p.y), n(p.z)] for p in face] for face in result.face_landmarks],
        "blendshapes": [[n(c.score) for c in face] for face in result.face_blendshapes],
        "blendshape_names": [[c.category_name for c in face] for face in result.face_blendshapes],
        "matrices": [[n(value) for row in matrix for value in row] for matrix in result.facial_transformation_matrixes],
    }


def frames(directory):
    return sorted(path for path in directory.iterdir() if path.suffix == ".jpg")


def start_worker(worker, models, directory):
    socket_path = os.path.join(directory, "worker.sock")
    log = open(os.path.join(directory, "worker.log"), "w")
    process = subprocess.Popen([worker, "--socket", socket_path, "--models", models], stdout=log, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"the worker exited with status {process.returncode}")
        probe = socket.socket(socket.AF_UNIX)
        try:
            probe.connect(socket_path)
            return process, socket_path
        except OSError:
            time.sleep(0.05)
        finally:
            probe.close()
    sys.exit("the worker did not listen within 60 s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", required=True)
    parser.add_argument("--models", required=True)
    parser.add_argument("--fixtures", required=True, type=Path)
    parser.add_argument("--out", required=True, type=Path)
    arguments = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="fw-goldens-") as directory:
        process, socket_path = start_worker(arguments.worker, arguments.models, directory)
        try:
            base = BaseOptions(socket_path=socket_path)
            image = lambda path: mp.Image.create_from_file(str(path))
            fixtures = arguments.fixtures
            video = frames(fixtures / "video")
            two_faces_video = frames(fixtures / "two_faces_video")
            goldens = {"generator": "tools/goldens/make_client_goldens.py", "frame_ms": FRAME_MS}

            with vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base)) as task:
                goldens["detector_image"] = {name: [detection(d) for d in task.detect(image(fixtures / name)).detections] for name in STILLS}
            options = vision.FaceDetectorOptions(base_options=base, running_mode=vision.RunningMode.VIDEO)
            with vision.FaceDetector.create_from_options(options) as task:
                goldens["detector_video"] = [
                    [detection(d) for d in task.detect_for_video(image(path), k * FRAME_MS).detections] for k, path in enumerate(video)
                ]

            def landmarker_options(mode):
                return vision.FaceLandmarkerOptions(
                    base_options=base, running_mode=mode, num_faces=2,
                    output_face_blendshapes=True, output_facial_transformation_matrixes=True)

            with vision.FaceLandmarker.create_from_options(landmarker_options(vision.RunningMode.IMAGE)) as task:
                goldens["landmarker_image"] = {name: landmarker_result(task.detect(image(fixtures / name))) for name in LANDMARKER_STILLS}
            with vision.FaceLandmarker.create_from_options(landmarker_options(vision.RunningMode.VIDEO)) as task:
                goldens["landmarker_video"] = [
                    landmarker_result(task.detect_for_video(image(path), k * FRAME_MS))
                    for k, path in enumerate(video[:LANDMARKER_VIDEO_FRAMES])
                ]

            def mlkit_options(mode, tracking):
                return vision.FaceDetectorOptions(
                    base_options=base, running_mode=mode,
                    performance_mode=vision.PerformanceMode.ACCURATE,
                    landmark_mode=vision.LandmarkMode.ALL, contour_mode=vision.ContourMode.ALL,
                    classification_mode=vision.ClassificationMode.ALL, min_face_size=0.1, tracking_enabled=tracking)

            with vision.FaceDetector.create_from_options(mlkit_options(vision.RunningMode.IMAGE, False)) as task:
                goldens["mlkit_image"] = {name: [mlkit_face(d) for d in task.detect(image(fixtures / name)).detections] for name in STILLS}
            with vision.FaceDetector.create_from_options(mlkit_options(vision.RunningMode.VIDEO, True)) as task:
                goldens["mlkit_tracking"] = [
                    [mlkit_face(d) for d in task.detect_for_video(image(path), k * FRAME_MS).detections]
                    for k, path in enumerate(two_faces_video)
                ]
        finally:
            process.terminate()
            process.wait()

    arguments.out.write_text(json.dumps(goldens, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
