"""Write the attention mesh golden files: MediaPipe 0.10.14's own runtime on the refined face mesh.

    .venv-tools/bin/python -m tools.goldens.make_attention_goldens --models models

The model is face_landmark_with_attention.tflite (attention_model.py finds and checks it). Three
sets, each described by the manifest or header beside it:

* Tests/InferenceTests/Goldens/attention/ops/: each of the model's three custom operators on its
  own. A case is a one-operator .tflite (custom code, version 2, custom_options copied byte for
  byte from the model's own instance of that operator, every input a constant) run by MediaPipe's
  InferenceCalculator with MediaPipe's custom operator resolver:
    - TransformTensorBilinear on one seeded [1,48,48,32] feature map, with matrices that sample
      in bounds, on the far edge, partly and mostly out of bounds, with ignored entries set, and
      the model's own three crop matrices for the astronaut crop; output [1,16,16,32];
    - TransformLandmarks on seeded [1,N,2] points (N = 80, 71, 5) with matrices whose ignored
      entries (m2, m6, rows 2 and 3) are set;
    - Landmarks2TransformMatrix with each of the model's three option sets, on the model's own
      mesh for the astronaut crop x 0.25 (what the model feeds it), a copy rotated by 30 degrees
      and a mirrored copy.
  Every operator instance of the model is listed with its custom_options (hex, and decoded from
  FlexBuffers where it has any).
* Tests/InferenceTests/Goldens/attention/model/: the model's 7 raw output tensors, in
  subgraph.outputs order, on 192x192 RGB crops: the astronaut face crop of
  make_inference_goldens.py (astronaut_face_192.rgb, one folder up, not copied) and square
  crops of the pipeline fixtures (Pillow-decoded, BILINEAR-resized), one without a face. The
  whole crop is the ROI, so the model's input is float32(pixel) / 255.
* Tests/FaceDetectionTests/Goldens/attention_mesh.json: FaceMesh(refine_landmarks=True)'s 478
  points on every fixture image (static_image_mode=True, max_num_faces=4) and on each fixture
  video frame by frame (static_image_mode=False, max_num_faces = the most faces the video shows),
  min_detection_confidence and min_tracking_confidence 0.5, with each face's ROI (the
  NormalizedRect its crop was cut from) and presence score, observed inside the same graph.

Raw tensors are little-endian float32, row-major (C order), no header. Reruns give the same bytes;
generated files of these kinds that a run no longer produces are removed. The run stops with an
error when a result contradicts what it is meant to show (a face count, an out-of-bounds count,
the landmark stage on its own disagreeing with FaceMesh).
"""

import argparse
import hashlib
import json
import math
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from flatbuffers import flexbuffers
from PIL import Image

from tools.goldens import json_layout, mediapipe_graphs
from tools.goldens.make_inference_goldens import FACE_BOX, astronaut_pixels
from tools.goldens.make_pipeline_goldens import decode, stills
from tools.shared import attention_model
from tools.shared.mediapipe_solutions import PINNED_VERSION, load_solutions
from tools.shared.model_inputs import splitmix64_unit

GENERATOR = "tools/goldens/make_attention_goldens.py"
RAW = "raw little-endian float32, row-major (C order), no header"
CROP_SIZE = 192
FEATURE_SHAPE = (1, 48, 48, 32)
CROP_SHAPE = (1, 16, 16, 32)
FEATURE_SEED = 7
POINTS_SEED = 11
MESH_SCALE = 0.25
# Faces MediaPipe itself does not report, kept as its answer rather than hidden by a changed fixture.
KNOWN_MISSES = {
    "camera.jpg": "refine_landmarks=True swaps in the attention mesh model, which scores the cameraman's "
                  "half-profile face below the presence threshold; the plain mesh finds it",
}
# The crops of the pipeline fixtures: a square of 1.5x the placed face's size (MediaPipe's ROI
# scale) around its centre, as make_inference_goldens.py crops the astronaut.
FIXTURE_CROPS = (
    ("astronaut_rot_p30", "astronaut_rot_p30.jpg", 0),
    ("astronaut_rot_m15", "astronaut_rot_m15.jpg", 0),
    ("astronaut_flipped", "astronaut_flipped.jpg", 0),
    ("two_faces_left", "two_faces.jpg", 0),
    ("camera", "camera.jpg", 0),
)
NO_FACE_CROP = ("coffee_no_face", "coffee.jpg", (150, 50, 450, 350))
# LiteRT's and MediaPipe's XNNPACK runs of the same input differ by about 1e-4 px at most.
INPUT_CHECK_PX = 1e-3
ROI_DECIMALS = 9
POINT_DECIMALS = 6
GENERATED_SUFFIXES = (".f32", ".rgb")
# What the one-operator models are fed: MediaPipe's InferenceCalculator takes its input from an image.
DUMMY_IMAGE = np.zeros((8, 8, 3), dtype=np.uint8)


