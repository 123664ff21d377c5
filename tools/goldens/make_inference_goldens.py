"""Write the inference parity golden files: LiteRT's outputs for each face model on fixed inputs.

    .venv-tools/bin/python -m tools.goldens.make_inference_goldens --models models --out Tests/InferenceTests/Goldens

Every model is run by LiteRT's Python interpreter with default settings on two cases:

* "astronaut": scikit-image's astronaut.png (512x512 RGB), cropped to a fixed box and resized
  with Pillow's BILINEAR filter to the model's input size. The resulting uint8 RGB pixels are
  stored (row-major HxWx3, no header), so the resize never has to be reproduced elsewhere:
    - detectors: the whole photograph, astronaut_128.rgb and astronaut_192.rgb;
    - face_landmark: FACE_BOX, the square of 1.5x the short-range detector's box around its
      centre (what MediaPipe feeds the mesh model), astronaut_face_192.rgb; the whole photograph
      would leave the face too small for the mesh model to report a face.
  The float input is float32(float64(v) * (hi - lo) / 255.0 + lo) with the model's value range.
* "random": not stored; SplitMix64 with seed 1, exactly as model_inputs.RANDOM_DESCRIPTION says.

Every output tensor, in the interpreter's output order, is written as raw little-endian float32
to <model stem>.<case>.out<k>.f32, and manifest.json describes all of it. Reruns give the same
bytes; files of the same kinds that a run no longer produces are removed.
"""

import argparse
import json
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
from PIL import Image
from ai_edge_litert.interpreter import Interpreter
from skimage import data

from tools.shared.model_inputs import MODELS, RANDOM_DESCRIPTION, RANDOM_SEED, image_input, random_input

# Boxes are (left, top, right, bottom) in astronaut.png pixels, found once from LiteRT's own
# outputs on this photograph: detector box centre (226, 129), size 95; mesh points 33 and 133
# at (194.4, 100.6) and (213.5, 103.5).
WHOLE = (0, 0, 512, 512)
FACE_BOX = (155, 58, 297, 200)

ASTRONAUT_INPUTS = {
    "face_detection_short_range.tflite": ("astronaut_128.rgb", WHOLE),
    "face_detection_full_range_sparse.tflite": ("astronaut_192.rgb", WHOLE),
    "face_landmark.tflite": ("astronaut_face_192.rgb", FACE_BOX),
}

GENERATED_SUFFIXES = (".f32", ".rgb")


def astronaut_pixels(box, size):
    crop = Image.fromarray(data.astronaut()).convert("RGB").crop(box)
    return np.asarray(crop.resize((size, size), Image.BILINEAR), dtype=np.uint8)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-np.clip(np.asarray(x, dtype=np.float64), -100.0, 100.0)))


def load_interpreter(path, spec):
    if not path.is_file():
        sys.exit(f"error: model {path} is missing; `make models` fetches it")
    interpreter = Interpreter(model_path=str(path))
    interpreter.allocate_tensors()
    details = interpreter.get_input_details()
    if len(details) != 1 or tuple(details[0]["shape"]) != spec.input_shape or details[0]["dtype"] != np.float32:
        sys.exit(f"error: {spec.file} does not take one float32 {spec.input_shape} input: {details}")
    return interpreter


def run(interpreter, tensor):
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], tensor)
    interpreter.invoke()
    return [(d["name"], interpreter.get_tensor(d["index"]).copy()) for d in interpreter.get_output_details()]


def write_outputs(out_dir, stem, case, outputs, written):
    described = []
    for k, (name, tensor) in enumerate(outputs):
        file = f"{stem}.{case}.out{k}.f32"
        (out_dir / file).write_bytes(tensor.astype("<f4").tobytes())
        written.add(file)
        described.append({"name": name, "shape": [int(n) for n in tensor.shape], "file": file})
    return described


def report_astronaut(spec, outputs):
    """Print (and for the two face checks, enforce) that the photograph means something to the model."""
    tensors = [t for _, t in outputs]
    if spec.stem.startswith("face_detection"):
        score = float(sigmoid(tensors[1]).max())
        print(f"  {spec.stem}: best face score {score:.4f}")
        if spec.stem == "face_detection_short_range" and score <= 0.5:
            sys.exit("error: the short-range detector finds no face in the astronaut input")
    else:
        presence = float(sigmoid(tensors[1]).item())
        print(f"  face_landmark: face presence {presence:.4f}")
        if presence <= 0.5:
            sys.exit("error: the face mesh model sees no face in the astronaut crop")


def generate(models_dir, out_dir):
    out_dir.mkdir(parents=True, exist_ok=True)
    written = set()
    manifest_models = []
    for spec in MODELS:
        interpreter = load_interpreter(models_dir / spec.file, spec)
        image_file, box = ASTRONAUT_INPUTS[spec.file]
        pixels = astronaut_pixels(box, spec.input_shape[1])
        (out_dir / image_file).write_bytes(pixels.tobytes())
        written.add(image_file)

        astronaut = run(interpreter, image_input(spec, pixels))
        report_astronaut(spec, astronaut)
        random = run(interpreter, random_input(spec, RANDOM_SEED))
        manifest_models.append({
            "model": spec.file,
            "input_shape": list(spec.input_shape),
            "value_range": [float(v) for v in spec.value_range],
            "cases": [
                {"name": "astronaut", "input": {"kind": "image", "file": image_file},
                 "outputs": write_outputs(out_dir, spec.stem, "astronaut", astronaut, written)},
                {"name": "random", "input": {"kind": "random", "seed": RANDOM_SEED},
                 "outputs": write_outputs(out_dir, spec.stem, "random", random, written)},
            ],
        })

    manifest = {
        "generator": "tools/goldens/make_inference_goldens.py",
        "runtime": f"ai-edge-litert {version('ai-edge-litert')}",
        "random": RANDOM_DESCRIPTION,
        "models": manifest_models,
    }
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    for path in out_dir.iterdir():
        if path.name == ".keep" or (path.suffix in GENERATED_SUFFIXES and path.name not in written):
            path.unlink()
    size = sum(p.stat().st_size for p in out_dir.iterdir())
    print(f"wrote {len(written) + 1} files, {size / 1024:.0f} KiB, to {out_dir}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=Path("models"), help="folder holding the .tflite files")
    parser.add_argument("--out", type=Path, default=Path("Tests/InferenceTests/Goldens"), help="golden folder")
    args = parser.parse_args()
    generate(args.models, args.out)


if __name__ == "__main__":
    main()
