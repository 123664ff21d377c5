"""Results, as plain dataclasses shaped like MediaPipe Tasks' containers.

A face's mesh is the exception: a read-only sequence (:class:`FaceMesh`) that
builds its 478 landmarks from the worker's packed floats only when they are
read, and otherwise behaves as MediaPipe's list of landmarks. A Face
Landmarker's blendshape lists, its matrices and its ``detections`` are
likewise built on first read (:class:`LazyList`).

The MediaPipe names come first (``detections``, ``bounding_box``,
``categories``, ``keypoints``, ``face_landmarks``,
``facial_transformation_matrixes``); FaceWorker's extras (ML Kit's landmarks,
contours, head angles, probabilities and tracking IDs, and the worker's stage
timings) sit beside them with defaults, so code written for MediaPipe reads
these results unchanged.

Coordinates refer to the upright image (after any orientation). Normalized
values are fractions of its width and height; pixel values are floats with
(0, 0) at the top-left corner of the top-left pixel.
"""

from __future__ import annotations

import abc
import enum
import operator
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, TypeVar, Union, overload

from ._numpy import numpy


@dataclass
class BoundingBox:
    """A face's box in pixels, rounded to whole pixels as MediaPipe reports it.

    It may extend past the image's edges.
    """

    origin_x: int
    origin_y: int
    width: int
    height: int


@dataclass
class Category:
    """A classification: for a detection, ``score`` is the detector's confidence in [0, 1]; in
    ``FaceLandmarkerResult.face_blendshapes``, one blendshape's score."""

    index: Optional[int] = None
    score: Optional[float] = None
    display_name: Optional[str] = None
    category_name: Optional[str] = None


@dataclass
class NormalizedKeypoint:
    """One of the detector's six keypoints, as fractions of the image size.

    ``label`` names it: RIGHT_EYE, LEFT_EYE, NOSE_TIP, MOUTH_CENTER,
    RIGHT_EAR_TRAGION or LEFT_EAR_TRAGION (the person's own left and right).
    """

    x: float
    y: float
    label: Optional[str] = None
    score: Optional[float] = None


@dataclass
class NormalizedLandmark:
    """A face mesh point: x and y as fractions of the image size, z a relative depth."""

    x: float
    y: float
    z: float
    visibility: Optional[float] = None
    presence: Optional[float] = None


T = TypeVar("T")


class _ListLike(Sequence[T]):
    """A read-only sequence that reads, compares and prints as the list ``_all()`` returns."""

    @abc.abstractmethod
    def _all(self) -> List[T]:
        """Every item, built on the first call."""

    def __len__(self) -> int:
        return len(self._all())

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> List[T]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[T, List[T]]:
        return self._all()[index]

    def __iter__(self) -> Iterator[T]:
        return iter(self._all())

    def __reversed__(self) -> Iterator[T]:
        return reversed(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _ListLike):
            return self._all() == other._all()
        if isinstance(other, list):
            return self._all() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._all())


