"""Write the plain face mesh golden file: MediaPipe 0.10.14's FaceMesh without refined landmarks.

    .venv-tools/bin/python -m tools.goldens.make_face_mesh_goldens

Tests/FaceDetectionTests/Goldens/face_mesh.json: FaceMesh(refine_landmarks=False)'s 468 points,
the plain face mesh's (face_landmark.tflite), on every fixture image (static_image_mode=True,
max_num_faces=4) and on each fixture video frame by frame (static_image_mode=False, max_num_faces =
the most faces the video shows), min_detection_confidence and min_tracking_confidence 0.5, with
each face's ROI and presence score, observed inside the same graph. The layout is that of
make_attention_goldens.py's attention_mesh.json, whose 478 points are the refined mesh's.

Reruns give the same bytes. The run stops with an error when MediaPipe finds another number of
faces than the fixture manifest says an image or frame shows (KNOWN_MISSES aside), or when the
landmark stage on its own disagrees with FaceMesh.
"""

import argparse
import json
import sys
from importlib.metadata import version
from pathlib import Path

from tools.goldens import json_layout
from tools.goldens.make_attention_goldens import POINT_DECIMALS, check_counts, still_goldens, video_goldens
from tools.shared.mediapipe_solutions import PINNED_VERSION, load_solutions

GENERATOR = "tools/goldens/make_face_mesh_goldens.py"
POINTS = 468
STILL_FACES = 4
# Faces MediaPipe itself does not report, kept as its answer rather than hidden by a changed fixture.
KNOWN_MISSES = {
    "group_small_faces.jpg": "FaceMesh's detector is the short-range one, for faces within about 2 m; "
                             "it finds none of the ten small, far faces",
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", type=Path, default=Path("Tests/Fixtures"),
                        help="folder made by make_pipeline_fixtures.py")
    parser.add_argument("--out", type=Path, default=Path("Tests/FaceDetectionTests/Goldens/face_mesh.json"),
                        help="the 468-point golden file to write")
    args = parser.parse_args()

    manifest = json.loads((args.fixtures / "manifest.json").read_text())
    solutions = load_solutions()
    images, stage_faces = still_goldens(solutions, args.fixtures, manifest["images"], refine=False)
    for file, image in images.items():
        for face in image["faces"]:
            if len(face["points"]) != POINTS:
                sys.exit(f"error: {file}: FaceMesh gave {len(face['points'])} points, not {POINTS}")
    goldens = {
        "generator": GENERATOR,
        "mediapipe": PINNED_VERSION,
        "decoder": f"Pillow {version('pillow')}, RGB uint8",
        "stills": f"FaceMesh(static_image_mode=True, max_num_faces={STILL_FACES}, refine_landmarks=False, "
                  "min_detection_confidence=0.5) on each image alone",
        "videos_run": "FaceMesh(static_image_mode=False, max_num_faces=<the video's max_num_faces>, "
                      "refine_landmarks=False, min_detection_confidence=0.5, min_tracking_confidence=0.5), "
                      "one instance per video, frames in order",
        "points": f"FaceMesh's multi_face_landmarks: per face {POINTS} [x, y, z] of the plain face mesh "
                  "(face_landmark.tflite), normalized (x / width, y / height, z on the scale of x), origin "
                  f"top-left, rounded to {POINT_DECIMALS} decimals; faces in FaceMesh's order",
        "roi": "the NormalizedRect (normalized to the image's width and height, rotation in radians, clockwise "
               "on screen) that FaceLandmarkCpu cropped this face from: from the detector, or in videos from "
               "the previous frame's landmarks (roi_source: \"detection\" or \"landmarks\"); observed in the "
               "same graph, at float32 precision",
        "presence": "the face presence score of that crop: sigmoid of the model's face flag; below 0.5 "
                    "(min_tracking_confidence) the crop yields no face and its ROI is listed in rejected_rois",
        "landmark_stage": f"FaceLandmarkCpu (without WITH_ATTENTION) run alone on each still image's face ROI "
                          f"returns exactly that face's points (checked bit for bit on all {stage_faces} still "
                          "faces), so points is also the golden of the landmark stage alone for that roi",
        "known_misses": [{"file": file, "why": why} for file, why in KNOWN_MISSES.items()],
        "images": images,
        "videos": {name: video_goldens(solutions, args.fixtures, frames, refine=False)
                   for name, frames in manifest["videos"].items()},
    }
    wrong = check_counts(manifest, goldens, KNOWN_MISSES)
    if wrong:
        sys.exit("error: MediaPipe's unrefined FaceMesh disagrees with the fixture manifest:\n  " + "\n  ".join(wrong))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json_layout.dumps(goldens, depth=4) + "\n")

    still_count = sum(len(e["faces"]) for e in goldens["images"].values())
    print(f"{POINTS}-point faces: {still_count} on {len(goldens['images'])} images; " + "; ".join(
        f"{name} {sum(len(f['faces']) for f in v['frames'])} faces over {len(v['frames'])} frames"
        for name, v in goldens["videos"].items()))
    print(f"wrote {args.out}, {args.out.stat().st_size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
