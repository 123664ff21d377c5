"""Images to send to the worker, in the spirit of MediaPipe's ``mp.Image``.

An :class:`Image` is either a JPEG file's bytes (the worker decodes it) or
uncompressed 8-bit pixels with an explicitly stated layout:

* numpy arrays (``numpy`` needed): ``SRGB`` and ``SBGR`` take H x W x 3,
  ``SRGBA`` and ``SBGRA`` take H x W x 4 (alpha is ignored), ``GRAY8`` takes
  H x W or H x W x 1; always ``uint8``. OpenCV's frames are ``SBGR``.
* bytes with ``width`` and ``height``: every format above, plus the camera
  formats ``NV12``, ``NV21`` and ``I420`` (layouts as faceworker.proto's
  RawImage describes them, with an optional ``row_stride``).
* pixels in shared memory (:mod:`faceworker.shared_memory`): a numpy view
  into a ``SharedFrameBuffer`` for the array formats (rows may be padded:
  the view's row stride is sent), or a ``BufferRegion`` in place of bytes
  for every format, JPEG included. The frame then names its region instead
  of carrying its bytes.
"""

from __future__ import annotations

import enum
import io
from typing import Any, Callable, Optional, Tuple, Union

from ._numpy import numpy
from ._proto import faceworker_pb2 as pb
from .shared_memory import BufferRegion, locate

# Gives the wire's region for a client's region, for the connection a frame goes on.
RegionResolver = Callable[[BufferRegion], pb.BufferRegion]


class ImageFormat(enum.Enum):
    """The layout of an image's bytes. Channel names are in memory order."""

    SRGB = "SRGB"
    SRGBA = "SRGBA"
    SBGR = "SBGR"
    SBGRA = "SBGRA"
    GRAY8 = "GRAY8"
    NV12 = "NV12"
    NV21 = "NV21"
    I420 = "I420"
    JPEG = "JPEG"


class Orientation(enum.IntEnum):
    """How stored pixels must be turned to look upright (ML Kit's names; EXIF tag = value + 1)."""

    TOP_LEFT = 0
    """Already upright."""
    TOP_RIGHT = 1
    """Mirrored left to right."""
    BOTTOM_RIGHT = 2
    """Upside down."""
    BOTTOM_LEFT = 3
    """Mirrored top to bottom."""
    LEFT_TOP = 4
    """Transposed."""
    RIGHT_TOP = 5
    """Rotate 90 degrees clockwise to make it upright."""
    RIGHT_BOTTOM = 6
    """Transversed."""
    LEFT_BOTTOM = 7
    """Rotate 90 degrees counter-clockwise to make it upright."""


_PIXEL_FORMATS = {
    ImageFormat.SRGB: pb.PIXEL_FORMAT_RGB,
    ImageFormat.SRGBA: pb.PIXEL_FORMAT_RGBA,
    ImageFormat.SBGR: pb.PIXEL_FORMAT_BGR,
    ImageFormat.SBGRA: pb.PIXEL_FORMAT_BGRA,
    ImageFormat.GRAY8: pb.PIXEL_FORMAT_GRAY8,
    ImageFormat.NV12: pb.PIXEL_FORMAT_NV12,
    ImageFormat.NV21: pb.PIXEL_FORMAT_NV21,
    ImageFormat.I420: pb.PIXEL_FORMAT_I420,
}
_CHANNELS = {ImageFormat.SRGB: 3, ImageFormat.SBGR: 3, ImageFormat.SRGBA: 4, ImageFormat.SBGRA: 4, ImageFormat.GRAY8: 1}

# JPEG markers that start a frame header (SOF0 to SOF15, less DHT, JPG and DAC).
_FRAME_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
# Markers that stand alone, without a length: TEM, RST0 to RST7, SOI, EOI.
_STANDALONE_MARKERS = frozenset([0x01, *range(0xD0, 0xDA)])