def write_f32(folder, name, array, written):
    (folder / name).write_bytes(np.ascontiguousarray(array, dtype="<f4").tobytes())
    written.add(name)
    return {"file": name, "shape": [int(n) for n in np.shape(array)]}


def clean(folder, written):
    for path in folder.iterdir():
        if path.suffix in GENERATED_SUFFIXES and path.name not in written:
            path.unlink()


def sha256(content):
    return hashlib.sha256(content).hexdigest()


def runtime():
    return (f"mediapipe {PINNED_VERSION}: InferenceCalculator (XNNPACK delegate) with "
            "TfLiteCustomOpResolverCalculator's operators")


def model_entry(content):
    return {"file": attention_model.MODEL_FILE, "sha256": sha256(content), "bytes": len(content)}


# ---------------------------------------------------------------------------------------------
# Whole model


def fixture_box(fixtures_manifest, file, placement):
    entry = next(e for e in fixtures_manifest["images"] if e["file"] == file)
    place = entry["placements"][placement]
    source = fixtures_manifest["sources"][place["source"]]
    side = 1.5 * source["face_box"] * place["scale"]
    cx, cy = place["centre"]
    return tuple(int(round(v)) for v in (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2))


def crop(pixels, box):
    image = Image.fromarray(pixels).crop(box)
    return np.asarray(image.resize((CROP_SIZE, CROP_SIZE), Image.BILINEAR), dtype=np.uint8)


def model_crops(fixtures, inference_goldens):
    """(name, stored file or None, pixels, source description) of every whole-model case."""
    manifest = json.loads((fixtures / "manifest.json").read_text())
    astronaut = astronaut_pixels(FACE_BOX, CROP_SIZE)
    shared = inference_goldens / "astronaut_face_192.rgb"
    if not shared.is_file() or shared.read_bytes() != astronaut.tobytes():
        sys.exit(f"error: {shared} is missing or stale; rerun tools/goldens/make_inference_goldens.py first")
    crops = [("astronaut", "../../astronaut_face_192.rgb", astronaut,
              {"image": "scikit-image astronaut.png (make_inference_goldens.py's FACE_BOX)", "box": list(FACE_BOX)})]
    for name, file, placement in FIXTURE_CROPS:
        box = fixture_box(manifest, file, placement)
        crops.append((name, None, crop(decode(fixtures / file), box),
                      {"image": file, "placement": placement, "box": list(box)}))
    name, file, box = NO_FACE_CROP
    crops.append((name, None, crop(decode(fixtures / file), box), {"image": file, "box": list(box)}))
    return crops


