"""Task options: MediaPipe Tasks' names first, then ML Kit's and FaceWorker's.

Every option left at ``None`` takes the worker's documented default; range
checks are the worker's, so an out-of-range value comes back as a
:class:`~faceworker.errors.FaceWorkerError` with code INVALID_ARGUMENT.
"""

from __future__ import annotations

import enum
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Callable, Optional, Union

from ._connection import socket_path_for
from ._proto import faceworker_pb2 as pb
from .errors import FaceWorkerError
from .image import Image, Orientation
from .results import DropReason, FaceDetectorResult, FaceLandmarkerResult, Outage, SessionEndReason

# The most faces a session may ask for (num_faces' maximum in
# proto/faceworker/v1/defaults.json, which the tests check it against);
# FaceDetector asks for it, since MediaPipe's face detector reports every face.
_ALL_FACES = 64


class RunningMode(enum.IntEnum):
    """How frames relate to each other (MediaPipe's running mode)."""

    IMAGE = 0
    """Unrelated images; use ``detect``."""
    VIDEO = 1
    """Frames of one video with increasing timestamps; use ``detect_for_video``."""
    LIVE_STREAM = 2
    """Live camera frames; use ``detect_async`` and a ``result_callback``."""


class PerformanceMode(enum.IntEnum):
    """Which detector runs (ML Kit's performance mode)."""

    FAST = 0
    """MediaPipe's short-range detector: faces within about 2 m."""
    ACCURATE = 1
    """MediaPipe's full-range detector: slower, finds faces up to about 5 m away."""


class MeshModel(enum.IntEnum):
    """The landmark models behind the face mesh and everything derived from it."""

    ATTENTION_MESH = 1
    """MediaPipe's legacy Face Mesh (the attention mesh for the 478 points):
    about four times cheaper than FACE_LANDMARKER, without blendshapes."""
    FACE_LANDMARKER = 2
    """MediaPipe Tasks' Face Landmarker (``face_landmarker.task``): the
    points, blendshapes and matrices MediaPipe Tasks gives, by its graph's
    rules, which stand in for ``min_suppression_threshold`` and
    ``detector_interval_frames``. ``performance_mode`` FAST (the default)
    finds faces with the bundle's short-range detector, as MediaPipe does;
    ACCURATE with the full-range detector, which finds the far and small
    faces of a group photo (lower ``min_face_size`` for faces under a tenth
    of the image width). A worker without the bundle refuses it with
    FAILED_PRECONDITION."""
    FACE_MESH = 3
    """MediaPipe's legacy Face Mesh without refinement (``face_landmark.tflite``):
    its own 468 points even when the mesh is asked for, where ATTENTION_MESH
    gives the attention mesh's, which lie up to a few percent of the face's
    width from them. No irises, no blendshapes."""


class LandmarkMode(enum.IntEnum):
    """Whether faces carry ML Kit's ten landmarks."""

    NONE = 0
    ALL = 1


class ContourMode(enum.IntEnum):
    """Whether faces carry ML Kit's fifteen contours."""

    NONE = 0
    ALL = 1


class ClassificationMode(enum.IntEnum):
    """Whether faces carry smiling and eyes-open probabilities."""

    NONE = 0
    ALL = 1


