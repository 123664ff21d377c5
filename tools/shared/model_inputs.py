"""Model table and input tensors shared by the golden-file generator and the benchmark.

Both inputs are defined bit for bit so that the Swift side rebuilds the same float32 tensor
instead of reading it from disk:

* image input: uint8 v becomes float32(float64(v) * (hi - lo) / 255.0 + lo), the value mapping
  of MediaPipe's ImageToTensorCalculator, evaluated in float64 and rounded once to float32;
* random input: see RANDOM_DESCRIPTION (SplitMix64, one draw per element in NHWC order).
"""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ModelSpec:
    file: str
    input_shape: tuple
    value_range: tuple

    @property
    def stem(self):
        return self.file.removesuffix(".tflite")


# Value ranges come from MediaPipe's CPU graphs: the detectors are fed [-1, 1], the face mesh [0, 1].
# The attention mesh runs only partly in LiteRT (its custom operators are MediaPipe's), so it is
# described by tools/shared/attention_model.py instead.
MODELS = (
    ModelSpec("face_detection_short_range.tflite", (1, 128, 128, 3), (-1.0, 1.0)),
    ModelSpec("face_detection_full_range_sparse.tflite", (1, 192, 192, 3), (-1.0, 1.0)),
    ModelSpec("face_landmark.tflite", (1, 192, 192, 3), (0.0, 1.0)),
)

RANDOM_SEED = 1

RANDOM_DESCRIPTION = (
    "SplitMix64: state starts at the seed; per element, in row-major NHWC order: "
    "state = (state + 0x9E3779B97F4A7C15) mod 2^64; z = state; "
    "z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 mod 2^64; "
    "z = (z ^ (z >> 27)) * 0x94D049BB133111EB mod 2^64; z = z ^ (z >> 31); "
    "u = float64(z >> 40) / 2^24; value = float32(lo + (hi - lo) * u) computed in float64, "
    "where [lo, hi] is the model's value range"
)

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def splitmix64_unit(seed, count):
    """The first `count` SplitMix64 draws from `seed`, as float64 in [0, 1)."""
    # The k-th state is seed + k * gamma (mod 2^64), so the whole stream is one vector
    # expression; uint64 arithmetic in NumPy wraps, which is exactly the mod 2^64 we need.
    steps = np.arange(1, count + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + steps * _GAMMA
        z = (z ^ (z >> np.uint64(30))) * _MIX1
        z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(40)).astype(np.float64) / float(1 << 24)


def random_input(spec, seed=RANDOM_SEED):
    lo, hi = spec.value_range
    count = int(np.prod(spec.input_shape))
    values = lo + (hi - lo) * splitmix64_unit(seed, count)
    return values.astype(np.float32).reshape(spec.input_shape)


def image_input(spec, rgb):
    """Float tensor for an HxWx3 uint8 RGB image already at the model's input size."""
    if rgb.dtype != np.uint8 or rgb.shape != spec.input_shape[1:]:
        raise ValueError(f"{spec.file} wants uint8 {spec.input_shape[1:]}, got {rgb.dtype} {rgb.shape}")
    lo, hi = spec.value_range
    values = rgb.astype(np.float64) * (hi - lo) / 255.0 + lo
    return values.astype(np.float32).reshape(spec.input_shape)