OUTPUT_CONTENT = (
    "468 x (x, y, z), 192-px crop units",
    "lips: 80 x (x, y), 192-px crop units",
    "left eye (the image-left eye, mesh points 33/133): 71 x (x, y), 192-px crop units",
    "right eye (mesh points 362/263): 71 x (x, y), 192-px crop units",
    "left iris: 5 x (x, y), centre then 4 edge points, 192-px crop units",
    "right iris: 5 x (x, y), 192-px crop units",
    "face presence logit (sigmoid > 0.5 means a face)",
)


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def generate_model_goldens(model_path, content, fixtures, inference_goldens, out):
    out.mkdir(parents=True, exist_ok=True)
    graph = attention_model.unpack(content).subgraphs[0]
    outputs = [(graph.tensors[t].name.decode(), tuple(int(n) for n in graph.tensors[t].shape)) for t in graph.outputs]
    crops = model_crops(fixtures, inference_goldens)
    results = mediapipe_graphs.run_model(model_path, [pixels for _, _, pixels, _ in crops], len(outputs))

    segment_a = attention_model.segments(content)[0]
    written, cases, meshes = set(), [], {}
    print("whole model (MediaPipe), face presence per crop; LiteRT segment A beside it:")
    for (name, stored, pixels, source), tensors in zip(crops, results):
        if stored is None:
            stored = f"{name}.rgb"
            (out / stored).write_bytes(pixels.tobytes())
            written.add(stored)
        described = []
        for k, ((tensor_name, shape), tensor) in enumerate(zip(outputs, tensors)):
            entry = write_f32(out, f"{name}.out{k}.f32", tensor.reshape(shape), written)
            described.append({"name": tensor_name, **entry})
        logit = float(tensors[-1][0])
        meshes[name] = tensors[0].reshape(468, 3)
        # LiteRT on float32(pixel) / 255 must give the same mesh, or MediaPipe fed the model
        # something else and the manifest's description of the input would be wrong.
        litert = attention_model.run_in_litert(segment_a, [(pixels.astype(np.float32) / 255.0)[None]])
        mesh_gap = float(np.abs(litert[2].ravel() - tensors[0]).max())
        if mesh_gap > INPUT_CHECK_PX:
            sys.exit(f"error: {name}: LiteRT's segment A on pixel / 255 differs from MediaPipe's mesh by "
                     f"{mesh_gap:.2e} px (allowed {INPUT_CHECK_PX})")
        print(f"  {name:20} logit {logit:9.4f}  presence {sigmoid(logit):.4f}  "
              f"LiteRT mesh max |diff| {mesh_gap:.2e} px, logit {float(litert[3].ravel()[0]):.4f}")
        cases.append({"name": name, "crop": stored, "source": source, "face_flag_logit": logit,
                      "face_presence": sigmoid(logit), "outputs": described})

    manifest = {
        "generator": GENERATOR,
        "runtime": runtime(),
        "model": model_entry(content),
        "files": RAW + "; crops are uint8 RGB, row-major 192x192x3, paths relative to this folder",
        "input": {"name": graph.tensors[graph.inputs[0]].name.decode(), "shape": [1, CROP_SIZE, CROP_SIZE, 3],
                  "value": "float32(pixel) / 255 of the crop, RGB: MediaPipe's ImageToTensorCalculator with "
                           "the whole 192x192 crop as ROI, float range [0, 1]"},
        "units": "192-px crop units: x right, y down, 0..192 across the crop (x / 192 and y / 192 are "
                 "MediaPipe's normalized crop coordinates); mesh z is on the x scale",
        "outputs": [{"index": k, "name": n, "shape": list(s), "content": c}
                    for k, ((n, s), c) in enumerate(zip(outputs, OUTPUT_CONTENT, strict=True))],
        "cases": cases,
    }
    (out / "manifest.json").write_text(json_layout.dumps(manifest, depth=3) + "\n")
    clean(out, written)
    return meshes


# ---------------------------------------------------------------------------------------------
# Custom operators, one at a time


def custom_operators(model):
    """Every custom operator instance of the model, in operator order."""
    graph = model.subgraphs[0]

    def specs(indices):
        return [{"name": graph.tensors[t].name.decode(), "shape": [int(n) for n in graph.tensors[t].shape],
                 "tensor": int(t)} for t in indices]

    found = []
    for k, op in enumerate(graph.operators):
        code = model.operatorCodes[op.opcodeIndex]
        if not code.customCode:
            continue
        options = bytes(bytearray(op.customOptions)) if op.customOptions is not None else b""
        found.append({"op_index": k, "custom_code": code.customCode.decode(), "version": int(code.version),
                      "inputs": specs(op.inputs), "outputs": specs(op.outputs),
                      "custom_options_bytes": len(options), "custom_options_hex": options.hex(),
                      "options": flexbuffers.Loads(options) if options else None})
    return found


def single_op_model(custom_code, options, constants, output_shape):
    """A .tflite whose one operator reads `constants` and writes the model's only output.

    MediaPipe's InferenceCalculator feeds a model from an image, so the model takes a small
    image input that nothing reads.
    """
    model = schema.ModelT()
    model.version = 3
    code = schema.OperatorCodeT()
    code.customCode, code.version = custom_code.encode(), 2
    code.builtinCode = code.deprecatedBuiltinCode = schema.BuiltinOperator.CUSTOM
    model.operatorCodes, model.buffers = [code], [schema.BufferT()]
    tensors = []

    def tensor(name, shape, data=None):
        t = schema.TensorT()
        t.name, t.shape, t.type, t.buffer = name.encode(), list(shape), schema.TensorType.FLOAT32, 0
        if data is not None:
            buffer = schema.BufferT()
            buffer.data = np.frombuffer(np.ascontiguousarray(data, dtype="<f4").tobytes(), dtype=np.uint8)
            t.buffer = len(model.buffers)
            model.buffers.append(buffer)
        tensors.append(t)
        return len(tensors) - 1

    image = tensor("unused_image", (1, *DUMMY_IMAGE.shape))
    op = schema.OperatorT()
    op.opcodeIndex = 0
    op.inputs = [tensor(f"input_{k}", array.shape, array) for k, array in enumerate(constants)]
    op.outputs = [tensor("output", output_shape)]
    op.customOptions = list(options) if options else None
    op.customOptionsFormat = schema.CustomOptionsFormat.FLEXBUFFERS
    graph = schema.SubGraphT()
    graph.tensors, graph.operators, graph.inputs, graph.outputs = tensors, [op], [image], op.outputs
    model.subgraphs = [graph]
    return attention_model.pack(model)


