"""Write the face-pipeline golden file: MediaPipe 0.10.14's results on every pipeline fixture.

    .venv-tools/bin/python -m tools.goldens.make_pipeline_goldens \
        --fixtures Tests/Fixtures --out Tests/FaceDetectionTests/Goldens/pipeline.json

Each fixture JPEG listed in the fixtures' manifest.json is decoded by Pillow to RGB uint8 and
given to MediaPipe's legacy solutions:

* stills: FaceDetection with model_selection 0 ("detection_short") and 1 ("detection_full"),
  min_detection_confidence 0.5; FaceMesh in static-image mode, up to 4 faces, without refined
  landmarks ("mesh": 468 x, y, z per face; the refined 478 points are make_attention_goldens.py's);
* videos, frame by frame in order: FaceMesh in video mode (tracking on, up to 2 faces, no
  refinement; per face the landmark bounding box and points 1, 33, 263) and FaceDetection with
  model_selection 0.

Coordinates are MediaPipe's normalized ones (x / width, y / height; z on the x scale), every
number is rounded to 5 decimals, and faces keep MediaPipe's order. The run stops with an error
when a model finds a different number of faces than the manifest says the fixture shows.
"""

import argparse
import json
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
from PIL import Image

from tools.goldens import json_layout
from tools.shared.mediapipe_solutions import PINNED_VERSION, load_solutions

# Stills made for another golden: the far faces of the Face Landmarker's accurate mode, which neither
# short-range detection nor FaceMesh finds and whose full-range detections are that test's own.
NOT_COVERED = {"group_small_faces.jpg"}

DECIMALS = 5
TRACKED_POINTS = (1, 33, 263)
KEYPOINT_ORDER = ["RIGHT_EYE", "LEFT_EYE", "NOSE_TIP", "MOUTH_CENTER", "RIGHT_EAR_TRAGION", "LEFT_EAR_TRAGION"]
KEYPOINT_SIDES = "subject-relative: RIGHT_EYE is the subject's right eye, on the image's left in a frontal face"
STILL_MODELS = ("detection_short", "detection_full", "mesh")


def r(value):
    # Adding 0.0 turns -0.0 into 0.0, so a sign flip below the printed precision never shows.
    return round(float(value), DECIMALS) + 0.0


def decode(path):
    with Image.open(path) as image:
        return np.ascontiguousarray(np.asarray(image.convert("RGB"), dtype=np.uint8))


def detections(detector, pixels):
    faces = []
    for detection in detector.process(pixels).detections or []:
        location = detection.location_data
        box = location.relative_bounding_box
        faces.append({"box": [r(box.xmin), r(box.ymin), r(box.width), r(box.height)],
                      "score": r(detection.score[0]),
                      "keypoints": [[r(k.x), r(k.y)] for k in location.relative_keypoints]})
    return faces


def mesh_faces(mesh, pixels):
    return [face.landmark for face in mesh.process(pixels).multi_face_landmarks or []]


def mesh_points(faces):
    return [[[r(p.x), r(p.y), r(p.z)] for p in face] for face in faces]


def tracked_summary(faces):
    summary = []
    for face in faces:
        xs, ys = [p.x for p in face], [p.y for p in face]
        entry = {"bbox": [r(min(xs)), r(min(ys)), r(max(xs)), r(max(ys))]}
        entry.update({f"p{i}": [r(face[i].x), r(face[i].y)] for i in TRACKED_POINTS})
        summary.append(entry)
    return summary


def still_goldens(solutions, fixtures, images):
    detectors = {key: solutions.face_detection.FaceDetection(model_selection=selection, min_detection_confidence=0.5)
                 for key, selection in (("detection_short", 0), ("detection_full", 1))}
    mesh = solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=4, refine_landmarks=False,
                                        min_detection_confidence=0.5)
    goldens = {}
    for entry in images:
        pixels = decode(fixtures / entry["file"])
        goldens[entry["file"]] = {
            "width": int(pixels.shape[1]), "height": int(pixels.shape[0]),
            "detection_short": detections(detectors["detection_short"], pixels),
            "detection_full": detections(detectors["detection_full"], pixels),
            "mesh": mesh_points(mesh_faces(mesh, pixels)),
        }
    for solution in (*detectors.values(), mesh):
        solution.close()
    return goldens