class Image:
    """An image for ``detect``: numpy pixels, raw pixel bytes, or a JPEG file's bytes.

    ``Image(ImageFormat.SRGB, data=array)`` works as ``mp.Image`` does; see the
    module's documentation for the accepted formats and shapes.
    """

    def __init__(
        self,
        image_format: ImageFormat,
        data: Any,
        width: Optional[int] = None,
        height: Optional[int] = None,
        row_stride: int = 0,
    ) -> None:
        """Wraps ``data``, which must match ``image_format`` (see the module documentation).

        Args:
            image_format: How the bytes are laid out.
            data: A numpy uint8 array (packed formats), or bytes or a
                shared-memory ``BufferRegion``: a JPEG file's, or raw pixels
                with ``width`` and ``height``.
            width: Width in pixels, for raw bytes only.
            height: Height in pixels, for raw bytes only.
            row_stride: Bytes from one row to the next for raw bytes; 0 means
                tightly packed.

        Raises:
            ValueError: When the data does not fit the format.
            TypeError: When ``data`` is neither a numpy array nor bytes.
        """
        self._format = image_format
        self._array = None
        self._bytes = b""
        self._region: Optional[BufferRegion] = None
        self._size: Optional[Tuple[int, int]] = None
        self._row_stride = row_stride
        if isinstance(data, (bytes, bytearray, memoryview)):
            self._bytes = bytes(data)
            self._init_bytes(width, height)
        elif isinstance(data, BufferRegion):
            self._region = data
            self._init_bytes(width, height)
        elif numpy is not None and isinstance(data, numpy.ndarray):
            if width is not None or height is not None or row_stride:
                raise ValueError("width, height and row_stride come from the array's shape; do not pass them")
            self._init_array(data)
        else:
            raise TypeError(
                f"Image data must be a numpy uint8 array, bytes or a BufferRegion, not {type(data).__name__}"
            )

    def _init_bytes(self, width: Optional[int], height: Optional[int]) -> None:
        if self._format is ImageFormat.JPEG:
            if width is not None or height is not None or self._row_stride:
                raise ValueError("a JPEG carries its own size; do not pass width, height or row_stride")
            return
        if width is None or height is None or width < 1 or height < 1:
            raise ValueError(f"raw {self._format.name} bytes need a positive width and height")
        if self._row_stride < 0:
            raise ValueError(f"row_stride must not be negative, got {self._row_stride}")
        self._size = (width, height)

    def _init_array(self, array: Any) -> None:
        channels = _CHANNELS.get(self._format)
        if channels is None:
            raise ValueError(f"{self._format.name} images come as bytes, not arrays")
        if array.dtype != numpy.uint8:
            raise ValueError(f"{self._format.name} pixels must be uint8, got {array.dtype}")
        if array.ndim == 2 and channels == 1:
            array = array[:, :, None]
        if array.ndim != 3 or array.shape[2] != channels:
            expected = "H x W" if channels == 1 else f"H x W x {channels}"
            raise ValueError(f"{self._format.name} needs an {expected} array, got shape {array.shape}")
        if array.shape[0] < 1 or array.shape[1] < 1:
            raise ValueError(f"the image is empty: shape {array.shape}")
        self._size = (array.shape[1], array.shape[0])
        located = locate(array)
        if located is None:
            self._array = numpy.ascontiguousarray(array)
            return
        # A view into shared memory is sent as its region, rows and all, never copied.
        row_bytes = array.shape[1] * channels
        if array.strides[1] != channels or (channels > 1 and array.strides[2] != 1) or array.strides[0] < row_bytes:
            raise ValueError(
                f"a view into a SharedFrameBuffer must hold its rows top to bottom, each row's pixels side by side "
                f"({channels} bytes apart), as buffer.array((height, width, {channels})) or a crop of it; got strides "
                f"{array.strides}. Turn the image with ImageProcessingOptions rather than with a flipped view."
            )
        # The wire's layout is whole rows, the last one's padding included.
        buffer, offset = located
        length = array.strides[0] * array.shape[0]
        if offset + length > buffer.size:
            raise ValueError(
                f"the view's {array.shape[0]} rows of {array.strides[0]} bytes from offset {offset} pass the end of "
                f"its buffer ({buffer.size} bytes): the worker reads whole rows, so the last row's padding must lie "
                "in the buffer too"
            )
        self._array = array
        self._row_stride = array.strides[0]
        self._region = BufferRegion(buffer, offset, length)

    @classmethod
    def create_from_file(cls, file_name: str) -> "Image":
        """Reads a JPEG file, which the worker decodes.

        For other formats, decode the file yourself (with Pillow, for one) and
        pass its pixels: ``Image(ImageFormat.SRGB, numpy.asarray(pil_image.convert("RGB")))``.

        Raises:
            ValueError: When the file is not a JPEG file.
        """
        with open(file_name, "rb") as file:
            data = file.read()
        if not data.startswith(b"\xff\xd8"):
            raise ValueError(
                f"{file_name} is not a JPEG file; for other formats pass decoded pixels, "
                "as Image(ImageFormat.SRGB, numpy_array)"
            )
        return cls(ImageFormat.JPEG, data)

    @property
    def image_format(self) -> ImageFormat:
        """How the image's bytes are laid out."""
        return self._format

    @property
    def width(self) -> int:
        """Width of the stored image in pixels (read from the header for a JPEG).

        Raises:
            ValueError: For JPEG bytes without a readable frame header.
        """
        return self._dimensions()[0]

    @property
    def height(self) -> int:
        """Height of the stored image in pixels (read from the header for a JPEG).

        Raises:
            ValueError: For JPEG bytes without a readable frame header.
        """
        return self._dimensions()[1]

    def numpy_view(self) -> Any:
        """The pixels as a read-only numpy array, as ``mp.Image.numpy_view()``.

        Array images return their array. Packed raw bytes are viewed as
        H x W x channels. A JPEG is decoded to H x W x 3 RGB, which needs
        Pillow (``pip install 'faceworker[annotate]'``).

        Raises:
            ImportError: When numpy, or Pillow for a JPEG, is missing.
            ValueError: For the planar formats NV12, NV21 and I420.
        """
        if numpy is None:
            raise ImportError("numpy_view() needs numpy: pip install 'faceworker[numpy]'")
        if self._array is not None:
            view = self._array.view()
        elif self._format is ImageFormat.JPEG:
            view = numpy.asarray(_decode_jpeg(self._data()))
        elif self._format in _CHANNELS:
            view = self._packed_view()
        else:
            raise ValueError(f"numpy_view() does not convert planar {self._format.name} images")
        view.flags.writeable = False
        return view

    def _packed_view(self) -> Any:
        width, height = self._dimensions()
        channels = _CHANNELS[self._format]
        stride = self._row_stride or width * channels
        rows = numpy.frombuffer(self._data(), dtype=numpy.uint8)[: stride * height].reshape(height, stride)
        return rows[:, : width * channels].reshape(height, width, channels)

    def _dimensions(self) -> Tuple[int, int]:
        if self._size is None:
            self._size = _jpeg_size(self._data())
        return self._size

    def _data(self) -> bytes:
        """The image's bytes, read from shared memory when they are there."""
        if self._region is not None:
            return bytes(self._region.memoryview())
        return self._bytes

    def _fill(self, frame: pb.Frame, resolve: RegionResolver) -> None:
        """Puts the pixels, or the region that holds them (named by ``resolve``), into a Frame message."""
        if self._format is ImageFormat.JPEG:
            if self._region is not None:
                frame.shared_jpeg.CopyFrom(resolve(self._region))
            else:
                frame.jpeg = self._bytes
            return
        width, height = self._dimensions()
        frame.raw.format = _PIXEL_FORMATS[self._format]
        frame.raw.width = width
        frame.raw.height = height
        frame.raw.row_stride = self._row_stride
        if self._region is not None:
            frame.raw.region.CopyFrom(resolve(self._region))
        else:
            frame.raw.data = self._array.tobytes() if self._array is not None else self._bytes


