from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

CLASSIFICATION_MODE_ALL: ClassificationMode
CLASSIFICATION_MODE_NONE: ClassificationMode
CONTOUR_MODE_ALL: ContourMode
CONTOUR_MODE_NONE: ContourMode
CONTOUR_TYPE_FACE: ContourType
CONTOUR_TYPE_LEFT_CHEEK: ContourType
CONTOUR_TYPE_LEFT_EYE: ContourType
CONTOUR_TYPE_LEFT_EYEBROW_BOTTOM: ContourType
CONTOUR_TYPE_LEFT_EYEBROW_TOP: ContourType
CONTOUR_TYPE_LOWER_LIP_BOTTOM: ContourType
CONTOUR_TYPE_LOWER_LIP_TOP: ContourType
CONTOUR_TYPE_NOSE_BOTTOM: ContourType
CONTOUR_TYPE_NOSE_BRIDGE: ContourType
CONTOUR_TYPE_RIGHT_CHEEK: ContourType
CONTOUR_TYPE_RIGHT_EYE: ContourType
CONTOUR_TYPE_RIGHT_EYEBROW_BOTTOM: ContourType
CONTOUR_TYPE_RIGHT_EYEBROW_TOP: ContourType
CONTOUR_TYPE_UNSPECIFIED: ContourType
CONTOUR_TYPE_UPPER_LIP_BOTTOM: ContourType
CONTOUR_TYPE_UPPER_LIP_TOP: ContourType
DESCRIPTOR: _descriptor.FileDescriptor
KEYPOINT_TYPE_LEFT_EAR_TRAGION: KeypointType
KEYPOINT_TYPE_LEFT_EYE: KeypointType
KEYPOINT_TYPE_MOUTH_CENTER: KeypointType
KEYPOINT_TYPE_NOSE_TIP: KeypointType
KEYPOINT_TYPE_RIGHT_EAR_TRAGION: KeypointType
KEYPOINT_TYPE_RIGHT_EYE: KeypointType
KEYPOINT_TYPE_UNSPECIFIED: KeypointType
LANDMARK_MODE_ALL: LandmarkMode
LANDMARK_MODE_NONE: LandmarkMode
LANDMARK_TYPE_LEFT_CHEEK: LandmarkType
LANDMARK_TYPE_LEFT_EAR: LandmarkType
LANDMARK_TYPE_LEFT_EYE: LandmarkType
LANDMARK_TYPE_MOUTH_BOTTOM: LandmarkType
LANDMARK_TYPE_MOUTH_LEFT: LandmarkType
LANDMARK_TYPE_MOUTH_RIGHT: LandmarkType
LANDMARK_TYPE_NOSE_BASE: LandmarkType
LANDMARK_TYPE_RIGHT_CHEEK: LandmarkType
LANDMARK_TYPE_RIGHT_EAR: LandmarkType
LANDMARK_TYPE_RIGHT_EYE: LandmarkType
LANDMARK_TYPE_UNSPECIFIED: LandmarkType
MESH_MODEL_ATTENTION_MESH: MeshModel
MESH_MODEL_FACE_LANDMARKER: MeshModel
MESH_MODEL_FACE_MESH: MeshModel
MESH_MODEL_UNSPECIFIED: MeshModel
ORIENTATION_BOTTOM_LEFT: Orientation
ORIENTATION_BOTTOM_RIGHT: Orientation
ORIENTATION_LEFT_BOTTOM: Orientation
ORIENTATION_LEFT_TOP: Orientation
ORIENTATION_RIGHT_BOTTOM: Orientation
ORIENTATION_RIGHT_TOP: Orientation
ORIENTATION_TOP_LEFT: Orientation
ORIENTATION_TOP_RIGHT: Orientation
PERFORMANCE_MODE_ACCURATE: PerformanceMode
PERFORMANCE_MODE_FAST: PerformanceMode
PIXEL_FORMAT_BGR: PixelFormat
PIXEL_FORMAT_BGRA: PixelFormat
PIXEL_FORMAT_GRAY8: PixelFormat
PIXEL_FORMAT_I420: PixelFormat
PIXEL_FORMAT_NV12: PixelFormat
PIXEL_FORMAT_NV21: PixelFormat
PIXEL_FORMAT_RGB: PixelFormat
PIXEL_FORMAT_RGBA: PixelFormat
PIXEL_FORMAT_UNSPECIFIED: PixelFormat
RUNNING_MODE_IMAGE: RunningMode
RUNNING_MODE_LIVE_STREAM: RunningMode
RUNNING_MODE_VIDEO: RunningMode
STAGE_DECODE: Stage
STAGE_DETECT: Stage
STAGE_LANDMARKS: Stage
STAGE_QUEUED: Stage
STAGE_TOTAL: Stage
STAGE_UNSPECIFIED: Stage

