"""FaceDetector in IMAGE mode: what a user gets for photographs in every accepted input form."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from PIL import Image as PILImage

import faceworker as mp
from faceworker import vision
from faceworker.vision import ImageProcessingOptions

from conftest import box_centre, fixture_path

# The astronaut's face centre in astronaut.jpg, from the fixtures' manifest.
ASTRONAUT_FACE = (225.0, 130.0)
ASTRONAUT_FACE_SIZE = 95


@pytest.fixture
def detector(base_options):
    with vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options)) as task:
        yield task


def rgb_array(name: str) -> np.ndarray:
    with PILImage.open(fixture_path(name)) as picture:
        return np.asarray(picture.convert("RGB"))


def assert_astronaut_face(result: vision.FaceDetectorResult) -> None:
    assert len(result.detections) == 1
    detection = result.detections[0]
    x, y = box_centre(detection)
    assert math.dist((x, y), ASTRONAUT_FACE) < 15
    assert 0.6 * ASTRONAUT_FACE_SIZE < detection.bounding_box.width < 1.5 * ASTRONAUT_FACE_SIZE


def test_one_face_on_the_astronaut_with_a_box_where_the_face_is(detector):
    result = detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))

    assert_astronaut_face(result)
    detection = result.detections[0]
    assert 0.5 <= detection.categories[0].score <= 1.0
    assert [keypoint.label for keypoint in detection.keypoints] == [
        "RIGHT_EYE", "LEFT_EYE", "NOSE_TIP", "MOUTH_CENTER", "RIGHT_EAR_TRAGION", "LEFT_EAR_TRAGION",
    ]
    box = detection.bounding_box
    for keypoint in detection.keypoints[:4]:
        # Eyes, nose and mouth lie inside the face's box (keypoints are normalized).
        assert box.origin_x <= keypoint.x * 512 <= box.origin_x + box.width
        assert box.origin_y <= keypoint.y * 512 <= box.origin_y + box.height
    # The person's right eye is on the image's left.
    assert detection.keypoints[0].x < detection.keypoints[1].x


def test_no_face_on_the_cat(detector):
    result = detector.detect(mp.Image.create_from_file(fixture_path("chelsea.jpg")))

    assert result.detections == []
    assert (result.image_width, result.image_height) == (451, 300)


def test_result_carries_frame_facts_and_stage_timings(detector):
    result = detector.detect(mp.Image.create_from_file(fixture_path("camera.jpg")))

    assert len(result.detections) == 1
    assert (result.image_width, result.image_height) == (512, 512)
    assert result.detector_ran
    timings = result.timings
    assert timings.detect_us > 0
    assert timings.landmarks_us == 0  # no landmark output was asked for
    assert timings.total_us >= timings.queued_us + timings.decode_us + timings.detect_us
    assert timings.received_unix_us > 1_600_000_000 * 1_000_000


def test_jpeg_bytes_work_like_an_image_from_the_file(detector):
    with open(fixture_path("astronaut.jpg"), "rb") as file:
        from_bytes = detector.detect(file.read())

    from_file = detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))

    assert from_bytes.detections == from_file.detections


def test_rgb_and_bgr_arrays_give_the_same_faces(detector):
    rgb = rgb_array("astronaut.jpg")

    from_rgb = detector.detect(mp.Image(mp.ImageFormat.SRGB, rgb))
    from_bgr = detector.detect(mp.Image(mp.ImageFormat.SBGR, rgb[:, :, ::-1]))

    assert_astronaut_face(from_rgb)
    assert from_bgr.detections == from_rgb.detections


def test_channel_order_matters(detector):
    rgb = rgb_array("astronaut.jpg")

    # The same bytes read as BGR swap red and blue: the detector sees other colours.
    swapped = detector.detect(mp.Image(mp.ImageFormat.SBGR, rgb))
    correct = detector.detect(mp.Image(mp.ImageFormat.SRGB, rgb))

    assert swapped.detections[0].categories[0].score != correct.detections[0].categories[0].score


def test_rgba_array_and_raw_bytes_give_the_same_faces(detector):
    rgb = rgb_array("astronaut.jpg")
    rgba = np.concatenate([rgb, np.full(rgb.shape[:2] + (1,), 255, np.uint8)], axis=2)

    from_rgb = detector.detect(mp.Image(mp.ImageFormat.SRGB, rgb))
    from_rgba = detector.detect(mp.Image(mp.ImageFormat.SRGBA, rgba))
    from_bytes = detector.detect(mp.Image(mp.ImageFormat.SRGB, rgb.tobytes(), width=512, height=512))

    assert from_rgba.detections == from_rgb.detections
    assert from_bytes.detections == from_rgb.detections


def test_rotation_degrees_turn_a_sideways_image_upright(detector):
    # np.rot90 turns the picture counter-clockwise: 90 degrees clockwise puts it back.
    sideways = np.ascontiguousarray(np.rot90(rgb_array("astronaut.jpg")))

    result = detector.detect(
        mp.Image(mp.ImageFormat.SRGB, sideways), ImageProcessingOptions(rotation_degrees=90)
    )
    unrotated = detector.detect(mp.Image(mp.ImageFormat.SRGB, sideways))

    assert_astronaut_face(result)
    assert all(math.dist(box_centre(face), ASTRONAUT_FACE) > 50 for face in unrotated.detections)


def test_orientation_names_a_mirrored_image(detector):
    mirrored = np.ascontiguousarray(rgb_array("astronaut.jpg")[:, ::-1])

    result = detector.detect(
        mp.Image(mp.ImageFormat.SRGB, mirrored), ImageProcessingOptions(orientation=mp.Orientation.TOP_RIGHT)
    )

    assert_astronaut_face(result)


def test_region_of_interest_is_refused_as_in_mediapipe(detector):
    with pytest.raises(ValueError, match="region-of-interest"):
        detector.detect(
            mp.Image.create_from_file(fixture_path("astronaut.jpg")),
            ImageProcessingOptions(region_of_interest=(0, 0, 1, 1)),
        )


def test_detector_reports_every_face_by_default(detector):
    result = detector.detect(mp.Image.create_from_file(fixture_path("three_faces.jpg")))

    assert len(result.detections) == 3
    scores = [detection.categories[0].score for detection in result.detections]
    assert scores == sorted(scores, reverse=True)


def test_num_faces_limits_the_faces_reported(base_options):
    options = vision.FaceDetectorOptions(base_options=base_options, num_faces=1)
    with vision.FaceDetector.create_from_options(options) as detector:
        result = detector.detect(mp.Image.create_from_file(fixture_path("three_faces.jpg")))

    assert len(result.detections) == 1


def test_min_detection_confidence_filters_faces(base_options):
    strict = vision.FaceDetectorOptions(base_options=base_options, min_detection_confidence=0.999)
    with vision.FaceDetector.create_from_options(strict) as detector:
        result = detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))

    assert result.detections == []


def test_accurate_mode_finds_the_face_too(base_options):
    options = vision.FaceDetectorOptions(base_options=base_options, performance_mode=vision.PerformanceMode.ACCURATE)
    with vision.FaceDetector.create_from_options(options) as detector:
        result = detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))

    assert_astronaut_face(result)


def test_create_from_model_path_opens_an_image_mode_detector(worker, monkeypatch):
    # The fixture's socket is named as the worker's default one in XDG_RUNTIME_DIR.
    monkeypatch.delenv("FACEWORKER_SOCKET", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(Path(worker.socket_path).parent))
    with vision.FaceDetector.create_from_model_path("blaze_face_short_range.tflite") as detector:
        result = detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))

    assert_astronaut_face(result)