def run_single_op(custom_code, options, constants, output_shape):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{custom_code}.tflite"
        path.write_bytes(single_op_model(custom_code, options, constants, output_shape))
        (result,) = mediapipe_graphs.run_model(path, [DUMMY_IMAGE], 1)[0]
    return result.reshape(output_shape)


def crop_matrix(centre, angle, scale, size=16):
    """Landmarks2TransformMatrix's form: Translate(centre) Rot(angle) Scale(sx, sy) Translate(-size / 2)."""
    c, s = math.cos(angle), math.sin(angle)
    sx, sy = scale
    half = size / 2
    matrix = np.eye(4)
    matrix[0, :] = (sx * c, -sy * s, 0.0, centre[0] - half * sx * c + half * sy * s)
    matrix[1, :] = (sx * s, sy * c, 0.0, centre[1] - half * sx * s - half * sy * c)
    return matrix


def translation(tx, ty):
    matrix = np.eye(4)
    matrix[0, 3], matrix[1, 3] = tx, ty
    return matrix


def with_ignored_entries(matrix):
    """The same matrix with m2, m6 and rows 2 and 3 filled: both operators must ignore them."""
    matrix = matrix.copy()
    matrix[0, 2], matrix[1, 2] = 3.25, -2.5
    matrix[2, :] = (0.5, -1.5, 2.0, 7.0)
    matrix[3, :] = (-3.0, 0.25, 9.0, -4.0)
    return matrix


def as_op_matrix(matrix):
    return np.asarray(matrix, dtype=np.float32).reshape(1, 4, 4)


TTB_CASES = (
    ("identity", translation(0.0, 0.0),
     "rows 0-1 = [1,0,0,0],[0,1,0,0]: output pixel (u, v) is input pixel (u, v)"),
    ("translated", translation(20.25, 7.75), "fractional translation, every sample in bounds"),
    ("far_edge", translation(32.0, 32.0),
     "samples at x, y = 32..47: the last row and column sit exactly on W-1 = H-1 = 47 and stay in bounds"),
    ("barely_out", translation(32.5, -0.25),
     "x = 32.5..47.5, y = -0.25..14.75: column u = 15 (x = 47.5) and row v = 0 (y = -0.25) are out of bounds"),
    ("translated_oob", translation(-4.5, 38.25), "x < 0 for u <= 4, y > 47 for v >= 9"),
    ("rotated_scaled", crop_matrix((24.0, 26.0), math.radians(25.0), (1.3, 0.6)),
     "rotated by 25 degrees, anisotropic scale (1.3, 0.6), in bounds"),
    ("rotated_scaled_ignored", with_ignored_entries(crop_matrix((24.0, 26.0), math.radians(25.0), (1.3, 0.6))),
     "rotated_scaled with m2, m6 and rows 2-3 set: the output equals rotated_scaled's"),
    ("rotated_scaled_oob", crop_matrix((30.0, 20.0), math.radians(-40.0), (2.6, 2.2)),
     "rotated by -40 degrees, scale (2.6, 2.2): a 42x35 window crossing the map's edges"),
)


def sample_positions(matrix):
    """TransformTensorBilinear's sample point of each output pixel, in float32 as MediaPipe's kernel
    computes it: the matrix's translation gets a half-pixel correction, then (u, v, 0, 1) is mapped."""
    m = np.asarray(matrix, dtype=np.float32).reshape(4, 4)
    half = np.float32(0.5)
    m3 = m[0, 3] + half * m[0, 0] + half * m[0, 1] - half
    m7 = m[1, 3] + half * m[1, 0] + half * m[1, 1] - half
    v, u = np.mgrid[0:CROP_SHAPE[1], 0:CROP_SHAPE[2]].astype(np.float32)
    return m[0, 0] * u + m[0, 1] * v + m3, m[1, 0] * u + m[1, 1] * v + m7


def expected_out_of_bounds(matrix):
    x, y = sample_positions(matrix)
    height, width = FEATURE_SHAPE[1:3]
    return (x < 0) | (x > width - 1) | (y < 0) | (y > height - 1)


