"""Whether two doors gave the same answers: every field of a FrameResult but the worker's timings
and the session's id, floats within float noise, and errors with the same code and words."""

from __future__ import annotations

import math
from typing import List, Sequence

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from doors import Outcome

# Fields that differ between two runs of the same frame by design.
_NOT_COMPARED = {"timings", "session_id"}
# The models run the same arithmetic whichever door a frame came through, but a frame's model
# runs may be split over the inference threads differently from one run to the next.
_RELATIVE = 1e-4
_ABSOLUTE = 1e-4


def differences(a: Message, b: Message, path: str = "") -> List[str]:
    """Where two messages of one type differ, as field paths with both values."""
    found: List[str] = []
    for field in a.DESCRIPTOR.fields:
        if field.name in _NOT_COMPARED:
            continue
        where = f"{path}.{field.name}" if path else field.name
        if field.has_presence and a.HasField(field.name) != b.HasField(field.name):
            found.append(f"{where}: set {a.HasField(field.name)} against {b.HasField(field.name)}")
            continue
        left, right = getattr(a, field.name), getattr(b, field.name)
        if field.is_repeated:
            if len(left) != len(right):
                found.append(f"{where}: {len(left)} items against {len(right)}")
                continue
            for index, (x, y) in enumerate(zip(left, right)):
                found.extend(_value_differences(field, x, y, f"{where}[{index}]"))
        else:
            found.extend(_value_differences(field, left, right, where))
    return found


def _value_differences(field: FieldDescriptor, x, y, where: str) -> List[str]:
    if field.type == FieldDescriptor.TYPE_MESSAGE:
        return differences(x, y, where)
    if field.type in (FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE):
        close = math.isclose(x, y, rel_tol=_RELATIVE, abs_tol=_ABSOLUTE) or (math.isnan(x) and math.isnan(y))
        return [] if close else [f"{where}: {x} against {y}"]
    return [] if x == y else [f"{where}: {x!r} against {y!r}"]


def assert_same_outcomes(through_grpc: Sequence[Outcome], through_lean: Sequence[Outcome]) -> None:
    """The same answers, frame by frame, in the same order."""
    assert len(through_grpc) == len(through_lean), f"{len(through_grpc)} answers against {len(through_lean)}"
    for index, (ours, theirs) in enumerate(zip(through_grpc, through_lean)):
        label = f"frame {index} (timestamp {theirs.timestamp_ms})"
        assert (ours.kind, ours.timestamp_ms) == (theirs.kind, theirs.timestamp_ms), \
            f"{label}: gRPC {ours}, lean socket {theirs}"
        if ours.kind == "result":
            found = differences(ours.result, theirs.result)
            assert not found, f"{label}: gRPC against the lean socket:\n" + "\n".join(found[:20])
        elif ours.kind == "dropped":
            assert ours.reason == theirs.reason, label
        else:
            assert (ours.code, ours.message) == (theirs.code, theirs.message), \
                f"{label}: gRPC {ours.code} {ours.message!r}, lean socket {theirs.code} {theirs.message!r}"