@dataclass
class ReconnectPolicy:
    """How a task finds its worker again after the connection is lost.

    The worker restarts under a running camera (``systemctl restart``, an
    upgrade, a crash and ``Restart=on-failure``). A task then connects
    again, waiting ``initial_delay_seconds`` after a failed attempt and twice
    as long after each further one, up to ``max_delay_seconds``, and gives
    up once ``deadline_seconds`` have passed since the loss. Under socket
    activation the socket outlives the worker and the first attempt waits
    for the new worker instead.

    Back on a worker, the task re-opens its session with the same options
    (a named session keeps its name) and re-registers its shared-memory
    buffers; a subscriber subscribes again. Tracking starts anew: the first
    result says so (``session_restarted``).

    Attributes:
        initial_delay_seconds: The wait after the first failed attempt.
        max_delay_seconds: The longest wait between attempts.
        deadline_seconds: How long after the loss the task gives up.
        outage_callback: ``callback(outage)``, once per outage, when the task
            is back or has given up (an :class:`~faceworker.vision.Outage`),
            on a thread of the client's. None: the outage is logged instead,
            as a warning of the ``faceworker`` logger.
    """

    initial_delay_seconds: float = 0.05
    max_delay_seconds: float = 0.5
    deadline_seconds: float = 30.0
    outage_callback: Optional[Callable[[Outage], None]] = None


@dataclass
class BaseOptions:
    """Where the worker is, and what to do when it goes away.

    Attributes:
        model_asset_path: Accepted so that MediaPipe code runs unchanged, and
            ignored: the worker holds the models (``performance_mode`` picks
            the detector).
        socket_path: The worker's socket. None follows the socket rule of
            :func:`faceworker.default_socket_path`: ``$FACEWORKER_SOCKET``
            when set and not empty, else ``$XDG_RUNTIME_DIR/faceworker.sock``
            when that is an absolute path, else ``/tmp/faceworker-<euid>.sock``.
        reconnect: Whether a task survives a worker restart (see
            :class:`ReconnectPolicy`): True for the default policy, a policy
            of its own, or False for none, when every call after the loss
            raises UNAVAILABLE.

    With ``reconnect``, the frames sent before the loss and never answered
    are reported as dropped (``DropReason.WORKER_RESTARTED``) in
    LIVE_STREAM mode; a ``detect`` or ``detect_for_video`` waiting raises
    UNAVAILABLE once, and the next call waits for the task to be back. A
    ``detect_async`` during the outage is dropped at once, the same way. A
    worker that refuses the task when it comes back (its limits changed, or
    it speaks another protocol) ends the outage with the worker's error.
    """

    model_asset_path: Optional[str] = None
    socket_path: Optional[str] = None
    reconnect: Union[bool, ReconnectPolicy] = True

    def resolved_socket_path(self) -> str:
        """The socket to connect to."""
        return socket_path_for(self.socket_path)

    def resolved_reconnect(self) -> Optional[ReconnectPolicy]:
        """The reconnect policy in effect; None when the task does not reconnect."""
        if isinstance(self.reconnect, ReconnectPolicy):
            return self.reconnect
        return ReconnectPolicy() if self.reconnect else None


@dataclass
class ImageProcessingOptions:
    """How to read one image (MediaPipe's ImageProcessingOptions, plus ML Kit's orientation).

    Results always refer to the upright image.

    Attributes:
        region_of_interest: Not supported by face tasks (as in MediaPipe);
            must stay None.
        rotation_degrees: The clockwise rotation, a multiple of 90, that
            makes the stored image upright.
        orientation: Instead of ``rotation_degrees``, one of the eight EXIF
            orientations, mirrored ones included.
    """

    region_of_interest: Optional[Any] = None
    rotation_degrees: int = 0
    orientation: Optional[Orientation] = None

    def resolved_orientation(self) -> Orientation:
        """The orientation these options describe.

        Raises:
            ValueError: For a region of interest, a rotation that is not a
                multiple of 90, or both a rotation and an orientation.
        """
        if self.region_of_interest is not None:
            raise ValueError("This task doesn't support region-of-interest.")
        if self.rotation_degrees % 90 != 0:
            raise ValueError(f"rotation_degrees must be a multiple of 90, got {self.rotation_degrees}")
        if self.orientation is not None:
            if self.rotation_degrees:
                raise ValueError("give rotation_degrees or orientation, not both")
            return Orientation(self.orientation)
        return _ROTATIONS[self.rotation_degrees % 360]