class BoundingBox(_message.Message):
    __slots__ = ["height", "width", "x", "y"]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    height: float
    width: float
    x: float
    y: float
    def __init__(self, x: _Optional[float] = ..., y: _Optional[float] = ..., width: _Optional[float] = ..., height: _Optional[float] = ...) -> None: ...

class BufferRegion(_message.Message):
    __slots__ = ["buffer_id", "length", "offset"]
    BUFFER_ID_FIELD_NUMBER: _ClassVar[int]
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    buffer_id: int
    length: int
    offset: int
    def __init__(self, buffer_id: _Optional[int] = ..., offset: _Optional[int] = ..., length: _Optional[int] = ...) -> None: ...

class BufferRegistered(_message.Message):
    __slots__ = ["buffer_id", "size_bytes"]
    BUFFER_ID_FIELD_NUMBER: _ClassVar[int]
    SIZE_BYTES_FIELD_NUMBER: _ClassVar[int]
    buffer_id: int
    size_bytes: int
    def __init__(self, buffer_id: _Optional[int] = ..., size_bytes: _Optional[int] = ...) -> None: ...

class ClientMessage(_message.Message):
    __slots__ = ["call_id", "close_session", "get_stats", "open_session", "ping", "process_frame", "register_buffer", "reset_session", "subscribe", "unregister_buffer", "unsubscribe"]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    CLOSE_SESSION_FIELD_NUMBER: _ClassVar[int]
    GET_STATS_FIELD_NUMBER: _ClassVar[int]
    OPEN_SESSION_FIELD_NUMBER: _ClassVar[int]
    PING_FIELD_NUMBER: _ClassVar[int]
    PROCESS_FRAME_FIELD_NUMBER: _ClassVar[int]
    REGISTER_BUFFER_FIELD_NUMBER: _ClassVar[int]
    RESET_SESSION_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIBE_FIELD_NUMBER: _ClassVar[int]
    UNREGISTER_BUFFER_FIELD_NUMBER: _ClassVar[int]
    UNSUBSCRIBE_FIELD_NUMBER: _ClassVar[int]
    call_id: int
    close_session: CloseSessionRequest
    get_stats: GetStatsRequest
    open_session: OpenSessionRequest
    ping: PingRequest
    process_frame: ProcessFrameRequest
    register_buffer: RegisterBufferRequest
    reset_session: ResetSessionRequest
    subscribe: SubscribeRequest
    unregister_buffer: UnregisterBufferRequest
    unsubscribe: UnsubscribeRequest
    def __init__(self, call_id: _Optional[int] = ..., open_session: _Optional[_Union[OpenSessionRequest, _Mapping]] = ..., process_frame: _Optional[_Union[ProcessFrameRequest, _Mapping]] = ..., close_session: _Optional[_Union[CloseSessionRequest, _Mapping]] = ..., reset_session: _Optional[_Union[ResetSessionRequest, _Mapping]] = ..., ping: _Optional[_Union[PingRequest, _Mapping]] = ..., get_stats: _Optional[_Union[GetStatsRequest, _Mapping]] = ..., subscribe: _Optional[_Union[SubscribeRequest, _Mapping]] = ..., unsubscribe: _Optional[_Union[UnsubscribeRequest, _Mapping]] = ..., register_buffer: _Optional[_Union[RegisterBufferRequest, _Mapping]] = ..., unregister_buffer: _Optional[_Union[UnregisterBufferRequest, _Mapping]] = ...) -> None: ...

class CloseSessionRequest(_message.Message):
    __slots__ = ["session_id"]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: int
    def __init__(self, session_id: _Optional[int] = ...) -> None: ...

class CloseSessionResponse(_message.Message):
    __slots__ = ["session_id"]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: int
    def __init__(self, session_id: _Optional[int] = ...) -> None: ...

class Contour(_message.Message):
    __slots__ = ["points_xy", "type"]
    POINTS_XY_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    points_xy: _containers.RepeatedScalarFieldContainer[float]
    type: ContourType
    def __init__(self, type: _Optional[_Union[ContourType, str]] = ..., points_xy: _Optional[_Iterable[float]] = ...) -> None: ...

