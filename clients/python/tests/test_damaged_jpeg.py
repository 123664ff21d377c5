"""A JPEG cut short: decoded as libjpeg decodes it, with its warning on the result, or refused when asked."""

from __future__ import annotations

import pytest

import faceworker as mp
from faceworker import StatusCode, vision

from conftest import fixture_path


def cut_jpeg() -> bytes:
    with open(fixture_path("astronaut.jpg"), "rb") as file:
        jpeg = file.read()
    # The header stays whole; the compressed data stops two thirds of the way in.
    return jpeg[: len(jpeg) * 2 // 3]


def test_a_cut_jpeg_is_decoded_with_a_warning_by_default(base_options):
    with vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(base_options=base_options)) as detector:
        damaged = detector.detect(cut_jpeg())
        sound = detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))

    assert damaged.warnings, "no warning for a JPEG cut short"
    assert (damaged.image_width, damaged.image_height) == (sound.image_width, sound.image_height)
    assert sound.warnings == []


def test_refuse_damaged_jpeg_refuses_it_with_the_warning(base_options):
    options = vision.FaceDetectorOptions(base_options=base_options, refuse_damaged_jpeg=True)
    with vision.FaceDetector.create_from_options(options) as detector:
        with pytest.raises(mp.FaceWorkerError) as raised:
            detector.detect(cut_jpeg())
        assert len(detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg"))).detections) == 1

    assert raised.value.code == StatusCode.INVALID_ARGUMENT
    assert raised.value.message
