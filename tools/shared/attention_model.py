"""MediaPipe's attention face mesh: find the file, check it, and cut its builtin-only segments.

    .venv-tools/bin/python -m tools.shared.attention_model [--model FILE | --models DIR] [--out DIR]

face_landmark_with_attention.tflite (the 478-point refined mesh of mediapipe 0.10.14) holds three
custom operators that only MediaPipe's own runtime implements, so LiteRT cannot run it whole.
Everything else in it is two builtin-only parts, cut here by data dependency (the operators of
the file interleave both parts, so an index range would not do):

* segment A: input_1 [1,192,192,3] (RGB, pixel / 255) -> p_re_lu_3 [1,48,48,32] (the feature
  map the crops sample), multiply_by_constant [1,468,3] (the mesh x 0.25, what the three
  Landmarks2TransformMatrix read), output_mesh_identity [1,1,1,1404], conv_faceflag [1,1,1,1];
* segment B: the three TransformTensorBilinear crops [1,16,16,32] (lips, left eye, right eye)
  -> the five head convolutions conv_lips [1,1,1,160], conv_left_eye and conv_right_eye
  [1,1,1,142], conv_left_iris and conv_right_iris [1,1,1,10], in the model's output order.

Between them the host runs the custom operators. Segment B leaves out the model's three MULs
that scale each crop matrix before TransformLandmarks (the translation column x 4): they are
the only builtin operators reading a custom operator's output besides the crops, and leaving
them to the host keeps B's inputs to the three crops.

Without --model the file is models/face_landmark_with_attention.tflite (or --models DIR), and
when that is absent the copy inside the installed mediapipe package. The file must match
MODEL_SHA256. The command cuts both segments, runs each once in LiteRT on seeded inputs, prints
what they hold, and with --out writes them as attention_segment_a.tflite and
attention_segment_b.tflite.
"""

import argparse
import copy
import hashlib
import sys
from collections import Counter
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema

from tools.shared.model_inputs import splitmix64_unit

MODEL_FILE = "face_landmark_with_attention.tflite"
MODEL_SHA256 = "e06a804e0144f9929eda782122916b35d60c697c3c9344013ca2bbe76a6ce2b4"
PACKAGE_MEMBER = ("modules", "face_landmark", MODEL_FILE)

SEGMENT_A_INPUTS = ("input_1",)
SEGMENT_A_OUTPUTS = ("p_re_lu_3", "multiply_by_constant", "output_mesh_identity", "conv_faceflag")
SEGMENT_B_INPUTS = ("transform_tensor_bilinear_v2", "transform_tensor_bilinear_v2_1",
                    "transform_tensor_bilinear_v2_2")
SEGMENT_B_OUTPUTS = ("conv_lips", "conv_left_eye", "conv_right_eye", "conv_left_iris", "conv_right_iris")

_BUILTIN_NAMES = {code: name for name, code in vars(schema.BuiltinOperator).items() if not name.startswith("_")}


@dataclass(frozen=True)
class TensorSpec:
    """A segment's input or output: its name and shape, and its tensor index in the whole model."""
    name: str
    shape: tuple
    model_index: int


@dataclass(frozen=True)
class Segment:
    """A builtin-only .tflite cut from the model, in the order LiteRT reports its inputs and outputs."""
    name: str
    content: bytes
    inputs: tuple
    outputs: tuple
    operators: Counter


def package_copy():
    """The model inside the installed mediapipe package, or None."""
    spec = find_spec("mediapipe")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations)), *PACKAGE_MEMBER)
    return path if path.is_file() else None


def locate(model=None, models_dir=Path("models")):
    """The explicit file, else the models folder's copy, else the installed mediapipe package's."""
    if model is not None:
        return Path(model)
    candidate = Path(models_dir) / MODEL_FILE
    if candidate.is_file():
        return candidate
    fallback = package_copy()
    if fallback is None:
        sys.exit(f"error: {candidate} is missing and no installed mediapipe package holds {MODEL_FILE}; "
                 "`make models` fetches it")
    return fallback