def ttb_cases(instance, real_matrices, written, out):
    feature_map = (-1.0 + 2.0 * splitmix64_unit(FEATURE_SEED, int(np.prod(FEATURE_SHAPE)))).astype(np.float32)
    feature_map = feature_map.reshape(FEATURE_SHAPE)
    feature_entry = write_f32(out, "ttb.feature_map.f32", feature_map, written)
    cases = []
    all_cases = list(TTB_CASES) + [(f"model_{part}", matrix, f"the model's own {part} crop matrix for the astronaut "
                                    "crop (Landmarks2TransformMatrix's output)")
                                   for part, matrix in real_matrices.items()]
    for name, matrix, note in all_cases:
        matrix = as_op_matrix(matrix)
        result = run_single_op("TransformTensorBilinear", instance["options"], [feature_map, matrix], CROP_SHAPE)
        zero = np.all(result[0] == 0.0, axis=-1)
        predicted = expected_out_of_bounds(matrix)
        if not np.array_equal(zero, predicted):
            sys.exit(f"error: TransformTensorBilinear case {name}: MediaPipe zeroed {int(zero.sum())} pixels, "
                     f"the sampling rule predicts {int(predicted.sum())} out of bounds")
        cases.append({"name": f"ttb_{name}", "op": "TransformTensorBilinear",
                      "options_from_op_index": instance["op_index"], "note": note,
                      "inputs": [{"role": "feature_map", **feature_entry},
                                 {"role": "matrix", **write_f32(out, f"ttb.{name}.matrix.f32", matrix, written)}],
                      "output": write_f32(out, f"ttb.{name}.out.f32", result, written),
                      "out_of_bounds_pixels": int(zero.sum())})
    return cases


TL_CASES = (
    ("lips_like", 80, crop_matrix((95.0, 130.0), math.radians(12.0), (5.0, 1.8), size=64),
     "a lips-like matrix (64-px head frame to 192-px crop), rows 0-1 only"),
    ("eye_ignored", 71, with_ignored_entries(crop_matrix((70.0, 80.0), math.radians(-33.0), (1.1, 0.8), size=64)),
     "rotated by -33 degrees with m2, m6 and rows 2-3 set (ignored: points are (x, y, 0, 1))"),
    ("iris_mirror_ignored", 5, with_ignored_entries(np.array([[-0.9, 0.2, 0.0, 150.0], [0.15, 1.2, 0.0, -20.0],
                                                               [0, 0, 1, 0], [0, 0, 0, 1]])),
     "a mirroring matrix with m2, m6 and rows 2-3 set"),
)


def tl_cases(instance, written, out):
    cases = []
    for k, (name, count, matrix, note) in enumerate(TL_CASES):
        points = (64.0 * splitmix64_unit(POINTS_SEED + k, count * 2)).astype(np.float32).reshape(1, count, 2)
        matrix = as_op_matrix(matrix)
        result = run_single_op("TransformLandmarks", instance["options"], [points, matrix], points.shape)
        cases.append({"name": f"tl_{name}", "op": "TransformLandmarks",
                      "options_from_op_index": instance["op_index"], "note": note,
                      "inputs": [{"role": "points", **write_f32(out, f"tl.{name}.points.f32", points, written)},
                                 {"role": "matrix", **write_f32(out, f"tl.{name}.matrix.f32", matrix, written)}],
                      "output": write_f32(out, f"tl.{name}.out.f32", result, written)})
    return cases


def landmark_sets(mesh):
    """The model's mesh for the astronaut crop in 48-px units, and two transformed copies."""
    scaled = (mesh.astype(np.float32) * np.float32(MESH_SCALE)).reshape(1, 468, 3)
    angle = math.radians(30.0)
    c, s = math.cos(angle), math.sin(angle)
    xy = scaled[0, :, :2].astype(np.float64) - 24.0
    rotated = scaled.copy()
    rotated[0, :, 0] = (c * xy[:, 0] - s * xy[:, 1] + 24.0).astype(np.float32)
    rotated[0, :, 1] = (s * xy[:, 0] + c * xy[:, 1] + 24.0).astype(np.float32)
    mirrored = scaled.copy()
    mirrored[0, :, 0] = np.float32(48.0) - scaled[0, :, 0]
    return (
        ("astronaut", scaled, "the model's output_mesh for the astronaut crop x 0.25 (48-px feature-map units)"),
        ("astronaut_rotated", rotated, "astronaut rotated by +30 degrees (clockwise on screen, y down) about (24, 24)"),
        ("astronaut_mirrored", mirrored, "astronaut mirrored left-right: x -> 48 - x (rotation near 180 degrees)"),
    )


