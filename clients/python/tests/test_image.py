"""Image: the accepted forms, their sizes and pixels, and the forms refused before anything is sent."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image as PILImage

import faceworker as mp

from conftest import fixture_path


def test_a_jpeg_file_knows_its_size_from_its_header():
    image = mp.Image.create_from_file(fixture_path("chelsea.jpg"))

    assert image.image_format == mp.ImageFormat.JPEG
    assert (image.width, image.height) == (451, 300)


def test_numpy_view_of_a_jpeg_is_its_rgb_pixels():
    view = mp.Image.create_from_file(fixture_path("chelsea.jpg")).numpy_view()

    with PILImage.open(fixture_path("chelsea.jpg")) as picture:
        expected = np.asarray(picture.convert("RGB"))
    assert view.shape == (300, 451, 3)
    np.testing.assert_array_equal(view, expected)
    assert not view.flags.writeable


def test_array_images_know_their_size_and_keep_their_pixels():
    pixels = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)

    image = mp.Image(mp.ImageFormat.SBGRA, pixels)

    assert (image.width, image.height) == (3, 2)
    np.testing.assert_array_equal(image.numpy_view(), pixels)


def test_gray_arrays_may_have_two_dimensions():
    image = mp.Image(mp.ImageFormat.GRAY8, np.zeros((5, 7), np.uint8))

    assert (image.width, image.height) == (7, 5)


def test_raw_bytes_with_a_row_stride_are_viewed_without_the_padding():
    rows = [bytes([1, 2, 3, 4, 5, 6]) + b"\xee\xee", bytes([7, 8, 9, 10, 11, 12]) + b"\xee\xee"]

    image = mp.Image(mp.ImageFormat.SRGB, b"".join(rows), width=2, height=2, row_stride=8)

    assert image.numpy_view().tolist() == [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]


@pytest.mark.parametrize(
    ("image_format", "array", "message"),
    [
        (mp.ImageFormat.SRGB, np.zeros((4, 4, 4), np.uint8), "H x W x 3"),
        (mp.ImageFormat.SRGBA, np.zeros((4, 4, 3), np.uint8), "H x W x 4"),
        (mp.ImageFormat.SRGB, np.zeros((4, 4, 3), np.float32), "uint8"),
        (mp.ImageFormat.NV12, np.zeros((6, 4), np.uint8), "bytes"),
        (mp.ImageFormat.SRGB, np.zeros((0, 4, 3), np.uint8), "empty"),
    ],
)
def test_arrays_that_do_not_fit_their_format_are_refused(image_format, array, message):
    with pytest.raises(ValueError, match=message):
        mp.Image(image_format, array)


def test_raw_bytes_need_their_size():
    with pytest.raises(ValueError, match="width and height"):
        mp.Image(mp.ImageFormat.NV21, b"\x00" * 24)


def test_create_from_file_refuses_other_formats_with_advice(tmp_path):
    path = tmp_path / "picture.png"
    with PILImage.open(fixture_path("chelsea.jpg")) as picture:
        picture.save(path)

    with pytest.raises(ValueError, match="not a JPEG"):
        mp.Image.create_from_file(str(path))