def read_verified(path):
    """The file's bytes, after checking they are the pinned model."""
    path = Path(path)
    if not path.is_file():
        sys.exit(f"error: model {path} is missing; `make models` fetches it")
    content = path.read_bytes()
    digest = hashlib.sha256(content).hexdigest()
    if digest != MODEL_SHA256:
        sys.exit(f"error: {path} has sha256 {digest}, expected {MODEL_SHA256} "
                 f"(mediapipe 0.10.14's {MODEL_FILE})")
    return content


def unpack(content):
    return schema.ModelT.InitFromPackedBuf(bytearray(content), 0)


def pack(model):
    builder = flatbuffers.Builder(1 << 20)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def operator_name(code):
    """Builtin name or custom code. This file keeps builtin_code at 0 (ADD) and the real code in
    deprecated_builtin_code, so the larger of the two is the operator."""
    if code.customCode:
        return code.customCode.decode()
    return _BUILTIN_NAMES[max(code.builtinCode, code.deprecatedBuiltinCode)]


def tensor_index(graph, name):
    found = [i for i, tensor in enumerate(graph.tensors) if tensor.name.decode() == name]
    if len(found) != 1:
        raise ValueError(f"the model has {len(found)} tensors named {name!r}, expected exactly one")
    return found[0]


def cut(model, name, input_names, output_names):
    """The operators the outputs depend on, back to the inputs and constants, as a new model.

    Raises ValueError when an output needs a tensor that is neither produced inside the cut, nor
    an input, nor a constant, or when the cut would hold a custom operator.
    """
    graph = model.subgraphs[0]
    inputs = [tensor_index(graph, n) for n in input_names]
    outputs = [tensor_index(graph, n) for n in output_names]
    producer = {t: k for k, op in enumerate(graph.operators) for t in op.outputs}

    def constant(t):
        return graph.tensors[t].buffer != 0 and model.buffers[graph.tensors[t].buffer].data is not None

    kept, pending = set(), list(outputs)
    while pending:
        t = pending.pop()
        if t in inputs or constant(t):
            continue
        if t not in producer:
            raise ValueError(f"{name}: tensor {graph.tensors[t].name.decode()} (#{t}) is needed but is "
                             "not an input, not a constant and not produced by any operator")
        k = producer[t]
        if k not in kept:
            kept.add(k)
            pending.extend(i for i in graph.operators[k].inputs if i >= 0)

    operators = [graph.operators[k] for k in sorted(kept)]
    codes = [model.operatorCodes[op.opcodeIndex] for op in operators]
    custom = sorted({code.customCode.decode() for code in codes if code.customCode})
    if custom:
        raise ValueError(f"{name}: the cut holds custom operators {custom}")
    names = Counter(operator_name(code) for code in codes)
    return Segment(name=name, content=pack(_submodel(model, operators, inputs, outputs)),
                   inputs=tuple(_spec(graph, t) for t in inputs), outputs=tuple(_spec(graph, t) for t in outputs),
                   operators=names)


def _spec(graph, t):
    return TensorSpec(graph.tensors[t].name.decode(), tuple(int(n) for n in graph.tensors[t].shape), t)


def _submodel(model, operators, inputs, outputs):
    """A one-subgraph model of `operators`, renumbering the tensors, buffers and opcodes they use."""
    graph = model.subgraphs[0]
    used = sorted({t for op in operators for t in (*op.inputs, *op.outputs) if t >= 0} | set(inputs) | set(outputs))
    tensor_map = {t: i for i, t in enumerate(used)}
    buffers, buffer_map = [schema.BufferT()], {0: 0}
    codes, code_map = [], {}
    tensors = []
    for t in used:
        tensor = copy.copy(graph.tensors[t])
        if tensor.buffer not in buffer_map:
            buffer_map[tensor.buffer] = len(buffers)
            buffers.append(model.buffers[tensor.buffer])
        tensor.buffer = buffer_map[tensor.buffer]
        tensors.append(tensor)
    new_operators = []
    for op in operators:
        if op.opcodeIndex not in code_map:
            code_map[op.opcodeIndex] = len(codes)
            codes.append(model.operatorCodes[op.opcodeIndex])
        op = copy.copy(op)
        op.opcodeIndex = code_map[op.opcodeIndex]
        op.inputs = [tensor_map[t] if t >= 0 else t for t in op.inputs]
        op.outputs = [tensor_map[t] for t in op.outputs]
        new_operators.append(op)

    sub = schema.SubGraphT()
    sub.tensors, sub.operators = tensors, new_operators
    sub.inputs = [tensor_map[t] for t in inputs]
    sub.outputs = [tensor_map[t] for t in outputs]
    sub.name = graph.name
    result = schema.ModelT()
    result.version = model.version
    result.description = model.description
    result.operatorCodes, result.subgraphs, result.buffers = codes, [sub], buffers
    return result