L2TM_PARTS = ("lips", "left_eye", "right_eye")


def l2tm_cases(instances, mesh, written, out):
    cases, real = [], {}
    for set_name, landmarks, note in landmark_sets(mesh):
        entry = write_f32(out, f"l2tm.{set_name}.landmarks.f32", landmarks, written)
        for part, instance in zip(L2TM_PARTS, instances, strict=True):
            result = run_single_op("Landmarks2TransformMatrix", instance["options"], [landmarks], (1, 4, 4))
            if set_name == "astronaut":
                real[part] = result
            cases.append({"name": f"l2tm_{part}_{set_name}", "op": "Landmarks2TransformMatrix",
                          "options_from_op_index": instance["op_index"], "note": note,
                          "inputs": [{"role": "landmarks", **entry}],
                          "output": write_f32(out, f"l2tm.{part}.{set_name}.out.f32", result, written)})
    return cases, real


def generate_op_goldens(model_path, content, mesh, out):
    out.mkdir(parents=True, exist_ok=True)
    operators = custom_operators(attention_model.unpack(content))
    instances = {code: [{"op_index": o["op_index"], "options": bytes.fromhex(o["custom_options_hex"])}
                        for o in operators if o["custom_code"] == code]
                 for code in ("Landmarks2TransformMatrix", "TransformTensorBilinear", "TransformLandmarks")}
    for code in ("TransformTensorBilinear", "TransformLandmarks"):
        if len({instance["options"] for instance in instances[code]}) != 1:
            sys.exit(f"error: the model's {code} instances differ in options; each needs cases of its own")
    written = set()
    l2tm_list, real_matrices = l2tm_cases(instances["Landmarks2TransformMatrix"], mesh, written, out)
    # Every instance of the other two operators has the same options (checked above): the first stands for all.
    ttb_list = ttb_cases(instances["TransformTensorBilinear"][0], real_matrices, written, out)
    tl_list = tl_cases(instances["TransformLandmarks"][0], written, out)

    manifest = {
        "generator": GENERATOR,
        "runtime": runtime(),
        "model": model_entry(content),
        "files": RAW + "; paths relative to this folder",
        "method": "each case is a one-operator .tflite: the custom operator (version 2) with the custom_options "
                  "of the model's instance options_from_op_index, every input a constant tensor, run by "
                  "MediaPipe's InferenceCalculator with its custom operator resolver",
        "conventions": {
            "matrix": "[1,4,4] row-major; TransformTensorBilinear and TransformLandmarks read rows 0-1 only "
                      "and ignore m2 and m6 (points are (x, y, 0, 1))",
            "TransformTensorBilinear": "output pixel (u = column, v = row) samples the feature map at "
                                       "X = m0 u + m1 v + m3 + (m0 + m1 - 1) / 2, Y = m4 u + m5 v + m7 + (m4 + m5 - 1) / 2, "
                                       "bilinear; every channel is 0 where X or Y is outside [0, 47]",
            "TransformLandmarks": "x' = m0 x + m1 y + m3, y' = m4 x + m5 y + m7, per point of [1,N,2]",
            "Landmarks2TransformMatrix": "landmarks [1,468,3] in 48-px feature-map units (z unused) -> "
                                         "[1,4,4] mapping 16-px crop coordinates to feature-map coordinates",
            "feature_map": f"SplitMix64 seed {FEATURE_SEED} (model_inputs.RANDOM_DESCRIPTION) in [-1, 1)",
            "points": f"SplitMix64 in [0, 64), seed {POINTS_SEED} + the case's position among the tl_ cases",
            "out_of_bounds_pixels": "output pixels (of 16x16) whose sample falls outside the map, all channels 0",
        },
        "custom_operators": operators,
        "cases": l2tm_list + ttb_list + tl_list,
    }
    (out / "manifest.json").write_text(json_layout.dumps(manifest, depth=3) + "\n")
    clean(out, written)
    return manifest["cases"]


# ---------------------------------------------------------------------------------------------
# 478 projected points of FaceMesh


def p(value):
    return round(float(value), POINT_DECIMALS) + 0.0


def roi(rect):
    return {field: float(f"{getattr(rect, field):.{ROI_DECIMALS}g}")
            for field in ("x_center", "y_center", "width", "height", "rotation")}


