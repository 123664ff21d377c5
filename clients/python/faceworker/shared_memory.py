"""Shared-memory frames: pixels written once, read by the worker in place.

A :class:`SharedFrameBuffer` is a Linux memfd, sealed against shrinking and
mapped into this process. Registered on a task (``detector.register_buffer(buffer)``),
the worker maps it too, read-only, and a frame whose pixels lie in it travels
as a few numbers (buffer, offset, length) instead of its bytes::

    buffer = SharedFrameBuffer(height * width * 3)
    detector.register_buffer(buffer)
    frame = buffer.array((height, width, 3))        # a numpy view into the buffer
    camera.read_into(frame)                         # the one write of the pixels
    result = detector.detect(mp.Image(mp.ImageFormat.SRGB, frame))

An :class:`~faceworker.Image` made from a numpy view into a buffer, or from
a :class:`BufferRegion` (``buffer.region(offset, length)``, ``buffer.write(jpeg)``,
``buffer.region_of(view)``), names its region instead of carrying its bytes;
raw formats need ``width`` and ``height`` with a region, a JPEG region holds
exactly the file.

A region is the worker's to read from the moment its frame is sent until the
frame's answer arrives: for ``detect`` and ``detect_for_video``, until they
return; for ``detect_async``, until the result callback for that timestamp
runs, or its drop is reported (``frame_dropped_callback``) or its error
raised. Writing it before then may change the pixels the worker reads.
"""

from __future__ import annotations

import ctypes
import fcntl
import mmap
import os
import weakref
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Tuple, Union

from ._numpy import numpy

# Buffers of this process still open, to find the one a numpy view lies in.
_OPEN: "weakref.WeakSet[SharedFrameBuffer]" = weakref.WeakSet()


@dataclass(frozen=True)
class BufferRegion:
    """Bytes of a :class:`SharedFrameBuffer`: ``length`` bytes from ``offset``.

    The worker refuses a region that does not lie inside the buffer with
    OUT_OF_RANGE; a negative offset or a length below 1 is refused here, with
    ValueError.
    """

    buffer: "SharedFrameBuffer"
    offset: int
    length: int

    def __post_init__(self) -> None:
        if self.offset < 0:
            raise ValueError(f"a region's offset must not be negative, got {self.offset}")
        if self.length < 1:
            raise ValueError(f"a region needs at least 1 byte, got length {self.length}")

    def memoryview(self) -> memoryview:
        """The region's bytes, writable, without a copy.

        Raises:
            ValueError: When the region does not lie inside its buffer.
        """
        return self.buffer._view(self.offset, self.length)