def segments(content):
    """Segments A and B of the attention mesh (see the module's doc) from the model file's bytes."""
    model = unpack(content)
    return (cut(model, "A", SEGMENT_A_INPUTS, SEGMENT_A_OUTPUTS),
            cut(model, "B", SEGMENT_B_INPUTS, SEGMENT_B_OUTPUTS))


def run_in_litert(segment, arrays):
    """The segment's outputs from LiteRT's interpreter (default CPU path, XNNPACK) on `arrays`."""
    from ai_edge_litert.interpreter import Interpreter

    interpreter = Interpreter(model_content=segment.content)
    interpreter.allocate_tensors()
    details = interpreter.get_input_details()
    names = [d["name"] for d in details]
    if names != [spec.name for spec in segment.inputs]:
        raise ValueError(f"segment {segment.name}: LiteRT lists inputs {names}, expected {segment.inputs}")
    for detail, array in zip(details, arrays):
        interpreter.set_tensor(detail["index"], np.ascontiguousarray(array, dtype=np.float32))
    interpreter.invoke()
    details = interpreter.get_output_details()
    names = [d["name"] for d in details]
    if names != [spec.name for spec in segment.outputs]:
        raise ValueError(f"segment {segment.name}: LiteRT lists outputs {names}, expected {segment.outputs}")
    return [interpreter.get_tensor(d["index"]).copy() for d in details]


def seeded_inputs(segment, seed=1):
    """One SplitMix64 tensor in [0, 1) per input, seeds seed, seed + 1, ... (see model_inputs)."""
    return [splitmix64_unit(seed + k, int(np.prod(spec.shape))).astype(np.float32).reshape(spec.shape)
            for k, spec in enumerate(segment.inputs)]


def check(segment):
    """Run the segment once in LiteRT and refuse outputs of the wrong shape or not finite."""
    outputs = run_in_litert(segment, seeded_inputs(segment))
    for spec, tensor in zip(segment.outputs, outputs, strict=True):
        if tuple(tensor.shape) != spec.shape or not np.isfinite(tensor).all():
            raise ValueError(f"segment {segment.name}: LiteRT gave {spec.name} shape {tensor.shape}, "
                             f"finite {bool(np.isfinite(tensor).all())}; expected {spec.shape}")


def describe(segment):
    ops = ", ".join(f"{name} {count}" for name, count in segment.operators.most_common())

    def tensors(specs):
        return "; ".join(f"{s.name} #{s.model_index} {list(s.shape)}" for s in specs)

    return (f"segment {segment.name}: {sum(segment.operators.values())} operators ({ops}), "
            f"{len(segment.content)} bytes\n  in:  {tensors(segment.inputs)}\n  out: {tensors(segment.outputs)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="the .tflite file (default: see --models)")
    parser.add_argument("--models", type=Path, default=Path("models"), help="folder holding " + MODEL_FILE)
    parser.add_argument("--out", type=Path, help="folder to write the two segment .tflite files to")
    args = parser.parse_args()
    path = locate(args.model, args.models)
    content = read_verified(path)
    print(f"{path}: sha256 ok")
    for segment in segments(content):
        check(segment)
        print(describe(segment) + "\n  runs in LiteRT")
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"attention_segment_{segment.name.lower()}.tflite").write_bytes(segment.content)


if __name__ == "__main__":
    main()