class FaceMesh(_ListLike[NormalizedLandmark]):
    """A face's mesh: a read-only sequence of :class:`NormalizedLandmark`.

    It reads like the list MediaPipe returns (indexing, slicing into a list,
    ``len``, iteration, ``==`` with a list or another mesh), but keeps the
    worker's packed floats and builds a landmark only when it is read: all of
    them in one pass on the first iteration or slice, one by one when indexed
    before that. Each landmark is built once, so changes to it stay. ``list(mesh)``
    gives a plain list; :meth:`numpy_view` gives the points as an array
    without building any landmark.
    """

    def __init__(self, xyz: Iterable[float] = ()) -> None:
        """Wraps packed floats: x, y, z of point 0, then of point 1, and so on.

        A trailing partial point is dropped.
        """
        self._packed: Optional[Sequence[float]] = None
        self._array: Any = None
        self._floats: Optional[List[float]] = None
        self._unpack(xyz)
        self._points: Optional[List[NormalizedLandmark]] = None
        self._picked: Dict[int, NormalizedLandmark] = {}

    @classmethod
    def of_packed(cls, packed: Sequence[float]) -> FaceMesh:
        """A mesh over ``packed``, a sequence of floats that never changes
        (the worker's answer), read only when a point or the array is first
        asked for.

        A result's conversion ran while the worker's run had left the
        caches cold, so even numpy's one-copy read of the floats took about
        40 µs a face; a program that never reads the points never pays it.
        """
        mesh = cls.__new__(cls)
        mesh._packed = packed
        mesh._count = len(packed) // 3
        mesh._array = mesh._floats = mesh._points = None
        mesh._picked = {}
        return mesh

    def _unpack(self, xyz: Iterable[float]) -> None:
        # Each form is made from the other only when first needed. Where protobuf's
        # container (or an array) hands numpy its floats in one copy, the array comes
        # first; elsewhere numpy would read it float by float, slower than list().
        if numpy is not None and hasattr(xyz, "__array__"):
            array = numpy.array(xyz, dtype=numpy.float32).ravel()
            self._array = array[: len(array) // 3 * 3]
            self._count = len(self._array) // 3
        else:
            floats = list(xyz)
            self._floats = floats[: len(floats) // 3 * 3]
            self._count = len(self._floats) // 3

    def _unpacked(self) -> None:
        if self._packed is not None:
            packed, self._packed = self._packed, None
            self._unpack(packed)

    def __getstate__(self) -> Dict[str, Any]:
        # The worker's container does not pickle; its floats do.
        self._unpacked()
        return self.__dict__

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> NormalizedLandmark: ...

    @overload
    def __getitem__(self, index: slice) -> List[NormalizedLandmark]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[NormalizedLandmark, List[NormalizedLandmark]]:
        if self._points is None and not isinstance(index, slice):
            return self._pick(operator.index(index))
        return self._all()[index]

    def numpy_view(self) -> Any:
        """The points as a read-only float32 numpy array of shape (len(self), 3): x, y, z per row.

        Raises:
            ImportError: When numpy is not installed.
        """
        if numpy is None:
            raise ImportError("numpy_view() needs numpy: pip install 'faceworker[numpy]'")
        self._unpacked()
        if self._array is None:
            self._array = numpy.array(self._floats, dtype=numpy.float32)
        view = self._array.reshape(-1, 3)
        view.flags.writeable = False
        return view

    def _coordinates(self, start: int, stop: int) -> List[float]:
        self._unpacked()
        if self._floats is not None:
            return self._floats[start:stop]
        return self._array[start:stop].tolist()

    def _pick(self, index: int) -> NormalizedLandmark:
        position = index + self._count if index < 0 else index
        if not 0 <= position < self._count:
            raise IndexError(f"face mesh index {index} out of range for {self._count} points")
        point = self._picked.get(position)
        if point is None:
            x, y, z = self._coordinates(3 * position, 3 * position + 3)
            point = self._picked[position] = NormalizedLandmark(x, y, z)
        return point

    def _all(self) -> List[NormalizedLandmark]:
        if self._points is None:
            flat = self._coordinates(0, 3 * self._count)
            points = list(map(NormalizedLandmark, flat[0::3], flat[1::3], flat[2::3]))
            for position, point in self._picked.items():
                points[position] = point
            self._points = points
            self._picked = {}
        return self._points


class LazyList(_ListLike[T]):
    """A read-only sequence that reads as a list and builds its items on first read.

    A result's parts that a program may never read (each blendshape's
    :class:`Category`, the Face Landmarker's matrices and ``detections``) are kept as the
    worker sent them until then: ``build(*arguments)`` makes the items once,
    on the first access of any kind (``len`` included), and the same items
    are returned from then on, so changes to them stay. It compares equal to
    a list of equal items; ``list(items)`` gives a plain list, and pickling
    gives one too.
    """

    def __init__(self, build: Callable[..., List[T]], *arguments: Any) -> None:
        """Keeps ``build`` and its ``arguments`` until the items are first read."""
        self._build: Optional[Callable[..., List[T]]] = build
        self._arguments = arguments
        self._items: Optional[List[T]] = None

    def __reduce__(self) -> Any:
        return (list, (self._all(),))

    def _all(self) -> List[T]:
        if self._items is None:
            assert self._build is not None
            self._items = self._build(*self._arguments)
            # The worker's message is let go once its items exist.
            self._build, self._arguments = None, ()
        return self._items


@dataclass
class Point:
    """A point in pixels."""

    x: float
    y: float


class LandmarkType(enum.IntEnum):
    """ML Kit's ten face landmarks; left and right are the person's own."""

    MOUTH_BOTTOM = 1
    MOUTH_LEFT = 2
    MOUTH_RIGHT = 3
    LEFT_EYE = 4
    RIGHT_EYE = 5
    LEFT_EAR = 6
    RIGHT_EAR = 7
    LEFT_CHEEK = 8
    RIGHT_CHEEK = 9
    NOSE_BASE = 10


class ContourType(enum.IntEnum):
    """ML Kit's fifteen face contours (numbered as ML Kit's Android constants)."""

    FACE = 1
    LEFT_EYEBROW_TOP = 2
    LEFT_EYEBROW_BOTTOM = 3
    RIGHT_EYEBROW_TOP = 4
    RIGHT_EYEBROW_BOTTOM = 5
    LEFT_EYE = 6
    RIGHT_EYE = 7
    UPPER_LIP_TOP = 8
    UPPER_LIP_BOTTOM = 9
    LOWER_LIP_TOP = 10
    LOWER_LIP_BOTTOM = 11
    NOSE_BRIDGE = 12
    NOSE_BOTTOM = 13
    LEFT_CHEEK = 14
    RIGHT_CHEEK = 15


@dataclass
class FaceLandmark:
    """An ML Kit landmark, in pixels."""

    type: LandmarkType
    position: Point


@dataclass
class FaceContour:
    """An ML Kit contour: a fixed number of points (pixels) along a feature."""

    type: ContourType
    points: List[Point]


@dataclass
class Detection:
    """One face: MediaPipe's detection fields, then FaceWorker's extras.

    Attributes:
        bounding_box: The face's box in pixels.
        categories: One category whose ``score`` is the detector's confidence.
        keypoints: The detector's six keypoints, normalized.
        tracking_id: Stays the same while the face is followed from frame to
            frame; set with ``tracking_enabled`` (VIDEO and LIVE_STREAM).
        landmarks: ML Kit's ten landmarks, with ``landmark_mode`` ALL.
        contours: ML Kit's fifteen contours, with ``contour_mode`` ALL.
        head_euler_angle_x: Pitch in degrees, positive when the face turns up.
        head_euler_angle_y: Yaw in degrees, positive toward the image's right.
        head_euler_angle_z: Roll in degrees, positive counter-clockwise.
            X and Y are set when the face mesh ran and a head pose could be
            fitted (not for very small faces); Z is set with them, and from
            the eye keypoints for faces found by the detector alone.
        smiling_probability: In [0, 1], with ``classification_mode`` ALL.
        left_eye_open_probability: The person's left eye, likewise.
        right_eye_open_probability: The person's right eye, likewise.
        presence_score: The face mesh's confidence, when it ran.
        face_landmarks: The 478-point face mesh (468 face points, then the
            iris of the person's right eye, then of the left), when asked
            for; empty otherwise.
        facial_transformation_matrix: MediaPipe's 4x4 facial transformation
            matrix, when asked for: a numpy array when numpy is installed,
            else a list of four rows.
    """

    bounding_box: BoundingBox
    categories: List[Category]
    keypoints: List[NormalizedKeypoint]
    tracking_id: Optional[int] = None
    landmarks: List[FaceLandmark] = field(default_factory=list)
    contours: List[FaceContour] = field(default_factory=list)
    head_euler_angle_x: Optional[float] = None
    head_euler_angle_y: Optional[float] = None
    head_euler_angle_z: Optional[float] = None
    smiling_probability: Optional[float] = None
    left_eye_open_probability: Optional[float] = None
    right_eye_open_probability: Optional[float] = None
    presence_score: Optional[float] = None
    face_landmarks: FaceMesh = field(default_factory=FaceMesh)
    facial_transformation_matrix: Optional[Any] = None

    def landmark(self, landmark_type: LandmarkType) -> Optional[FaceLandmark]:
        """The landmark of that type, or None when it was not reported (ML Kit's ``landmark(ofType:)``)."""
        return next((item for item in self.landmarks if item.type == landmark_type), None)

    def contour(self, contour_type: ContourType) -> Optional[FaceContour]:
        """The contour of that type, or None when it was not reported (ML Kit's ``contour(ofType:)``)."""
        return next((item for item in self.contours if item.type == contour_type), None)


@dataclass
class StageTimings:
    """Where the worker spent a frame's time, in microseconds.

    A client's round trip minus ``total_us`` is the time spent in transport
    and in the client.

    Attributes:
        received_unix_us: The worker's clock (µs since the Unix epoch) when the
            request had been read.
        queued_us: Waiting behind other frames.
        decode_us: Decoding the JPEG or converting raw pixels, and orienting.
        detect_us: The face detector; 0 when it did not run.
        landmarks_us: The face mesh and ML Kit outputs; 0 when they did not run.
        total_us: From receipt until the result was ready (includes queued_us).
    """

    received_unix_us: int
    queued_us: int
    decode_us: int
    detect_us: int
    landmarks_us: int
    total_us: int


@dataclass
class FrameFacts:
    """What every result says about its frame besides the faces (keyword-only).

    Attributes:
        timestamp_ms: The frame's timestamp, echoed.
        image_width: Width of the upright image, in pixels.
        image_height: Height of the upright image, in pixels.
        detector_ran: False when every face was followed from the previous frame.
        timings: The worker's stage timings for this frame.
        warnings: What was wrong with the frame that did not stop it being
            processed, for people (libjpeg's warning for a damaged JPEG
            decoded anyway); empty for a sound frame.
        session_restarted: True on the task's first result after it
            reconnected to a restarted worker: tracking started anew, so no
            face is followed from before and tracking IDs start over.
    """

    _: KW_ONLY
    timestamp_ms: int = 0
    image_width: int = 0
    image_height: int = 0
    detector_ran: bool = False
    timings: Optional[StageTimings] = None
    warnings: List[str] = field(default_factory=list)
    session_restarted: bool = False


@dataclass
class FaceDetectorResult(FrameFacts):
    """The faces on one frame, as MediaPipe's FaceDetectorResult, plus the :class:`FrameFacts`.

    Attributes:
        detections: The faces, highest score first.
    """

    detections: List[Detection]


@dataclass
class FaceLandmarkerResult(FrameFacts):
    """The faces on one frame, as MediaPipe's FaceLandmarkerResult, plus extras and the :class:`FrameFacts`.

    ``face_landmarks[i]`` and ``facial_transformation_matrixes[i]`` belong to
    ``detections[i]``, which carries that face's other outputs.

    Attributes:
        face_landmarks: The 478-point mesh of each face.
        face_blendshapes: With ``output_face_blendshapes``, each face's 52
            blendshape scores as MediaPipe Tasks gives them: a sequence of
            :class:`Category` per face (a :class:`LazyList`, read as a list),
            in the model's order (``index`` the position, ``category_name``
            such as "jawOpen", ``display_name`` ""); empty otherwise.
        facial_transformation_matrixes: Each face's 4x4 matrix, with
            ``output_facial_transformation_matrixes`` (a :class:`LazyList`
            of float32 numpy arrays, read as a list); empty otherwise.
        detections: Each face's box, keypoints and ML Kit outputs (a
            :class:`LazyList` when the worker sent them, read as a list).
    """

    face_landmarks: List[FaceMesh]
    face_blendshapes: List[Sequence[Category]] = field(default_factory=list)
    facial_transformation_matrixes: Sequence[Any] = field(default_factory=list)
    detections: Sequence[Detection] = field(default_factory=list)


class Blendshapes(enum.IntEnum):
    """The 52 blendshapes, by their index in ``face_blendshapes`` (MediaPipe Tasks' names)."""

    NEUTRAL = 0
    BROW_DOWN_LEFT = 1
    BROW_DOWN_RIGHT = 2
    BROW_INNER_UP = 3
    BROW_OUTER_UP_LEFT = 4
    BROW_OUTER_UP_RIGHT = 5
    CHEEK_PUFF = 6
    CHEEK_SQUINT_LEFT = 7
    CHEEK_SQUINT_RIGHT = 8
    EYE_BLINK_LEFT = 9
    EYE_BLINK_RIGHT = 10
    EYE_LOOK_DOWN_LEFT = 11
    EYE_LOOK_DOWN_RIGHT = 12
    EYE_LOOK_IN_LEFT = 13
    EYE_LOOK_IN_RIGHT = 14
    EYE_LOOK_OUT_LEFT = 15
    EYE_LOOK_OUT_RIGHT = 16
    EYE_LOOK_UP_LEFT = 17
    EYE_LOOK_UP_RIGHT = 18
    EYE_SQUINT_LEFT = 19
    EYE_SQUINT_RIGHT = 20
    EYE_WIDE_LEFT = 21
    EYE_WIDE_RIGHT = 22
    JAW_FORWARD = 23
    JAW_LEFT = 24
    JAW_OPEN = 25
    JAW_RIGHT = 26
    MOUTH_CLOSE = 27
    MOUTH_DIMPLE_LEFT = 28
    MOUTH_DIMPLE_RIGHT = 29
    MOUTH_FROWN_LEFT = 30
    MOUTH_FROWN_RIGHT = 31
    MOUTH_FUNNEL = 32
    MOUTH_LEFT = 33
    MOUTH_LOWER_DOWN_LEFT = 34
    MOUTH_LOWER_DOWN_RIGHT = 35
    MOUTH_PRESS_LEFT = 36
    MOUTH_PRESS_RIGHT = 37
    MOUTH_PUCKER = 38
    MOUTH_RIGHT = 39
    MOUTH_ROLL_LOWER = 40
    MOUTH_ROLL_UPPER = 41
    MOUTH_SHRUG_LOWER = 42
    MOUTH_SHRUG_UPPER = 43
    MOUTH_SMILE_LEFT = 44
    MOUTH_SMILE_RIGHT = 45
    MOUTH_STRETCH_LEFT = 46
    MOUTH_STRETCH_RIGHT = 47
    MOUTH_UPPER_UP_LEFT = 48
    MOUTH_UPPER_UP_RIGHT = 49
    NOSE_SNEER_LEFT = 50
    NOSE_SNEER_RIGHT = 51


class DropReason(enum.IntEnum):
    """Why the worker dropped a frame without processing it."""

    UNSPECIFIED = 0
    REPLACED = 1
    """LIVE_STREAM: a newer frame arrived while this one waited, and took its place."""
    SESSION_CLOSED = 2
    """The task was closed before the frame was processed."""
    SESSION_RESET = 3
    """The task was reset before the frame was processed."""
    WORKER_RESTARTED = 4
    """The worker stopped or restarted before it answered the frame; reported by
    the client when the task reconnects (see ``BaseOptions.reconnect``)."""


@dataclass
class Outage:
    """One loss of the worker by a reconnecting task, told once when it is over.

    Attributes:
        cause: Why the connection was lost (UNAVAILABLE: the worker closed it).
        seconds: From the loss until the task was back, or gave up.
        dropped_frames: Frames sent before the loss and never answered, each
            reported as dropped with ``DropReason.WORKER_RESTARTED`` (or, for
            ``detect`` and ``detect_for_video``, raised as UNAVAILABLE).
        error: None when the task is back on a worker; otherwise why it gave
            up (the deadline passed, or the worker refused the task's
            options), which every later call of the task raises.
    """

    cause: Exception
    seconds: float
    dropped_frames: int
    error: Optional[Exception] = None


class SessionEndReason(enum.IntEnum):
    """Why a subscription ended."""

    UNSPECIFIED = 0
    SESSION_CLOSED = 1
    """The producer closed the session."""
    PRODUCER_GONE = 2
    """The producer's connection closed (its process may have ended)."""
    UNSUBSCRIBED = 3
    """The subscriber unsubscribed (``close``)."""
    WORKER_STOPPING = 4
    """The worker is shutting down."""