class EventsMissed(_message.Message):
    __slots__ = ["count"]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    count: int
    def __init__(self, count: _Optional[int] = ...) -> None: ...

class Face(_message.Message):
    __slots__ = ["blendshapes", "bounding_box", "contours", "head_euler_angle_x", "head_euler_angle_y", "head_euler_angle_z", "keypoints", "landmarks", "left_eye_open_probability", "mesh_xyz", "presence_score", "right_eye_open_probability", "score", "smiling_probability", "tracking_id", "transformation_matrix"]
    BLENDSHAPES_FIELD_NUMBER: _ClassVar[int]
    BOUNDING_BOX_FIELD_NUMBER: _ClassVar[int]
    CONTOURS_FIELD_NUMBER: _ClassVar[int]
    HEAD_EULER_ANGLE_X_FIELD_NUMBER: _ClassVar[int]
    HEAD_EULER_ANGLE_Y_FIELD_NUMBER: _ClassVar[int]
    HEAD_EULER_ANGLE_Z_FIELD_NUMBER: _ClassVar[int]
    KEYPOINTS_FIELD_NUMBER: _ClassVar[int]
    LANDMARKS_FIELD_NUMBER: _ClassVar[int]
    LEFT_EYE_OPEN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    MESH_XYZ_FIELD_NUMBER: _ClassVar[int]
    PRESENCE_SCORE_FIELD_NUMBER: _ClassVar[int]
    RIGHT_EYE_OPEN_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SMILING_PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    TRACKING_ID_FIELD_NUMBER: _ClassVar[int]
    TRANSFORMATION_MATRIX_FIELD_NUMBER: _ClassVar[int]
    blendshapes: _containers.RepeatedScalarFieldContainer[float]
    bounding_box: BoundingBox
    contours: _containers.RepeatedCompositeFieldContainer[Contour]
    head_euler_angle_x: float
    head_euler_angle_y: float
    head_euler_angle_z: float
    keypoints: _containers.RepeatedCompositeFieldContainer[Keypoint]
    landmarks: _containers.RepeatedCompositeFieldContainer[Landmark]
    left_eye_open_probability: float
    mesh_xyz: _containers.RepeatedScalarFieldContainer[float]
    presence_score: float
    right_eye_open_probability: float
    score: float
    smiling_probability: float
    tracking_id: int
    transformation_matrix: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, bounding_box: _Optional[_Union[BoundingBox, _Mapping]] = ..., score: _Optional[float] = ..., keypoints: _Optional[_Iterable[_Union[Keypoint, _Mapping]]] = ..., landmarks: _Optional[_Iterable[_Union[Landmark, _Mapping]]] = ..., contours: _Optional[_Iterable[_Union[Contour, _Mapping]]] = ..., head_euler_angle_x: _Optional[float] = ..., head_euler_angle_y: _Optional[float] = ..., head_euler_angle_z: _Optional[float] = ..., smiling_probability: _Optional[float] = ..., left_eye_open_probability: _Optional[float] = ..., right_eye_open_probability: _Optional[float] = ..., tracking_id: _Optional[int] = ..., presence_score: _Optional[float] = ..., mesh_xyz: _Optional[_Iterable[float]] = ..., transformation_matrix: _Optional[_Iterable[float]] = ..., blendshapes: _Optional[_Iterable[float]] = ...) -> None: ...

class Frame(_message.Message):
    __slots__ = ["jpeg", "orientation", "raw", "shared_jpeg", "timestamp_ms"]
    JPEG_FIELD_NUMBER: _ClassVar[int]
    ORIENTATION_FIELD_NUMBER: _ClassVar[int]
    RAW_FIELD_NUMBER: _ClassVar[int]
    SHARED_JPEG_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_MS_FIELD_NUMBER: _ClassVar[int]
    jpeg: bytes
    orientation: Orientation
    raw: RawImage
    shared_jpeg: BufferRegion
    timestamp_ms: int
    def __init__(self, jpeg: _Optional[bytes] = ..., raw: _Optional[_Union[RawImage, _Mapping]] = ..., shared_jpeg: _Optional[_Union[BufferRegion, _Mapping]] = ..., orientation: _Optional[_Union[Orientation, str]] = ..., timestamp_ms: _Optional[int] = ...) -> None: ...