_ROTATIONS = {
    0: Orientation.TOP_LEFT,
    90: Orientation.RIGHT_TOP,
    180: Orientation.BOTTOM_RIGHT,
    270: Orientation.LEFT_BOTTOM,
}


@dataclass
class FaceWorkerOptions:
    """ML Kit's and FaceWorker's options, shared by both tasks.

    They are keyword-only, and come after MediaPipe's own fields in the
    tasks' constructors, so MediaPipe's positional order is kept.

    Attributes:
        performance_mode: Which detector runs; default FAST (short range).
            ACCURATE runs the full-range detector, also under the Face
            Landmarker, for far and small faces.
        landmark_mode: ML Kit's ten landmarks (``Detection.landmarks``).
        contour_mode: ML Kit's fifteen contours (``Detection.contours``).
        classification_mode: Smiling and eyes-open probabilities.
        min_face_size: Smallest face reported, as a fraction of the image
            width (ML Kit's minFaceSize); None: the worker's 0.1.
        tracking_enabled: Give faces a ``tracking_id`` that stays the same
            while a face is followed; VIDEO and LIVE_STREAM only.
        detector_interval_frames: VIDEO and LIVE_STREAM, when the face mesh
            runs: while fewer than ``num_faces`` faces are followed, the
            detector runs on at most one frame in this many (1 to 1000; 0:
            the worker's 5). A lost face makes it run on the next frame.
        max_missed_frames: Frames a face may go unseen and keep its tracking
            ID (0 to 1000); None: the worker's 3.
        mesh_model: Which landmark models run when an output needs the face
            mesh. None: the task's default, FACE_LANDMARKER for
            :class:`FaceLandmarkerOptions` (as MediaPipe Tasks) and
            ATTENTION_MESH for :class:`FaceDetectorOptions`. Choose
            ``MeshModel.ATTENTION_MESH`` for the cheaper legacy mesh, which
            has no blendshapes, or ``MeshModel.FACE_MESH`` for the legacy
            mesh's 468 points without refinement.
        frame_dropped_callback: LIVE_STREAM only: called as
            ``callback(reason, image, timestamp_ms)`` for each frame the worker
            drops (MediaPipe calls nothing for those). When None, dropped
            frames pass unnoticed, as in MediaPipe.
        refuse_damaged_jpeg: Refuse a JPEG whose compressed data is damaged
            or cut short with INVALID_ARGUMENT. By default such a JPEG is
            decoded as libjpeg decodes it (the undecodable part grey) and its
            result carries libjpeg's warning in ``warnings``.
        session_name: Share the task's session under this name, so that
            :class:`~faceworker.vision.FaceSubscriber` objects of any process
            receive its results (1 to 128 bytes of UTF-8 without control
            characters, unique among the worker's open sessions: otherwise
            the worker refuses it with INVALID_ARGUMENT or ALREADY_EXISTS).
            None: the session is private.
    """

    _: KW_ONLY
    performance_mode: PerformanceMode = PerformanceMode.FAST
    landmark_mode: LandmarkMode = LandmarkMode.NONE
    contour_mode: ContourMode = ContourMode.NONE
    classification_mode: ClassificationMode = ClassificationMode.NONE
    min_face_size: Optional[float] = None
    tracking_enabled: bool = False
    detector_interval_frames: int = 0
    max_missed_frames: Optional[int] = None
    mesh_model: Optional[MeshModel] = None
    frame_dropped_callback: Optional[Callable[[DropReason, Image, int], None]] = None
    refuse_damaged_jpeg: bool = False
    session_name: Optional[str] = None

    def _base_proto(self, running_mode: RunningMode) -> pb.SessionOptions:
        options = pb.SessionOptions(
            running_mode=int(running_mode),
            performance_mode=int(self.performance_mode),
            landmark_mode=int(self.landmark_mode),
            contour_mode=int(self.contour_mode),
            classification_mode=int(self.classification_mode),
            tracking_enabled=self.tracking_enabled,
            detector_interval_frames=self.detector_interval_frames,
            refuse_damaged_jpeg=self.refuse_damaged_jpeg,
        )
        _set_present(options, min_face_size=self.min_face_size, max_missed_frames=self.max_missed_frames)
        if self.mesh_model is not None:
            options.mesh_model = int(self.mesh_model)
        return options


