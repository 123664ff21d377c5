"""Command line: ``python -m faceworker annotate IN OUT`` draws what the worker sees.

The worker finds every face in IN (a JPEG is sent as it is; other formats
are decoded with Pillow), and OUT (PNG, or any format Pillow writes) shows
each face's box with its tracking ID, score and probabilities, its ML Kit
contours and landmarks, and the detector's six keypoints. One line per face
is printed too.
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional, Sequence

from . import vision
from ._draw import draw_result, face_label
from .errors import FaceWorkerError
from .image import Image, ImageFormat
from .options import BaseOptions

_PILLOW_MISSING = "annotate draws with Pillow, which is not installed: pip install 'faceworker[annotate]'"


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line; returns the process exit status."""
    parser = _parser()
    arguments = parser.parse_args(argv)
    return arguments.run(arguments)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m faceworker", description="FaceWorker client tools.")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")
    annotate = commands.add_parser(
        "annotate",
        help="draw the faces the worker finds on an image",
        description="Draw boxes, keypoints, ML Kit landmarks and contours, and tracking IDs onto a copy of an image.",
    )
    annotate.add_argument("input", help="the image to look at (JPEG, or any format Pillow reads)")
    annotate.add_argument("output", help="where to write the annotated image (PNG, or any format Pillow writes)")
    annotate.add_argument(
        "--socket", help="the worker's socket (default: $FACEWORKER_SOCKET, else the worker's default socket)"
    )
    annotate.add_argument("--accurate", action="store_true", help="use the full-range detector (smaller faces)")
    annotate.set_defaults(run=_annotate)
    return parser


def _annotate(arguments: argparse.Namespace) -> int:
    try:
        from PIL import Image as PILImage
    except ImportError:
        print(_PILLOW_MISSING, file=sys.stderr)
        return 2
    with PILImage.open(arguments.input) as opened:
        picture = opened.convert("RGB")
        is_jpeg = opened.format == "JPEG"
    if is_jpeg:
        image = Image.create_from_file(arguments.input)
    else:
        image = Image(ImageFormat.SRGB, picture.tobytes(), width=picture.width, height=picture.height)
    options = vision.FaceDetectorOptions(
        base_options=BaseOptions(socket_path=arguments.socket),
        # VIDEO mode, so that faces get the tracking IDs a video would give them.
        running_mode=vision.RunningMode.VIDEO,
        performance_mode=vision.PerformanceMode.ACCURATE if arguments.accurate else vision.PerformanceMode.FAST,
        landmark_mode=vision.LandmarkMode.ALL,
        contour_mode=vision.ContourMode.ALL,
        classification_mode=vision.ClassificationMode.ALL,
        tracking_enabled=True,
    )
    try:
        with vision.FaceDetector.create_from_options(options) as detector:
            result = detector.detect_for_video(image, 0)
    except FaceWorkerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    draw_result(picture, result)
    picture.save(arguments.output)
    for line in _summary(result):
        print(line)
    return 0


def _summary(result: vision.FaceDetectorResult) -> List[str]:
    lines = [f"{len(result.detections)} face(s) in {result.image_width}x{result.image_height}"]
    for detection in result.detections:
        box = detection.bounding_box
        lines.append(f"  box ({box.origin_x}, {box.origin_y}, {box.width}x{box.height})  {face_label(detection)}")
    return lines


if __name__ == "__main__":
    sys.exit(main())