class FrameDropped(_message.Message):
    __slots__ = ["reason", "session_id", "timestamp_ms"]
    class Reason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = []
    REASON_FIELD_NUMBER: _ClassVar[int]
    REASON_REPLACED: FrameDropped.Reason
    REASON_SESSION_CLOSED: FrameDropped.Reason
    REASON_SESSION_RESET: FrameDropped.Reason
    REASON_UNSPECIFIED: FrameDropped.Reason
    REASON_WORKER_RESTARTED: FrameDropped.Reason
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_MS_FIELD_NUMBER: _ClassVar[int]
    reason: FrameDropped.Reason
    session_id: int
    timestamp_ms: int
    def __init__(self, session_id: _Optional[int] = ..., timestamp_ms: _Optional[int] = ..., reason: _Optional[_Union[FrameDropped.Reason, str]] = ...) -> None: ...

class FrameResult(_message.Message):
    __slots__ = ["detector_ran", "faces", "image_height", "image_width", "session_id", "timestamp_ms", "timings", "warnings"]
    DETECTOR_RAN_FIELD_NUMBER: _ClassVar[int]
    FACES_FIELD_NUMBER: _ClassVar[int]
    IMAGE_HEIGHT_FIELD_NUMBER: _ClassVar[int]
    IMAGE_WIDTH_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_MS_FIELD_NUMBER: _ClassVar[int]
    TIMINGS_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    detector_ran: bool
    faces: _containers.RepeatedCompositeFieldContainer[Face]
    image_height: int
    image_width: int
    session_id: int
    timestamp_ms: int
    timings: StageTimings
    warnings: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, session_id: _Optional[int] = ..., timestamp_ms: _Optional[int] = ..., image_width: _Optional[int] = ..., image_height: _Optional[int] = ..., faces: _Optional[_Iterable[_Union[Face, _Mapping]]] = ..., timings: _Optional[_Union[StageTimings, _Mapping]] = ..., detector_ran: bool = ..., warnings: _Optional[_Iterable[str]] = ...) -> None: ...

class GetStatsRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetStatsResponse(_message.Message):
    __slots__ = ["connections", "events_missed", "frames_dropped", "frames_failed", "frames_processed", "inference_threads", "mapped_bytes", "models", "resident_memory_bytes", "sessions", "shared_buffers", "stage_latencies", "subscriptions", "uptime_seconds"]
    CONNECTIONS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_MISSED_FIELD_NUMBER: _ClassVar[int]
    FRAMES_DROPPED_FIELD_NUMBER: _ClassVar[int]
    FRAMES_FAILED_FIELD_NUMBER: _ClassVar[int]
    FRAMES_PROCESSED_FIELD_NUMBER: _ClassVar[int]
    INFERENCE_THREADS_FIELD_NUMBER: _ClassVar[int]
    MAPPED_BYTES_FIELD_NUMBER: _ClassVar[int]
    MODELS_FIELD_NUMBER: _ClassVar[int]
    RESIDENT_MEMORY_BYTES_FIELD_NUMBER: _ClassVar[int]
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    SHARED_BUFFERS_FIELD_NUMBER: _ClassVar[int]
    STAGE_LATENCIES_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIPTIONS_FIELD_NUMBER: _ClassVar[int]
    UPTIME_SECONDS_FIELD_NUMBER: _ClassVar[int]
    connections: int
    events_missed: int
    frames_dropped: int
    frames_failed: int
    frames_processed: int
    inference_threads: int
    mapped_bytes: int
    models: _containers.RepeatedCompositeFieldContainer[ModelInfo]
    resident_memory_bytes: int
    sessions: int
    shared_buffers: int
    stage_latencies: _containers.RepeatedCompositeFieldContainer[StageLatency]
    subscriptions: int
    uptime_seconds: float
    def __init__(self, uptime_seconds: _Optional[float] = ..., connections: _Optional[int] = ..., sessions: _Optional[int] = ..., frames_processed: _Optional[int] = ..., frames_dropped: _Optional[int] = ..., frames_failed: _Optional[int] = ..., stage_latencies: _Optional[_Iterable[_Union[StageLatency, _Mapping]]] = ..., resident_memory_bytes: _Optional[int] = ..., inference_threads: _Optional[int] = ..., models: _Optional[_Iterable[_Union[ModelInfo, _Mapping]]] = ..., subscriptions: _Optional[int] = ..., events_missed: _Optional[int] = ..., shared_buffers: _Optional[int] = ..., mapped_bytes: _Optional[int] = ...) -> None: ...

