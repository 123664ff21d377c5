"""The Python client against the conformance file, proto/faceworker/v1/defaults.json.

Every session option's default and range, the socket rule, the answer cap and
the raw-image layouts are defined there once; these tests hold the client to it: what each task
sends by default (an option left unset must come back from the worker as the
file's default), every range end to end through the client's own options and
error type, the socket rule with FACEWORKER_SOCKET, the cap, and the bytes a
raw image of each pixel format holds.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Dict, Tuple

import numpy as np
import pytest

import faceworker as mp
from faceworker import BaseOptions, StatusCode, vision
from faceworker import image as client_image
from faceworker._connection import Connection
from faceworker._proto import faceworker_pb2 as pb

from conftest import fixture_path

DEFAULTS_JSON = Path(__file__).resolve().parents[3] / "proto" / "faceworker" / "v1" / "defaults.json"
CONFORMANCE = json.loads(DEFAULTS_JSON.read_text())
OPTIONS: Dict[str, Dict[str, Any]] = CONFORMANCE["session_options"]
SOCKET = CONFORMANCE["socket"]

# Options each task leaves unset by default, so that the worker's default
# applies (for an option where 0 stands for the default, 0 is unset).
UNSET_BY_DEFAULT = {
    vision.FaceDetectorOptions: {
        "mesh_model",
        "min_face_size",
        "min_detection_confidence",
        "min_suppression_threshold",
        "min_face_presence_confidence",
        "min_tracking_confidence",
        "detector_interval_frames",
        "max_missed_frames",
    },
    vision.FaceLandmarkerOptions: {
        "min_face_size",
        "min_suppression_threshold",
        "detector_interval_frames",
        "max_missed_frames",
    },
}

# Where a task's default deliberately differs from the worker's, and why.
DEPARTURES = {
    # MediaPipe's face detector reports every face it finds.
    vision.FaceDetectorOptions: {"num_faces": OPTIONS["num_faces"]["max"]},
    # The landmarker's output is the face mesh, from MediaPipe Tasks' Face Landmarker.
    vision.FaceLandmarkerOptions: {"output_face_mesh": True, "mesh_model": "MESH_MODEL_FACE_LANDMARKER"},
}

# For each numeric option of the file, a task and its name for it.
RANGED = {
    "min_face_size": (vision.FaceDetectorOptions, "min_face_size"),
    "min_detection_confidence": (vision.FaceDetectorOptions, "min_detection_confidence"),
    "min_suppression_threshold": (vision.FaceDetectorOptions, "min_suppression_threshold"),
    "num_faces": (vision.FaceDetectorOptions, "num_faces"),
    "min_face_presence_confidence": (vision.FaceLandmarkerOptions, "min_face_presence_confidence"),
    "min_tracking_confidence": (vision.FaceLandmarkerOptions, "min_tracking_confidence"),
    "detector_interval_frames": (vision.FaceDetectorOptions, "detector_interval_frames"),
    "max_missed_frames": (vision.FaceDetectorOptions, "max_missed_frames"),
}

TASKS = {vision.FaceDetectorOptions: vision.FaceDetector, vision.FaceLandmarkerOptions: vision.FaceLandmarker}


def wire_value(options: pb.SessionOptions, name: str) -> Any:
    """The option as the file writes it: an enum by its name; None when unset."""
    field = options.DESCRIPTOR.fields_by_name[name]
    if field.has_presence and not options.HasField(name):
        return None
    value = getattr(options, name)
    if OPTIONS[name].get("zero_means_default") and value == 0:
        return None
    if field.enum_type is not None and field.enum_type.values_by_number[value].name.endswith("_UNSPECIFIED"):
        return None
    if field.enum_type is not None:
        return field.enum_type.values_by_number[value].name
    return value


def same(value: Any, expected: Any) -> bool:
    # Floats travel as float32.
    if isinstance(expected, float):
        return value == pytest.approx(expected, rel=1e-6)
    return value == expected


def echoed_options(socket_path: str, options: pb.SessionOptions) -> pb.SessionOptions:
    """The options the worker applies to a session opened with ``options`` (OpenSessionResponse.options)."""
    connection = Connection(socket_path)
    try:
        answer = connection.call(pb.ClientMessage(open_session=pb.OpenSessionRequest(options=options)))
        return answer.open_session.options
    finally:
        connection.close()


def test_every_session_option_on_the_wire_is_in_the_file():
    assert set(pb.SessionOptions.DESCRIPTOR.fields_by_name) == set(OPTIONS)


def test_the_answer_cap_is_the_files():
    assert mp.MAX_ANSWER_BYTES == CONFORMANCE["client"]["max_answer_bytes"]


@pytest.mark.parametrize("options_type", list(UNSET_BY_DEFAULT), ids=lambda t: t.__name__)
def test_a_tasks_defaults_are_the_files_unset_or_sent(options_type):
    sent = options_type()._to_proto()

    for name, spec in OPTIONS.items():
        value = wire_value(sent, name)
        if name in UNSET_BY_DEFAULT[options_type]:
            assert value is None, f"{name} is sent as {value}, not left to the worker"
        elif name in DEPARTURES[options_type]:
            assert value == DEPARTURES[options_type][name], name
        else:
            assert same(value, spec["default"]), f"{name} is sent as {value}, the file's default is {spec['default']}"


@pytest.mark.parametrize("options_type", list(UNSET_BY_DEFAULT), ids=lambda t: t.__name__)
def test_the_worker_applies_the_files_default_to_every_option_left_unset(worker, options_type):
    applied = echoed_options(worker.socket_path, options_type()._to_proto())

    for name, spec in OPTIONS.items():
        expected = DEPARTURES[options_type].get(name, spec["default"])
        assert same(wire_value(applied, name), expected), f"the worker applies {name} = {wire_value(applied, name)}"


def test_an_option_where_zero_means_the_default_gets_the_default(worker):
    for name, spec in OPTIONS.items():
        if spec.get("zero_means_default"):
            applied = echoed_options(worker.socket_path, pb.SessionOptions(**{name: 0}))
            assert getattr(applied, name) == spec["default"], name


def just_outside(spec: Dict[str, Any], bound: str) -> Any:
    """The nearest value past one end of the range: the next float32, or the next integer."""
    towards = 1 if bound == "max" else -1
    if spec["type"] == "float":
        return float(np.nextafter(np.float32(spec[bound]), np.float32(towards * np.inf)))
    return spec[bound] + towards


def open_task(options_type: type, attribute: str, value: Any, base_options: BaseOptions) -> None:
    with TASKS[options_type].create_from_options(options_type(base_options=base_options, **{attribute: value})):
        pass


# A number standing as a word of its own, however it is written ("1", "1.0", "1e-45").
NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def ranged_cases() -> list:
    cases = []
    for name, spec in OPTIONS.items():
        if "min" not in spec:
            continue
        cases += [pytest.param(name, spec[end], True, id=f"{name}-{end}") for end in ("min", "max")]
        cases.append(pytest.param(name, just_outside(spec, "max"), False, id=f"{name}-above"))
        below = just_outside(spec, "min")
        # An unsigned option has nothing below 0, and where 0 stands for the default it is no value below.
        if spec["type"] != "uint32" or (below > 0 or (below == 0 and not spec.get("zero_means_default"))):
            cases.append(pytest.param(name, below, False, id=f"{name}-below"))
    return cases


def test_every_ranged_option_of_the_file_can_be_set_through_a_task():
    assert {name for name, spec in OPTIONS.items() if "min" in spec} == set(RANGED)


@pytest.mark.parametrize(("name", "value", "accepted"), ranged_cases())
def test_the_worker_takes_each_range_exactly_through_the_client(base_options, name, value, accepted):
    options_type, attribute = RANGED[name]
    spec = OPTIONS[name]
    if accepted:
        open_task(options_type, attribute, value, base_options)
        return

    with pytest.raises(mp.FaceWorkerError) as raised:
        open_task(options_type, attribute, value, base_options)

    error = raised.value
    assert error.code == StatusCode.INVALID_ARGUMENT
    assert name in error.message
    numbers = [float(word) for word in NUMBER.findall(error.message)]
    assert any(same(number, float(spec["min"])) for number in numbers), error.message
    assert any(same(number, float(spec["max"])) for number in numbers), error.message


# The socket rule.


def expected_fallback() -> str:
    return SOCKET["fallback"].replace("{uid}", str(os.geteuid()))


RULE_CASES: Tuple[Tuple[Any, Any, Any], ...] = (
    # (FACEWORKER_SOCKET, XDG_RUNTIME_DIR, expected path; None: the fallback)
    ("/srv/face/worker.sock", "/run/user/4321", "/srv/face/worker.sock"),
    ("relative.sock", None, "relative.sock"),
    ("", "/run/user/4321", "/run/user/4321/" + SOCKET["runtime_directory_file"]),
    (None, "/run/user/4321", "/run/user/4321/" + SOCKET["runtime_directory_file"]),
    (None, "run/user/4321", None),
    (None, "", None),
    (None, None, None),
)


@pytest.mark.parametrize(("variable", "runtime_dir", "expected"), RULE_CASES)
def test_the_default_socket_follows_the_files_rule(monkeypatch, variable, runtime_dir, expected):
    for name, value in ((SOCKET["environment_variable"], variable), (SOCKET["runtime_directory_variable"], runtime_dir)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)

    assert mp.default_socket_path() == (expected if expected is not None else expected_fallback())
    assert BaseOptions().resolved_socket_path() == mp.default_socket_path()
    assert BaseOptions(socket_path="/explicit.sock").resolved_socket_path() == "/explicit.sock"


def test_the_variable_picks_the_worker_of_a_program_that_names_no_socket(worker, monkeypatch):
    monkeypatch.setenv(SOCKET["environment_variable"], worker.socket_path)
    monkeypatch.setenv(SOCKET["runtime_directory_variable"], "/nonexistent")

    with vision.FaceDetector.create_from_model_path("blaze_face_short_range.tflite") as detector:
        result = detector.detect(mp.Image.create_from_file(fixture_path("astronaut.jpg")))

    assert len(result.detections) == 1
    assert mp.ping() > 0


def test_an_explicit_socket_comes_before_the_variable(worker, monkeypatch, tmp_path):
    monkeypatch.setenv(SOCKET["environment_variable"], str(tmp_path / "nobody.sock"))

    assert mp.ping(worker.socket_path) > 0
    with pytest.raises(mp.WorkerNotRunningError) as raised:
        mp.ping()
    assert str(tmp_path / "nobody.sock") in str(raised.value)


def test_the_runtime_directory_finds_the_worker(worker, monkeypatch):
    directory, file_name = os.path.split(worker.socket_path)
    assert file_name == SOCKET["runtime_directory_file"]
    monkeypatch.delenv(SOCKET["environment_variable"], raising=False)
    monkeypatch.setenv(SOCKET["runtime_directory_variable"], directory)

    assert mp.ping() > 0


RAW_LAYOUT = CONFORMANCE["raw_image_layout"]
IMAGE_FORMATS = {mp.ImageFormat[name]: wire for name, wire in (
    ("SRGB", "PIXEL_FORMAT_RGB"), ("SRGBA", "PIXEL_FORMAT_RGBA"), ("SBGR", "PIXEL_FORMAT_BGR"),
    ("SBGRA", "PIXEL_FORMAT_BGRA"), ("GRAY8", "PIXEL_FORMAT_GRAY8"), ("NV12", "PIXEL_FORMAT_NV12"),
    ("NV21", "PIXEL_FORMAT_NV21"), ("I420", "PIXEL_FORMAT_I420"))}


def raw_byte_count(wire_format: str, width: int, height: int, row_stride: int) -> int:
    """The bytes of a raw image by the file's rule; ``row_stride`` 0 is the least one."""
    layout = RAW_LAYOUT["formats"][wire_format]
    multiple = layout["min_row_stride"]
    least = width * multiple["width_times"] if "width_times" in multiple else (width + 1) // 2 * multiple["cw_times"]
    stride = row_stride or least
    rows = {"height": height, "ch": (height + 1) // 2}
    strides = {"row_stride": stride, "half_row_stride": (stride + 1) // 2}
    return sum(rows[plane["rows"]] * strides[plane["stride"]] for plane in layout["planes"])


def test_the_file_names_every_pixel_format_of_the_wire_and_the_client_sends_each():
    on_the_wire = {name for name in pb.PixelFormat.keys() if name != "PIXEL_FORMAT_UNSPECIFIED"}
    assert set(RAW_LAYOUT["formats"]) == on_the_wire
    assert set(IMAGE_FORMATS.values()) == on_the_wire
    for image_format, wire in IMAGE_FORMATS.items():
        assert client_image._PIXEL_FORMATS[image_format] == pb.PixelFormat.Value(wire)


def test_the_clients_packed_rows_are_the_files_least_row_stride():
    channels = client_image._CHANNELS
    packed = {image_format: wire for image_format, wire in IMAGE_FORMATS.items() if image_format in channels}
    assert packed, "no packed format"
    for image_format, wire in packed.items():
        assert channels[image_format] == RAW_LAYOUT["formats"][wire]["min_row_stride"]["width_times"], wire


def test_the_files_examples_follow_its_rules():
    assert RAW_LAYOUT["examples"]
    for example in RAW_LAYOUT["examples"]:
        assert raw_byte_count(example["format"], example["width"], example["height"], example["row_stride"]) == \
            example["byte_count"], example


@pytest.mark.parametrize("example", RAW_LAYOUT["examples"], ids=lambda e: f"{e['format']}-{e['width']}x{e['height']}-{e['row_stride']}")
def test_the_worker_takes_exactly_the_files_bytes_through_the_client(base_options, example):
    image_format = next(image_format for image_format, wire in IMAGE_FORMATS.items() if wire == example["format"])
    options = vision.FaceDetectorOptions(base_options=base_options)
    with vision.FaceDetector.create_from_options(options) as detector:
        def detect(byte_count: int) -> None:
            detector.detect(mp.Image(image_format, bytes(byte_count), width=example["width"], height=example["height"],
                                     row_stride=example["row_stride"]))

        detect(example["byte_count"])
        for wrong in (example["byte_count"] - 1, example["byte_count"] + 1):
            with pytest.raises(mp.FaceWorkerError) as refused:
                detect(wrong)
            assert refused.value.code == StatusCode.INVALID_ARGUMENT, wrong