def _check_callbacks(running_mode: RunningMode, result_callback: Any, dropped_callback: Any) -> None:
    # MediaPipe's rule, with its wording: a callback exactly in live-stream mode.
    if running_mode == RunningMode.LIVE_STREAM:
        if result_callback is None:
            raise ValueError("The vision task is in live stream mode, a user-defined result callback must be provided.")
    elif result_callback is not None or dropped_callback is not None:
        raise ValueError(
            "The vision task is in image or video mode, a user-defined result callback should not be provided."
        )


def _set_present(options: pb.SessionOptions, **values: Any) -> None:
    # Fields whose absence means "the worker's default" are set only when given.
    for name, value in values.items():
        if value is not None:
            setattr(options, name, value)


@dataclass
class FaceDetectorOptions(FaceWorkerOptions):
    """Options for :class:`~faceworker.vision.FaceDetector` (MediaPipe's FaceDetectorOptions).

    Attributes:
        base_options: Where the worker is.
        running_mode: IMAGE, VIDEO or LIVE_STREAM.
        min_detection_confidence: Lowest detector score reported; None: 0.5.
        min_suppression_threshold: Overlap (IoU) above which two detections
            are merged; None: 0.3.
        result_callback: LIVE_STREAM only: ``callback(result, image,
            timestamp_ms)``, run on the connection's reader thread.
        num_faces: Most faces reported; None reports every face found, as
            MediaPipe's face detector does.

    The keyword-only options of :class:`FaceWorkerOptions` follow.
    """

    base_options: BaseOptions = field(default_factory=BaseOptions)
    running_mode: RunningMode = RunningMode.IMAGE
    min_detection_confidence: Optional[float] = None
    min_suppression_threshold: Optional[float] = None
    result_callback: Optional[Callable[[FaceDetectorResult, Image, int], None]] = None
    num_faces: Optional[int] = field(default=None, kw_only=True)

    def _to_proto(self) -> pb.SessionOptions:
        """The worker's SessionOptions for these options.

        Raises:
            ValueError: When the callbacks do not fit the running mode.
        """
        _check_callbacks(self.running_mode, self.result_callback, self.frame_dropped_callback)
        options = self._base_proto(self.running_mode)
        _set_present(
            options,
            min_detection_confidence=self.min_detection_confidence,
            min_suppression_threshold=self.min_suppression_threshold,
            num_faces=_ALL_FACES if self.num_faces is None else self.num_faces,
        )
        return options


