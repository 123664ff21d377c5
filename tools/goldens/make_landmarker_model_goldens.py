"""Write the Face Landmarker parity golden files: LiteRT's outputs for the bundle's mesh and
blendshape models on fixed inputs.

    .venv-tools/bin/python -m tools.goldens.make_landmarker_model_goldens --models models \
        --out Tests/InferenceTests/Goldens/landmarker

The models are members of models/face_landmarker.task (landmarker_bundle.py reads and checks
them). Each is run by LiteRT's Python interpreter with default settings:

* face_landmarks_detector.tflite, input [1,256,256,3] in [0, 1]:
    - "astronaut": make_inference_goldens.py's face crop (FACE_BOX of astronaut.png) resized with
      Pillow's BILINEAR filter to 256x256, stored as astronaut_face_256.rgb (uint8 RGB, row-major,
      no header) and mapped to float32(float64(v) / 255.0);
    - "random": SplitMix64 with seed 1 over [0, 1] (model_inputs.RANDOM_DESCRIPTION).
* face_blendshapes.tflite, input [1,146,2]: point clouds in pixel units, SplitMix64 over a range
  per case, one draw per coordinate in (point, x/y) order:
    - "frame": seed 1 over [0, 640], points anywhere in a 640-pixel frame;
    - "face": seed 2 over [220, 420], points crowded in a 200-pixel box, as a face's are.

Every output tensor, in the interpreter's output order, is written as raw little-endian float32
to <model stem>.<case>.out<k>.f32, and manifest.json describes all of it. Reruns give the same
bytes; .f32 and .rgb files that a run no longer produces are removed.
"""

import argparse
import json
from importlib.metadata import version
from pathlib import Path

import numpy as np
from ai_edge_litert.interpreter import Interpreter

from tools.goldens.make_inference_goldens import FACE_BOX, astronaut_pixels, sigmoid
from tools.shared.landmarker_bundle import BUNDLE_FILE, MEMBER_SHA256, read_member
from tools.shared.model_inputs import RANDOM_DESCRIPTION, splitmix64_unit

MESH = "face_landmarks_detector.tflite"
BLENDSHAPES = "face_blendshapes.tflite"

# (model, input shape, cases); a case is (name, input description).
CASES = (
    (MESH, (1, 256, 256, 3), (
        ("astronaut", {"kind": "image", "file": "astronaut_face_256.rgb", "value_range": [0.0, 1.0]}),
        ("random", {"kind": "random", "seed": 1, "value_range": [0.0, 1.0]}),
    )),
    (BLENDSHAPES, (1, 146, 2), (
        ("frame", {"kind": "random", "seed": 1, "value_range": [0.0, 640.0]}),
        ("face", {"kind": "random", "seed": 2, "value_range": [220.0, 420.0]}),
    )),
)

GENERATED_SUFFIXES = (".f32", ".rgb")


def case_input(description, shape, out_dir, written):
    lo, hi = description["value_range"]
    if description["kind"] == "image":
        pixels = astronaut_pixels(FACE_BOX, shape[1])
        (out_dir / description["file"]).write_bytes(pixels.tobytes())
        written.add(description["file"])
        values = pixels.astype(np.float64) * (hi - lo) / 255.0 + lo
    else:
        values = lo + (hi - lo) * splitmix64_unit(description["seed"], int(np.prod(shape)))
    return values.astype(np.float32).reshape(shape)


def generate(models_dir, out_dir):
    out_dir.mkdir(parents=True, exist_ok=True)
    written = set()
    models = []
    for member, shape, cases in CASES:
        interpreter = Interpreter(model_content=read_member(models_dir, member))
        interpreter.allocate_tensors()
        detail = interpreter.get_input_details()[0]
        if tuple(detail["shape"]) != shape or detail["dtype"] != np.float32:
            raise SystemExit(f"error: {member} does not take one float32 {shape} input: {detail}")
        stem = member.removesuffix(".tflite")
        described_cases = []
        for name, description in cases:
            interpreter.set_tensor(detail["index"], case_input(description, shape, out_dir, written))
            interpreter.invoke()
            outputs = []
            for k, output in enumerate(interpreter.get_output_details()):
                tensor = interpreter.get_tensor(output["index"])
                file = f"{stem}.{name}.out{k}.f32"
                (out_dir / file).write_bytes(tensor.astype("<f4").tobytes())
                written.add(file)
                outputs.append({"name": output["name"], "shape": [int(n) for n in tensor.shape], "file": file})
            if member == MESH:
                print(f"  {stem} {name}: face presence {float(sigmoid(interpreter.get_tensor(interpreter.get_output_details()[1]['index'])).item()):.4f}")
            described_cases.append({"name": name, "input": description, "outputs": outputs})
        models.append({"bundle": BUNDLE_FILE, "member": member, "sha256": MEMBER_SHA256[member],
                       "input_shape": list(shape), "cases": described_cases})

    manifest = {
        "generator": "tools/goldens/make_landmarker_model_goldens.py",
        "runtime": f"ai-edge-litert {version('ai-edge-litert')}",
        "random": RANDOM_DESCRIPTION,
        "models": models,
    }
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    for path in out_dir.iterdir():
        if path.suffix in GENERATED_SUFFIXES and path.name not in written:
            path.unlink()
    size = sum(p.stat().st_size for p in out_dir.iterdir())
    print(f"wrote {len(written) + 1} files, {size / 1024:.0f} KiB, to {out_dir}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=Path("models"), help="folder holding face_landmarker.task")
    parser.add_argument("--out", type=Path, default=Path("Tests/InferenceTests/Goldens/landmarker"), help="golden folder")
    args = parser.parse_args()
    generate(args.models, args.out)


if __name__ == "__main__":
    main()