def frame_message(session_id: int, image: Image, timestamp_ms: int, orientation: int,
                  resolve: RegionResolver) -> pb.ClientMessage:
    """The ProcessFrame call that sends ``image`` to session ``session_id``.

    It is built in place: a Frame made apart and then set on the request
    would be copied into it, JPEG and all.
    """
    message = pb.ClientMessage()
    request = message.process_frame
    request.SetInParent()
    request.session_id = session_id
    frame = request.frame
    frame.SetInParent()
    frame.timestamp_ms = timestamp_ms
    frame.orientation = orientation
    image._fill(frame, resolve)
    return message


def as_image(image: Union[Image, bytes, bytearray, memoryview, BufferRegion]) -> Image:
    """``image`` itself, or JPEG bytes (or their shared-memory region) wrapped in an Image.

    Raises:
        TypeError: For anything else, such as a bare numpy array, whose
            channel order cannot be guessed.
    """
    if isinstance(image, Image):
        return image
    if isinstance(image, (bytes, bytearray, memoryview, BufferRegion)):
        return Image(ImageFormat.JPEG, image)
    raise TypeError(
        f"expected a faceworker.Image or JPEG bytes, got {type(image).__name__}; wrap arrays "
        "with their channel order stated, as Image(ImageFormat.SRGB, array) or Image(ImageFormat.SBGR, array)"
    )


def _jpeg_size(data: bytes) -> Tuple[int, int]:
    position = 2 if data.startswith(b"\xff\xd8") else len(data)
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            break
        marker = data[position + 1]
        if marker == 0xFF:
            # Fill bytes may pad before a marker.
            position += 1
            continue
        if marker in _STANDALONE_MARKERS:
            position += 2
            continue
        if marker in _FRAME_MARKERS and position + 9 <= len(data):
            height = int.from_bytes(data[position + 5 : position + 7], "big")
            width = int.from_bytes(data[position + 7 : position + 9], "big")
            return width, height
        position += 2 + int.from_bytes(data[position + 2 : position + 4], "big")
    raise ValueError("no JPEG frame header found: the data is not a readable JPEG")


def _decode_jpeg(data: bytes) -> Any:
    try:
        from PIL import Image as PILImage
    except ImportError as error:
        raise ImportError("decoding a JPEG needs Pillow: pip install 'faceworker[annotate]'") from error
    with PILImage.open(io.BytesIO(data)) as decoded:
        return decoded.convert("RGB")