class Keypoint(_message.Message):
    __slots__ = ["normalized", "position", "type"]
    NORMALIZED_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    normalized: Point
    position: Point
    type: KeypointType
    def __init__(self, type: _Optional[_Union[KeypointType, str]] = ..., normalized: _Optional[_Union[Point, _Mapping]] = ..., position: _Optional[_Union[Point, _Mapping]] = ...) -> None: ...

class Landmark(_message.Message):
    __slots__ = ["position", "type"]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    position: Point
    type: LandmarkType
    def __init__(self, type: _Optional[_Union[LandmarkType, str]] = ..., position: _Optional[_Union[Point, _Mapping]] = ...) -> None: ...

class ModelInfo(_message.Message):
    __slots__ = ["name", "sha256", "size_bytes"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SHA256_FIELD_NUMBER: _ClassVar[int]
    SIZE_BYTES_FIELD_NUMBER: _ClassVar[int]
    name: str
    sha256: str
    size_bytes: int
    def __init__(self, name: _Optional[str] = ..., sha256: _Optional[str] = ..., size_bytes: _Optional[int] = ...) -> None: ...

class OpenSessionRequest(_message.Message):
    __slots__ = ["name", "options"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    name: str
    options: SessionOptions
    def __init__(self, options: _Optional[_Union[SessionOptions, _Mapping]] = ..., name: _Optional[str] = ...) -> None: ...

class OpenSessionResponse(_message.Message):
    __slots__ = ["blendshape_names", "name", "options", "session_id"]
    BLENDSHAPE_NAMES_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    blendshape_names: _containers.RepeatedScalarFieldContainer[str]
    name: str
    options: SessionOptions
    session_id: int
    def __init__(self, session_id: _Optional[int] = ..., options: _Optional[_Union[SessionOptions, _Mapping]] = ..., name: _Optional[str] = ..., blendshape_names: _Optional[_Iterable[str]] = ...) -> None: ...

class PingRequest(_message.Message):
    __slots__ = ["payload"]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    payload: bytes
    def __init__(self, payload: _Optional[bytes] = ...) -> None: ...

class PingResponse(_message.Message):
    __slots__ = ["payload"]
    PAYLOAD_FIELD_NUMBER: _ClassVar[int]
    payload: bytes
    def __init__(self, payload: _Optional[bytes] = ...) -> None: ...

class Point(_message.Message):
    __slots__ = ["x", "y"]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    x: float
    y: float
    def __init__(self, x: _Optional[float] = ..., y: _Optional[float] = ...) -> None: ...

class ProcessFrameRequest(_message.Message):
    __slots__ = ["frame", "session_id"]
    FRAME_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    frame: Frame
    session_id: int
    def __init__(self, session_id: _Optional[int] = ..., frame: _Optional[_Union[Frame, _Mapping]] = ...) -> None: ...

class RawImage(_message.Message):
    __slots__ = ["data", "format", "height", "region", "row_stride", "width"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    REGION_FIELD_NUMBER: _ClassVar[int]
    ROW_STRIDE_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    data: bytes
    format: PixelFormat
    height: int
    region: BufferRegion
    row_stride: int
    width: int
    def __init__(self, format: _Optional[_Union[PixelFormat, str]] = ..., width: _Optional[int] = ..., height: _Optional[int] = ..., row_stride: _Optional[int] = ..., data: _Optional[bytes] = ..., region: _Optional[_Union[BufferRegion, _Mapping]] = ...) -> None: ...

class RegisterBufferRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class RegisterBufferResponse(_message.Message):
    __slots__ = ["buffer_id", "handoff_address", "token"]
    BUFFER_ID_FIELD_NUMBER: _ClassVar[int]
    HANDOFF_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    buffer_id: int
    handoff_address: str
    token: bytes
    def __init__(self, buffer_id: _Optional[int] = ..., token: _Optional[bytes] = ..., handoff_address: _Optional[str] = ...) -> None: ...

class ResetSessionRequest(_message.Message):
    __slots__ = ["session_id"]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: int
    def __init__(self, session_id: _Optional[int] = ...) -> None: ...

class ResetSessionResponse(_message.Message):
    __slots__ = ["session_id"]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: int
    def __init__(self, session_id: _Optional[int] = ...) -> None: ...

class SessionEnded(_message.Message):
    __slots__ = ["reason"]
    class Reason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = []
    REASON_FIELD_NUMBER: _ClassVar[int]
    REASON_PRODUCER_GONE: SessionEnded.Reason
    REASON_SESSION_CLOSED: SessionEnded.Reason
    REASON_UNSPECIFIED: SessionEnded.Reason
    REASON_UNSUBSCRIBED: SessionEnded.Reason
    REASON_WORKER_STOPPING: SessionEnded.Reason
    reason: SessionEnded.Reason
    def __init__(self, reason: _Optional[_Union[SessionEnded.Reason, str]] = ...) -> None: ...

class SessionEvent(_message.Message):
    __slots__ = ["events_missed", "frame_dropped", "frame_error", "frame_result", "session_ended", "session_reset", "subscription_id"]
    EVENTS_MISSED_FIELD_NUMBER: _ClassVar[int]
    FRAME_DROPPED_FIELD_NUMBER: _ClassVar[int]
    FRAME_ERROR_FIELD_NUMBER: _ClassVar[int]
    FRAME_RESULT_FIELD_NUMBER: _ClassVar[int]
    SESSION_ENDED_FIELD_NUMBER: _ClassVar[int]
    SESSION_RESET_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIPTION_ID_FIELD_NUMBER: _ClassVar[int]
    events_missed: EventsMissed
    frame_dropped: FrameDropped
    frame_error: Status
    frame_result: FrameResult
    session_ended: SessionEnded
    session_reset: SessionReset
    subscription_id: int
    def __init__(self, subscription_id: _Optional[int] = ..., frame_result: _Optional[_Union[FrameResult, _Mapping]] = ..., frame_dropped: _Optional[_Union[FrameDropped, _Mapping]] = ..., frame_error: _Optional[_Union[Status, _Mapping]] = ..., events_missed: _Optional[_Union[EventsMissed, _Mapping]] = ..., session_reset: _Optional[_Union[SessionReset, _Mapping]] = ..., session_ended: _Optional[_Union[SessionEnded, _Mapping]] = ...) -> None: ...

class SessionOptions(_message.Message):
    __slots__ = ["classification_mode", "contour_mode", "detector_interval_frames", "landmark_mode", "max_missed_frames", "mesh_model", "min_detection_confidence", "min_face_presence_confidence", "min_face_size", "min_suppression_threshold", "min_tracking_confidence", "num_faces", "output_face_blendshapes", "output_face_mesh", "output_transformation_matrix", "performance_mode", "refuse_damaged_jpeg", "running_mode", "tracking_enabled"]
    CLASSIFICATION_MODE_FIELD_NUMBER: _ClassVar[int]
    CONTOUR_MODE_FIELD_NUMBER: _ClassVar[int]
    DETECTOR_INTERVAL_FRAMES_FIELD_NUMBER: _ClassVar[int]
    LANDMARK_MODE_FIELD_NUMBER: _ClassVar[int]
    MAX_MISSED_FRAMES_FIELD_NUMBER: _ClassVar[int]
    MESH_MODEL_FIELD_NUMBER: _ClassVar[int]
    MIN_DETECTION_CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    MIN_FACE_PRESENCE_CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    MIN_FACE_SIZE_FIELD_NUMBER: _ClassVar[int]
    MIN_SUPPRESSION_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    MIN_TRACKING_CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    NUM_FACES_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FACE_BLENDSHAPES_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FACE_MESH_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TRANSFORMATION_MATRIX_FIELD_NUMBER: _ClassVar[int]
    PERFORMANCE_MODE_FIELD_NUMBER: _ClassVar[int]
    REFUSE_DAMAGED_JPEG_FIELD_NUMBER: _ClassVar[int]
    RUNNING_MODE_FIELD_NUMBER: _ClassVar[int]
    TRACKING_ENABLED_FIELD_NUMBER: _ClassVar[int]
    classification_mode: ClassificationMode
    contour_mode: ContourMode
    detector_interval_frames: int
    landmark_mode: LandmarkMode
    max_missed_frames: int
    mesh_model: MeshModel
    min_detection_confidence: float
    min_face_presence_confidence: float
    min_face_size: float
    min_suppression_threshold: float
    min_tracking_confidence: float
    num_faces: int
    output_face_blendshapes: bool
    output_face_mesh: bool
    output_transformation_matrix: bool
    performance_mode: PerformanceMode
    refuse_damaged_jpeg: bool
    running_mode: RunningMode
    tracking_enabled: bool
    def __init__(self, running_mode: _Optional[_Union[RunningMode, str]] = ..., performance_mode: _Optional[_Union[PerformanceMode, str]] = ..., landmark_mode: _Optional[_Union[LandmarkMode, str]] = ..., contour_mode: _Optional[_Union[ContourMode, str]] = ..., classification_mode: _Optional[_Union[ClassificationMode, str]] = ..., min_face_size: _Optional[float] = ..., tracking_enabled: bool = ..., min_detection_confidence: _Optional[float] = ..., min_suppression_threshold: _Optional[float] = ..., num_faces: _Optional[int] = ..., min_face_presence_confidence: _Optional[float] = ..., min_tracking_confidence: _Optional[float] = ..., output_face_mesh: bool = ..., output_transformation_matrix: bool = ..., detector_interval_frames: _Optional[int] = ..., max_missed_frames: _Optional[int] = ..., refuse_damaged_jpeg: bool = ..., mesh_model: _Optional[_Union[MeshModel, str]] = ..., output_face_blendshapes: bool = ...) -> None: ...

class SessionReset(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class StageLatency(_message.Message):
    __slots__ = ["count", "p50_us", "p90_us", "p99_us", "stage"]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    P50_US_FIELD_NUMBER: _ClassVar[int]
    P90_US_FIELD_NUMBER: _ClassVar[int]
    P99_US_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    count: int
    p50_us: int
    p90_us: int
    p99_us: int
    stage: Stage
    def __init__(self, stage: _Optional[_Union[Stage, str]] = ..., p50_us: _Optional[int] = ..., p90_us: _Optional[int] = ..., p99_us: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class StageTimings(_message.Message):
    __slots__ = ["decode_us", "detect_us", "landmarks_us", "queued_us", "received_unix_us", "total_us"]
    DECODE_US_FIELD_NUMBER: _ClassVar[int]
    DETECT_US_FIELD_NUMBER: _ClassVar[int]
    LANDMARKS_US_FIELD_NUMBER: _ClassVar[int]
    QUEUED_US_FIELD_NUMBER: _ClassVar[int]
    RECEIVED_UNIX_US_FIELD_NUMBER: _ClassVar[int]
    TOTAL_US_FIELD_NUMBER: _ClassVar[int]
    decode_us: int
    detect_us: int
    landmarks_us: int
    queued_us: int
    received_unix_us: int
    total_us: int
    def __init__(self, received_unix_us: _Optional[int] = ..., queued_us: _Optional[int] = ..., decode_us: _Optional[int] = ..., detect_us: _Optional[int] = ..., landmarks_us: _Optional[int] = ..., total_us: _Optional[int] = ...) -> None: ...

class Status(_message.Message):
    __slots__ = ["code", "message", "session_id", "timestamp_ms"]
    class Code(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = []
    ABORTED: Status.Code
    ALREADY_EXISTS: Status.Code
    CANCELLED: Status.Code
    CODE_FIELD_NUMBER: _ClassVar[int]
    DATA_LOSS: Status.Code
    DEADLINE_EXCEEDED: Status.Code
    FAILED_PRECONDITION: Status.Code
    INTERNAL: Status.Code
    INVALID_ARGUMENT: Status.Code
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    NOT_FOUND: Status.Code
    OK: Status.Code
    OUT_OF_RANGE: Status.Code
    PERMISSION_DENIED: Status.Code
    RESOURCE_EXHAUSTED: Status.Code
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TIMESTAMP_MS_FIELD_NUMBER: _ClassVar[int]
    UNAUTHENTICATED: Status.Code
    UNAVAILABLE: Status.Code
    UNIMPLEMENTED: Status.Code
    UNKNOWN: Status.Code
    code: Status.Code
    message: str
    session_id: int
    timestamp_ms: int
    def __init__(self, code: _Optional[_Union[Status.Code, str]] = ..., message: _Optional[str] = ..., session_id: _Optional[int] = ..., timestamp_ms: _Optional[int] = ...) -> None: ...

class SubscribeRequest(_message.Message):
    __slots__ = ["name"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class SubscribeResponse(_message.Message):
    __slots__ = ["blendshape_names", "name", "options", "queue_limit", "session_id", "subscription_id"]
    BLENDSHAPE_NAMES_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    QUEUE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIPTION_ID_FIELD_NUMBER: _ClassVar[int]
    blendshape_names: _containers.RepeatedScalarFieldContainer[str]
    name: str
    options: SessionOptions
    queue_limit: int
    session_id: int
    subscription_id: int
    def __init__(self, subscription_id: _Optional[int] = ..., session_id: _Optional[int] = ..., name: _Optional[str] = ..., options: _Optional[_Union[SessionOptions, _Mapping]] = ..., queue_limit: _Optional[int] = ..., blendshape_names: _Optional[_Iterable[str]] = ...) -> None: ...

class UnregisterBufferRequest(_message.Message):
    __slots__ = ["buffer_id"]
    BUFFER_ID_FIELD_NUMBER: _ClassVar[int]
    buffer_id: int
    def __init__(self, buffer_id: _Optional[int] = ...) -> None: ...

class UnregisterBufferResponse(_message.Message):
    __slots__ = ["buffer_id"]
    BUFFER_ID_FIELD_NUMBER: _ClassVar[int]
    buffer_id: int
    def __init__(self, buffer_id: _Optional[int] = ...) -> None: ...

class UnsubscribeRequest(_message.Message):
    __slots__ = ["subscription_id"]
    SUBSCRIPTION_ID_FIELD_NUMBER: _ClassVar[int]
    subscription_id: int
    def __init__(self, subscription_id: _Optional[int] = ...) -> None: ...

class UnsubscribeResponse(_message.Message):
    __slots__ = ["subscription_id"]
    SUBSCRIPTION_ID_FIELD_NUMBER: _ClassVar[int]
    subscription_id: int
    def __init__(self, subscription_id: _Optional[int] = ...) -> None: ...

class WorkerMessage(_message.Message):
    __slots__ = ["buffer_registered", "call_id", "close_session", "error", "frame_dropped", "frame_result", "get_stats", "open_session", "ping", "register_buffer", "reset_session", "session_event", "subscribe", "unregister_buffer", "unsubscribe"]
    BUFFER_REGISTERED_FIELD_NUMBER: _ClassVar[int]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    CLOSE_SESSION_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    FRAME_DROPPED_FIELD_NUMBER: _ClassVar[int]
    FRAME_RESULT_FIELD_NUMBER: _ClassVar[int]
    GET_STATS_FIELD_NUMBER: _ClassVar[int]
    OPEN_SESSION_FIELD_NUMBER: _ClassVar[int]
    PING_FIELD_NUMBER: _ClassVar[int]
    REGISTER_BUFFER_FIELD_NUMBER: _ClassVar[int]
    RESET_SESSION_FIELD_NUMBER: _ClassVar[int]
    SESSION_EVENT_FIELD_NUMBER: _ClassVar[int]
    SUBSCRIBE_FIELD_NUMBER: _ClassVar[int]
    UNREGISTER_BUFFER_FIELD_NUMBER: _ClassVar[int]
    UNSUBSCRIBE_FIELD_NUMBER: _ClassVar[int]
    buffer_registered: BufferRegistered
    call_id: int
    close_session: CloseSessionResponse
    error: Status
    frame_dropped: FrameDropped
    frame_result: FrameResult
    get_stats: GetStatsResponse
    open_session: OpenSessionResponse
    ping: PingResponse
    register_buffer: RegisterBufferResponse
    reset_session: ResetSessionResponse
    session_event: SessionEvent
    subscribe: SubscribeResponse
    unregister_buffer: UnregisterBufferResponse
    unsubscribe: UnsubscribeResponse
    def __init__(self, call_id: _Optional[int] = ..., open_session: _Optional[_Union[OpenSessionResponse, _Mapping]] = ..., frame_result: _Optional[_Union[FrameResult, _Mapping]] = ..., frame_dropped: _Optional[_Union[FrameDropped, _Mapping]] = ..., close_session: _Optional[_Union[CloseSessionResponse, _Mapping]] = ..., reset_session: _Optional[_Union[ResetSessionResponse, _Mapping]] = ..., ping: _Optional[_Union[PingResponse, _Mapping]] = ..., get_stats: _Optional[_Union[GetStatsResponse, _Mapping]] = ..., error: _Optional[_Union[Status, _Mapping]] = ..., subscribe: _Optional[_Union[SubscribeResponse, _Mapping]] = ..., session_event: _Optional[_Union[SessionEvent, _Mapping]] = ..., unsubscribe: _Optional[_Union[UnsubscribeResponse, _Mapping]] = ..., register_buffer: _Optional[_Union[RegisterBufferResponse, _Mapping]] = ..., buffer_registered: _Optional[_Union[BufferRegistered, _Mapping]] = ..., unregister_buffer: _Optional[_Union[UnregisterBufferResponse, _Mapping]] = ...) -> None: ...

class MeshModel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class RunningMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class PerformanceMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class LandmarkMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ContourMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ClassificationMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class PixelFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Orientation(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class KeypointType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class LandmarkType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ContourType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Stage(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