def crop_entry(crop):
    entry = {"roi": roi(crop.rect), "roi_source": crop.source, "presence": p(crop.presence)}
    if crop.points is not None:
        entry["points"] = [[p(x), p(y), p(z)] for x, y, z in crop.points]
    return entry


def observe(tracked, mesh, pixels, where):
    """One frame's entry: FaceMesh's faces with their ROIs, and the ROIs that gave no face.

    The ROIs come from the observed copy of FaceMesh's graph, whose faces must equal FaceMesh's.
    """
    crops = tracked.process(pixels)
    reported = [[(q.x, q.y, q.z) for q in face.landmark] for face in mesh.process(pixels).multi_face_landmarks or []]
    if reported != [c.points for c in crops if c.points is not None]:
        sys.exit(f"error: {where}: the observed FaceMesh graph and FaceMesh itself disagree")
    return crops, {"faces": [crop_entry(c) for c in crops if c.points is not None],
                   "rejected_rois": [crop_entry(c) for c in crops if c.points is None]}


def still_goldens(solutions, fixtures, images, refine=True):
    """FaceMesh, refined or not, on every still (up to four faces), with the regions it cropped; each
    face's points checked against the landmark stage run alone on that region."""
    tracked = mediapipe_graphs.TrackedFaceMesh(static_image_mode=True, max_num_faces=4, with_attention=refine)
    mesh = solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=4, refine_landmarks=refine,
                                        min_detection_confidence=0.5)
    goldens, stage_jobs = {}, []
    for entry in images:
        pixels = decode(fixtures / entry["file"])
        crops, found = observe(tracked, mesh, pixels, entry["file"])
        stage_jobs += [(pixels, c.rect, c.points, entry["file"]) for c in crops if c.points is not None]
        goldens[entry["file"]] = {"width": int(pixels.shape[1]), "height": int(pixels.shape[0]), **found}
    tracked.close()
    mesh.close()
    alone = mediapipe_graphs.landmark_stage([(pixels, rect) for pixels, rect, _, _ in stage_jobs], with_attention=refine)
    for (_, _, points, file), stage_points in zip(stage_jobs, alone, strict=True):
        if stage_points != points:
            sys.exit(f"error: {file}: FaceLandmarkCpu alone on FaceMesh's ROI does not give FaceMesh's points")
    return goldens, len(stage_jobs)


def video_goldens(solutions, fixtures, frames, refine=True):
    """FaceMesh, refined or not, frame by frame through one video, with the regions it cropped."""
    most = max(entry["faces"] for entry in frames)
    tracked = mediapipe_graphs.TrackedFaceMesh(static_image_mode=False, max_num_faces=most, with_attention=refine)
    mesh = solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=most, refine_landmarks=refine,
                                        min_detection_confidence=0.5, min_tracking_confidence=0.5)
    results = []
    for entry in frames:
        _, found = observe(tracked, mesh, decode(fixtures / entry["file"]), entry["file"])
        results.append({"file": entry["file"], **found})
    tracked.close()
    mesh.close()
    return {"max_num_faces": most, "frames": results}


def check_counts(manifest, goldens, known_misses=KNOWN_MISSES):
    """What differs from the fixtures' face counts, but for the stills MediaPipe is known to miss."""
    wrong = []
    for entry in manifest["images"]:
        expected = 0 if entry["file"] in known_misses else entry["faces"]
        found = len(goldens["images"][entry["file"]]["faces"])
        if found != expected:
            wrong.append(f"{entry['file']}: {found} faces, expected {expected}")
    for name, frames in manifest["videos"].items():
        for entry, result in zip(frames, goldens["videos"][name]["frames"], strict=True):
            if len(result["faces"]) != entry["faces"]:
                wrong.append(f"{entry['file']}: {len(result['faces'])} faces, expected {entry['faces']}")
    return wrong