class SharedFrameBuffer:
    """Memory this process and the worker share: a sealed memfd, mapped read-write here.

    See the module documentation. A buffer may be registered on several
    tasks; each maps it once. Close it (or use it as a context manager) when
    done; the worker unmaps it when the task unregisters it or closes.
    """

    def __init__(self, size: int, name: str = "faceworker-frames") -> None:
        """Makes a buffer of ``size`` bytes, zero-filled.

        Args:
            size: Bytes in the buffer, at least 1.
            name: The memfd's name, which only shows in /proc (for debugging).

        Raises:
            ValueError: When ``size`` is below 1.
            OSError: When the system refuses the memory.
        """
        if size < 1:
            raise ValueError(f"a shared buffer needs at least 1 byte, got size {size}")
        fd = os.memfd_create(name, os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        try:
            os.ftruncate(fd, size)
            # The worker refuses a buffer that could shrink under its mapping.
            fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK)
            self._map: Optional[mmap.mmap] = mmap.mmap(fd, size)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        self._size = size
        # The temporary ctypes object releases its hold on the map at once.
        self._address = ctypes.addressof(ctypes.c_char.from_buffer(self._map))
        _OPEN.add(self)

    @property
    def size(self) -> int:
        """Bytes in the buffer."""
        return self._size

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._map is None

    def fileno(self) -> int:
        """The memfd's descriptor.

        Raises:
            ValueError: When the buffer is closed.
        """
        self._check_open()
        return self._fd

    def array(self, shape: Union[int, Sequence[int]], dtype: Any = "uint8", offset: int = 0) -> Any:
        """A writable numpy array of ``shape`` and ``dtype`` whose memory is the buffer's, from ``offset``.

        Raises:
            ImportError: When numpy is not installed.
            ValueError: When the buffer is closed, ``offset`` is negative or
                the array would not fit in the buffer.
        """
        if numpy is None:
            raise ImportError("SharedFrameBuffer.array() needs numpy: pip install 'faceworker[numpy]'")
        self._check_open()
        dimensions = (shape,) if isinstance(shape, int) else tuple(shape)
        nbytes = int(numpy.prod(dimensions, dtype=numpy.int64)) * numpy.dtype(dtype).itemsize
        self._check_span(offset, nbytes, "the array")
        return numpy.ndarray(dimensions, dtype=dtype, buffer=self._map, offset=offset)

    def region(self, offset: int, length: int) -> BufferRegion:
        """The region of ``length`` bytes from ``offset``.

        Whether it lies inside the buffer is the worker's check
        (OUT_OF_RANGE), made when a frame names it.

        Raises:
            ValueError: When ``offset`` is negative or ``length`` is below 1.
        """
        return BufferRegion(self, offset, length)

    def write(self, data: Union[bytes, bytearray, memoryview], offset: int = 0) -> BufferRegion:
        """Copies ``data`` (a JPEG file, say) into the buffer at ``offset``; returns its region.

        Raises:
            ValueError: When the buffer is closed, ``offset`` is negative,
                ``data`` is empty or does not fit.
        """
        length = memoryview(data).nbytes
        region = self.region(offset, length)
        region.memoryview()[:] = memoryview(data).cast("B")
        return region

    def region_of(self, view: Any) -> BufferRegion:
        """The region a C-contiguous numpy view into this buffer covers.

        Raises:
            ValueError: When ``view`` does not lie in this buffer, or is not
                contiguous.
        """
        located = locate(view)
        if located is None or located[0] is not self:
            raise ValueError(
                "the array does not lie in this SharedFrameBuffer; make it with buffer.array(...) "
                "(or a slice of one), and write the pixels into it"
            )
        if not view.flags.c_contiguous:
            raise ValueError("the array is not contiguous, so it is no single region of the buffer")
        return BufferRegion(self, located[1], view.nbytes)

    def close(self) -> None:
        """Closes the memfd and unmaps the buffer; closing twice does nothing.

        Arrays still viewing the buffer keep its memory mapped until they
        are gone; frames made from them are then sent by value.
        """
        if self._map is None:
            return
        _OPEN.discard(self)
        mapping, self._map = self._map, None
        os.close(self._fd)
        try:
            mapping.close()
        except BufferError:
            pass  # numpy views still export it; it is unmapped with the last of them

    def __enter__(self) -> "SharedFrameBuffer":
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"fd {self._fd}"
        return f"SharedFrameBuffer(size={self._size}, {state})"

    def _check_open(self) -> None:
        if self._map is None:
            raise ValueError("the SharedFrameBuffer is closed")

    def _check_span(self, offset: int, length: int, what: str) -> None:
        self._check_open()
        if offset < 0:
            raise ValueError(f"{what}'s offset must not be negative, got {offset}")
        if offset + length > self._size:
            raise ValueError(
                f"{what} ({length} bytes from offset {offset}) does not fit in the buffer of {self._size} bytes"
            )

    def _view(self, offset: int, length: int) -> memoryview:
        self._check_span(offset, length, "the region")
        assert self._map is not None
        return memoryview(self._map)[offset : offset + length]

    def _holds(self, low: int, high: int) -> Optional[int]:
        """The offset of the address range [low, high) when it lies in the buffer."""
        if self._map is None or low < self._address or high > self._address + self._size:
            return None
        return low - self._address


def locate(array: Any) -> Optional[Tuple[SharedFrameBuffer, int]]:
    """The open buffer a numpy array's memory lies in, and the offset of its first byte; None for other arrays."""
    if array.size == 0:
        return None
    start = array.__array_interface__["data"][0]
    low = start + sum((count - 1) * stride for count, stride in zip(array.shape, array.strides) if stride < 0)
    high = start + sum((count - 1) * stride for count, stride in zip(array.shape, array.strides) if stride > 0)
    for buffer in list(_OPEN):
        offset = buffer._holds(low, high + array.itemsize)
        if offset is not None:
            return buffer, offset
    return None
