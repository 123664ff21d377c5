"""What the two Solutions share: one worker session, the input checks, process, close."""

from __future__ import annotations

import abc
import collections
from typing import Any, Callable, Optional, Union

from .._numpy import numpy
from .._proto import faceworker_pb2 as pb
from ..image import Image, ImageFormat
from ..options import FaceDetectorOptions, FaceLandmarkerOptions, RunningMode
from ..vision import _FaceTask

# MediaPipe's Solutions count time in steps of 33333 us, one frame at 30 fps.
_FRAME_MS = 33


def _frame_result(opened: pb.OpenSessionResponse) -> Callable[[pb.FrameResult], pb.FrameResult]:
    return _keep


def _keep(frame: pb.FrameResult) -> pb.FrameResult:
    return frame


class _Session(_FaceTask[Union[FaceDetectorOptions, FaceLandmarkerOptions], pb.FrameResult]):
    """A worker session whose answers stay the worker's FrameResult, for a Solution to shape."""

    _result_converter = staticmethod(_frame_result)

    def _result(self, frame: pb.FrameResult) -> pb.FrameResult:
        # The Solutions have no place for the tasks' session_restarted flag: after a worker
        # restart, tracking simply starts again, as after a scene cut.
        return frame


class SolutionBase(abc.ABC):
    """One worker session behind a Solution's ``process``; a context manager, closed by ``close()``."""

    def __init__(self, options: Union[FaceDetectorOptions, FaceLandmarkerOptions], output: str) -> None:
        self._session: Optional[_Session] = _Session(options)
        self._video = options.running_mode == RunningMode.VIDEO
        self._timestamp_ms = 0
        self._outputs = collections.namedtuple("SolutionOutputs", [output])

    def process(self, image: Any) -> Any:
        """Processes an RGB image; see the Solution's own ``process``.

        Raises:
            ValueError: When the image is not an H x W x 3 uint8 array, or
                the Solution is closed.
            TypeError: When the image is not a numpy array.
            FaceWorkerError: When the worker refuses the frame.
        """
        session = self._session
        if session is None:
            raise ValueError(f"{type(self).__name__} is closed")
        frame = _rgb_image(image)
        if self._video:
            self._timestamp_ms += _FRAME_MS
            answer = session.detect_for_video(frame, self._timestamp_ms)
        else:
            answer = session.detect(frame)
        return self._outputs(self._shape(answer))

    @abc.abstractmethod
    def _shape(self, frame: pb.FrameResult) -> Any:
        """The Solution's output for one frame: None when no face was found, as in MediaPipe."""

    def close(self) -> None:
        """Closes the worker session; ``process`` is refused afterwards. Closing twice does nothing."""
        session, self._session = self._session, None
        if session is not None:
            session.close()

    def reset(self) -> None:
        """Forgets the faces followed so far (video mode), as MediaPipe's ``reset``.

        Raises:
            ValueError: When the Solution is closed.
        """
        if self._session is None:
            raise ValueError(f"{type(self).__name__} is closed")
        self._session.reset()
        self._timestamp_ms = 0

    def __enter__(self) -> "SolutionBase":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()


def _rgb_image(image: Any) -> Image:
    """The worker's Image for an RGB array, checked as MediaPipe's Solutions check it."""
    if numpy is None:
        raise ImportError("the Solutions take numpy arrays: pip install 'faceworker[numpy]'")
    if not isinstance(image, numpy.ndarray):
        raise TypeError(f"image must be a numpy array of RGB data, got {type(image).__name__}")
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"image must contain three channel rgb data: got an array of shape {image.shape}")
    if image.dtype != numpy.uint8:
        raise ValueError(f"image must hold uint8 rgb data: got an array of {image.dtype}")
    return Image(ImageFormat.SRGB, data=image)