def video_goldens(solutions, fixtures, frames):
    detector = solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5)
    mesh = solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=2, refine_landmarks=False,
                                        min_detection_confidence=0.5, min_tracking_confidence=0.5)
    results = []
    for entry in frames:
        pixels = decode(fixtures / entry["file"])
        results.append({"file": entry["file"],
                        "detection_short": detections(detector, pixels),
                        "mesh_faces": tracked_summary(mesh_faces(mesh, pixels))})
    detector.close()
    mesh.close()
    return results


def stills(manifest):
    """The manifest's still images that this golden covers."""
    return [entry for entry in manifest["images"] if entry["file"] not in NOT_COVERED]


def check_counts(manifest, goldens):
    """Print faces found per fixture and model; return the mismatches with the manifest."""
    shown = {entry["file"]: entry["faces"] for entry in stills(manifest)}
    wrong = []
    print(f"{'image':28} faces  " + "  ".join(f"{model:>15}" for model in STILL_MODELS))
    for file, result in goldens["images"].items():
        found = [len(result[model]) for model in STILL_MODELS]
        print(f"{file:28} {shown[file]:5}  " + "  ".join(f"{n:15}" for n in found))
        wrong += [f"{file}: {model} found {n}, expected {shown[file]}" for model, n in zip(STILL_MODELS, found) if n != shown[file]]
    for name, frames in goldens["videos"].items():
        wanted = [entry["faces"] for entry in manifest["videos"][name]]
        short = [len(frame["detection_short"]) for frame in frames]
        tracked = [len(frame["mesh_faces"]) for frame in frames]
        print(f"{name}: detection_short per frame {short}; mesh per frame {tracked}")
        wrong += [f"{frame['file']}: {model} found {n}, expected {want}"
                  for frame, want, s, t in zip(frames, wanted, short, tracked)
                  for model, n in (("detection_short", s), ("mesh", t)) if n != want]
    return wrong


def generate(fixtures, out):
    manifest = json.loads((fixtures / "manifest.json").read_text())
    solutions = load_solutions()
    goldens = {
        "generator": "tools/goldens/make_pipeline_goldens.py",
        "mediapipe": PINNED_VERSION,
        "decoder": f"Pillow {version('pillow')}, RGB uint8",
        "coordinates": "normalized: x / width, y / height, z on the scale of x; origin top-left",
        "keypoint_order": KEYPOINT_ORDER,
        "keypoint_sides": KEYPOINT_SIDES,
        "images": still_goldens(solutions, fixtures, stills(manifest)),
        "videos": {name: video_goldens(solutions, fixtures, frames) for name, frames in manifest["videos"].items()},
    }
    wrong = check_counts(manifest, goldens)
    if wrong:
        sys.exit("error: MediaPipe disagrees with the fixture manifest:\n  " + "\n  ".join(wrong))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json_layout.dumps(goldens, depth=3) + "\n")
    keep_marker = out.parent / ".keep"
    if keep_marker.exists():
        keep_marker.unlink()
    print(f"wrote {out}, {out.stat().st_size / 1024:.0f} KiB")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", type=Path, default=Path("Tests/Fixtures"),
                        help="folder made by make_pipeline_fixtures.py")
    parser.add_argument("--out", type=Path, default=Path("Tests/FaceDetectionTests/Goldens/pipeline.json"),
                        help="golden file to write")
    args = parser.parse_args()
    generate(args.fixtures, args.out)


if __name__ == "__main__":
    main()