@dataclass
class FaceLandmarkerOptions(FaceWorkerOptions):
    """Options for :class:`~faceworker.vision.FaceLandmarker` (MediaPipe's FaceLandmarkerOptions).

    Attributes:
        base_options: Where the worker is.
        running_mode: IMAGE, VIDEO or LIVE_STREAM.
        num_faces: Most faces reported, highest detector score first.
        min_face_detection_confidence: Lowest detector score for a face.
        min_face_presence_confidence: Lowest face mesh presence score; in
            VIDEO and LIVE_STREAM a followed face at or below it is lost.
        min_tracking_confidence: VIDEO and LIVE_STREAM: a detection whose box
            overlaps a followed face by more than this IoU is taken as that
            same face rather than a new one.
        output_face_blendshapes: Report each face's 52 blendshape scores in
            ``face_blendshapes``; needs the FACE_LANDMARKER mesh model (the
            worker refuses it with INVALID_ARGUMENT otherwise).
        output_facial_transformation_matrixes: Report each face's 4x4 matrix.
        result_callback: LIVE_STREAM only: ``callback(result, image,
            timestamp_ms)``, run on the connection's reader thread.
        min_suppression_threshold: Overlap (IoU) above which two detections
            are merged; None: 0.3.

    The keyword-only options of :class:`FaceWorkerOptions` follow;
    ``mesh_model`` defaults to FACE_LANDMARKER here.
    """

    base_options: BaseOptions = field(default_factory=BaseOptions)
    running_mode: RunningMode = RunningMode.IMAGE
    num_faces: int = 1
    min_face_detection_confidence: float = 0.5
    min_face_presence_confidence: float = 0.5
    min_tracking_confidence: float = 0.5
    output_face_blendshapes: bool = False
    output_facial_transformation_matrixes: bool = False
    result_callback: Optional[Callable[[FaceLandmarkerResult, Image, int], None]] = None
    min_suppression_threshold: Optional[float] = field(default=None, kw_only=True)

    def _to_proto(self) -> pb.SessionOptions:
        """The worker's SessionOptions for these options.

        Raises:
            ValueError: When the callbacks do not fit the running mode.
        """
        _check_callbacks(self.running_mode, self.result_callback, self.frame_dropped_callback)
        options = self._base_proto(self.running_mode)
        if self.mesh_model is None:
            options.mesh_model = int(MeshModel.FACE_LANDMARKER)
        options.output_face_mesh = True
        options.output_transformation_matrix = self.output_facial_transformation_matrixes
        options.output_face_blendshapes = self.output_face_blendshapes
        _set_present(
            options,
            num_faces=self.num_faces,
            min_detection_confidence=self.min_face_detection_confidence,
            min_face_presence_confidence=self.min_face_presence_confidence,
            min_tracking_confidence=self.min_tracking_confidence,
            min_suppression_threshold=self.min_suppression_threshold,
        )
        return options


@dataclass
class FaceSubscriberOptions:
    """Options for :class:`~faceworker.vision.FaceSubscriber`, which follows a shared session.

    Every callback runs on the subscriber connection's reader thread, one
    event at a time, in the order the producer got the answers; keep them
    short, since the worker keeps only ``queue_limit`` unread events for a
    subscriber and drops the rest (``events_missed_callback`` hears how many).

    Attributes:
        base_options: Where the worker is.
        session_name: The name the producer's task was opened with
            (``session_name`` of its options).
        result_callback: ``callback(result, timestamp_ms)`` for each frame of
            the session that was processed: a FaceLandmarkerResult when the
            producer is a FaceLandmarker, else a FaceDetectorResult, as the
            producer's own callback would get it.
        frame_dropped_callback: ``callback(reason, timestamp_ms)`` for each
            frame the worker dropped unprocessed.
        frame_error_callback: ``callback(error, timestamp_ms)`` for each frame
            the worker refused or failed: the FaceWorkerError the producer
            got (``timestamp_ms`` None when the worker did not name the frame).
        events_missed_callback: ``callback(count)`` when this subscriber lost
            ``count`` events because it did not read them in time.
        session_reset_callback: ``callback()`` when the producer reset the
            session (tracking starts again, timestamps may restart).
        session_ended_callback: ``callback(reason)``, once, when the
            subscription ends: the producer closed the session or went away,
            this subscriber closed, or the worker is stopping.

    Callbacks left None are not called; those events pass unnoticed.
    """

    base_options: BaseOptions = field(default_factory=BaseOptions)
    session_name: str = ""
    result_callback: Optional[Callable[[Any, int], None]] = None
    _: KW_ONLY
    frame_dropped_callback: Optional[Callable[[DropReason, int], None]] = None
    frame_error_callback: Optional[Callable[[FaceWorkerError, Optional[int]], None]] = None
    events_missed_callback: Optional[Callable[[int], None]] = None
    session_reset_callback: Optional[Callable[[], None]] = None
    session_ended_callback: Optional[Callable[[SessionEndReason], None]] = None