def generate_mesh_goldens(fixtures, out):
    manifest = json.loads((fixtures / "manifest.json").read_text())
    manifest["images"] = stills(manifest)
    solutions = load_solutions()
    images, stage_faces = still_goldens(solutions, fixtures, manifest["images"])
    goldens = {
        "generator": GENERATOR,
        "mediapipe": PINNED_VERSION,
        "decoder": f"Pillow {version('pillow')}, RGB uint8",
        "stills": "FaceMesh(static_image_mode=True, max_num_faces=4, refine_landmarks=True, "
                  "min_detection_confidence=0.5) on each image alone",
        "videos_run": "FaceMesh(static_image_mode=False, max_num_faces=<the video's max_num_faces>, "
                      "refine_landmarks=True, min_detection_confidence=0.5, min_tracking_confidence=0.5), "
                      "one instance per video, frames in order",
        "points": f"FaceMesh's multi_face_landmarks: per face 478 [x, y, z], normalized (x / width, y / height, "
                  f"z on the scale of x), origin top-left, rounded to {POINT_DECIMALS} decimals; faces in "
                  "FaceMesh's order",
        "roi": "the NormalizedRect (normalized to the image's width and height, rotation in radians, clockwise "
               "on screen) that FaceLandmarkCpu cropped this face from: from the detector, or in videos from "
               "the previous frame's landmarks (roi_source: \"detection\" or \"landmarks\"); observed in the "
               "same graph, at float32 precision",
        "presence": "the face presence score of that crop: sigmoid of the model's face flag; below 0.5 "
                    "(min_tracking_confidence) the crop yields no face and its ROI is listed in rejected_rois",
        "landmark_stage": f"FaceLandmarkCpu (WITH_ATTENTION) run alone on each still image's face ROI returns "
                          f"exactly that face's points (checked bit for bit on all {stage_faces} still faces), so "
                          "points is also the golden of the landmark stage alone for that roi",
        "known_misses": [{"file": file, "why": why} for file, why in KNOWN_MISSES.items()],
        "images": images,
        "videos": {name: video_goldens(solutions, fixtures, frames) for name, frames in manifest["videos"].items()},
    }
    wrong = check_counts(manifest, goldens)
    if wrong:
        sys.exit("error: MediaPipe's refined FaceMesh disagrees with the fixture manifest:\n  " + "\n  ".join(wrong))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json_layout.dumps(goldens, depth=4) + "\n")
    return goldens


# ---------------------------------------------------------------------------------------------


def folder_summary(folder):
    files = [p for p in folder.iterdir() if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="the .tflite file (default: see --models)")
    parser.add_argument("--models", type=Path, default=Path("models"),
                        help=f"folder holding {attention_model.MODEL_FILE}")
    parser.add_argument("--fixtures", type=Path, default=Path("Tests/Fixtures"),
                        help="folder made by make_pipeline_fixtures.py")
    parser.add_argument("--inference-goldens", type=Path, default=Path("Tests/InferenceTests/Goldens"),
                        help="inference golden folder; attention/ is written inside it")
    parser.add_argument("--mesh-out", type=Path, default=Path("Tests/FaceDetectionTests/Goldens/attention_mesh.json"),
                        help="the 478-point golden file to write")
    args = parser.parse_args()

    model_path = attention_model.locate(args.model, args.models)
    content = attention_model.read_verified(model_path)
    installed = attention_model.package_copy()
    if installed is None or sha256(installed.read_bytes()) != attention_model.MODEL_SHA256:
        sys.exit("error: the installed mediapipe package, whose FaceMesh makes the 478-point golden, "
                 f"does not hold {attention_model.MODEL_FILE} with sha256 {attention_model.MODEL_SHA256}")

    root = args.inference_goldens / "attention"
    meshes = generate_model_goldens(model_path, content, args.fixtures, args.inference_goldens, root / "model")
    cases = generate_op_goldens(model_path, content, meshes["astronaut"], root / "ops")
    goldens = generate_mesh_goldens(args.fixtures, args.mesh_out)

    print("op cases: " + ", ".join(f"{op} {sum(c['op'] == op for c in cases)}"
                                   for op in ("Landmarks2TransformMatrix", "TransformTensorBilinear", "TransformLandmarks")))
    print("out-of-bounds pixels per TransformTensorBilinear case: " + ", ".join(
        f"{c['name']} {c['out_of_bounds_pixels']}" for c in cases if "out_of_bounds_pixels" in c))
    still_faces = sum(len(e["faces"]) for e in goldens["images"].values())
    video_faces = {name: sum(len(f["faces"]) for f in v["frames"]) for name, v in goldens["videos"].items()}
    print(f"478-point faces: {still_faces} on {len(goldens['images'])} images; "
          + "; ".join(f"{name} {n} faces over {len(goldens['videos'][name]['frames'])} frames"
                      for name, n in video_faces.items()))
    total = 0
    for folder in (root / "model", root / "ops"):
        count, size = folder_summary(folder)
        total += size
        print(f"  {folder}: {count} files, {size / 1024:.0f} KiB")
    size = args.mesh_out.stat().st_size
    total += size
    print(f"  {args.mesh_out}: {size / 1024:.0f} KiB")
    print(f"total {total / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
