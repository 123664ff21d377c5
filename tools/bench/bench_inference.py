"""Per-model invoke time: our XNNPACK runtime against LiteRT's interpreter (goal P3).

    make bench-inference
    .venv-tools/bin/python -m tools.bench.bench_inference --models models --ours .build/release/inference-bench

For every model and thread count both runtimes get the same seeded input (SplitMix64, seed 1,
see model_inputs.RANDOM_DESCRIPTION), are warmed up, and are then timed invoke by invoke in short
bursts (about --burst-ms each), a burst of LiteRT's and a burst of ours in turn, --bursts times.
A pair's ratio divides our burst's median by LiteRT's burst before it; a row's ratio is the median
of those paired ratios, and its times are each side's median over its bursts. The virtual machines
this runs on change speed in steps: one LiteRT process timed in 50-invoke bursts ran at 1.4, 2.1 or
3.3 ms per invoke, each level lasting 0.5 to 5 s. Two bursts a tenth of a second apart nearly
always see the same level, so each pair compares the two runtimes at one speed, and the median
over the pairs drops the few that straddle a step.

LiteRT is timed here with time.perf_counter_ns around Interpreter.invoke() (XNNPACK is its
default CPU path); ours is timed by the executable itself, loaded and warmed up once per row, run as

    <ours> --models DIR --model <file> --threads N --warmup W --bursts

which reads a count of invokes per line and answers each with one JSON line: {"model": ...,
"threads": N, "median_ms": ..., "p90_ms": ..., "iterations": count,
"steps": [{"step": ..., "median_ms": ..., "p90_ms": ...}, ...]}.

The attention mesh (face_landmark_with_attention.tflite) holds MediaPipe's custom operators, which
LiteRT cannot run, so LiteRT times its two builtin-only segments as tools/shared/attention_model.py cuts
them (seeded inputs in [0, 1)), against the matching steps of our run of the whole model: our
segment 0 against A, our segment 1 against B (ours also holds the three small matrix MULs that the
cut leaves to the host). LiteRT runs A then B in every timed iteration, as one run of the whole
model does, so both sides start B with the caches A left behind: B run alone in a loop keeps its
weights in cache and takes about half the time. A row for our custom operators (both host steps,
no peer) and one for the whole model (ours end to end against LiteRT's A + B, summed iteration by
iteration) follow.

The Face Landmarker's mesh and blendshape models are read from models/face_landmarker.task
(landmarker_bundle.py checks each member's SHA-256) and handed to LiteRT as bytes; ours loads the
same member from the bundle, named <bundle>:<member>. The mesh model gets seeded inputs in [0, 1],
the blendshape model seeded points in [0, 640). A model that runs in several steps (XNNPACK
segments split by host operators, as the blendshape model's layer norms and transposes make it)
gets two more rows of ours alone: its segments' medians summed, and its host steps' medians summed.

The output is a table, then, as the very last line, one JSON object:
{"bench": "inference", "ratio_<N>t": {model: median paired ours/LiteRT}, ...,
 "litert_ms": {model: {"<N>t": median}}, "ours_ms": {model: {"<N>t": median}}}
with model names lacking ".tflite" (the attention rows as attention_a, attention_b, attention_whole;
attention_custom_ops, and <model>_segments and <model>_host for models run in several steps, in
ours_ms only). P3 is met when every 1-thread ratio is at most 1.10.
"""

import argparse
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tools.bench.bench_results import write_results
from tools.shared import attention_model
from tools.shared.bench_args import count
from tools.shared.bench_process import fail, last_json_line, median_and_p90, require_executable
from tools.shared.landmarker_bundle import BUNDLE_FILE, read_member
from tools.shared.model_inputs import MODELS, RANDOM_SEED, ModelSpec, random_input

P3_GOAL = 1.10
OURS_TIMEOUT_S = 600
CALIBRATION_INVOKES = 20

# Members of the Face Landmarker bundle, with the value ranges of their seeded inputs.
LANDMARKER_MODELS = (
    ModelSpec("face_landmarks_detector.tflite", (1, 256, 256, 3), (0.0, 1.0)),
    ModelSpec("face_blendshapes.tflite", (1, 146, 2), (0.0, 640.0)),
)


@dataclass(frozen=True)
class Row:
    """One line of the table: `ratio` is the median of the paired bursts' ratios, None without a peer."""
    stem: str
    threads: int
    litert_ms: float | None
    ours_ms: float
    ratio: float | None = None


def load_litert():
    try:
        from ai_edge_litert.interpreter import Interpreter
    except ImportError:
        fail("LiteRT's Python package is not installed in this interpreter; `make venv` creates .venv-tools")
    return Interpreter


def check_inputs(models_dir, ours):
    for file in [spec.file for spec in MODELS] + [attention_model.MODEL_FILE, BUNDLE_FILE]:
        if not (models_dir / file).is_file():
            fail(f"model {models_dir / file} is missing; `make models` fetches it")
    require_executable(ours, "bench-inference")


class LiteRTSide:
    """LiteRT interpreters invoked one after the other in every timed iteration (one for a plain
    model, segments A and B for the attention mesh)."""

    def __init__(self, interpreters, inputs, warmup):
        for interpreter, arrays in zip(interpreters, inputs, strict=True):
            interpreter.allocate_tensors()
            for detail, tensor in zip(interpreter.get_input_details(), arrays, strict=True):
                interpreter.set_tensor(detail["index"], tensor)
        self.invokes = [interpreter.invoke for interpreter in interpreters]
        for _ in range(warmup):
            for invoke in self.invokes:
                invoke()

    def burst(self, iterations):
        """Each interpreter's median in ms over `iterations`, then the median of their sum."""
        samples = [[] for _ in self.invokes]
        clock = time.perf_counter_ns
        for _ in range(iterations):
            start = clock()
            for invoke, times in zip(self.invokes, samples):
                invoke()
                end = clock()
                times.append(end - start)
                start = end
        return [float(np.median(times)) / 1e6 for times in samples] + [float(np.median(np.sum(samples, axis=0))) / 1e6]


class OursSide:
    """Our inference-bench, loaded and warmed up once, timing a burst per line it is sent."""

    def __init__(self, ours, models_dir, file, threads, warmup, value_range=None):
        self.command = [str(ours), "--models", str(models_dir), "--model", file, "--threads", str(threads),
                        "--warmup", str(warmup), "--bursts"]
        if value_range is not None:
            self.command += [f"--lower={value_range[0]!r}", f"--upper={value_range[1]!r}"]
        self.file, self.threads = file, threads
        self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)

    def burst(self, iterations):
        """The JSON line of `iterations` timed invokes."""
        self.process.stdin.write(f"{iterations}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            self.process.stdin.close()
            self.process.wait(OURS_TIMEOUT_S)
            fail(f"{' '.join(self.command)} exited with status {self.process.returncode}:\n"
                 f"{self.process.stderr.read().strip()}")
        result = last_json_line(line, self.command)
        median_and_p90(result, self.command)
        if result.get("model") != self.file or result.get("threads") != self.threads:
            fail(f"{self.command[0]} answered for {result.get('model')} with {result.get('threads')} threads, "
                 f"asked for {self.file} with {self.threads}")
        return result

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.process.stdin.close()
        try:
            self.process.wait(OURS_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def paired_bursts(litert, ours, args):
    """--bursts pairs, LiteRT's burst then ours, each about --burst-ms long: the list of LiteRT's
    burst figures and the list of our bursts' JSON lines."""
    iterations = max(1, round(args.burst_ms / ours.burst(CALIBRATION_INVOKES)["median_ms"]))
    theirs, mine = [], []
    for _ in range(args.bursts):
        theirs.append(litert.burst(iterations))
        mine.append(ours.burst(iterations))
    return theirs, mine


def steps_ms(result, kind):
    """Our burst's step medians whose name starts with `kind` ("segment" or "host")."""
    return [float(step["median_ms"]) for step in result.get("steps", []) if step["step"].startswith(kind)]


def compared(stem, threads, theirs, mine):
    """A row from paired figures: `theirs` and `mine` hold one time per burst, in the same order."""
    theirs, mine = np.asarray(theirs), np.asarray(mine)
    return Row(stem, threads, float(np.median(theirs)), float(np.median(mine)), float(np.median(mine / theirs)))


def alone(stem, threads, mine):
    return Row(stem, threads, None, float(np.median(mine)))


def model_rows(interpreter, content, spec, name, args, threads):
    """A whole model, ours against LiteRT; for a model run in several steps, also our segments and
    our host steps, each summed per burst."""
    litert = LiteRTSide([interpreter(model_content=content, num_threads=threads)],
                        [[random_input(spec, RANDOM_SEED)]], args.warmup)
    with OursSide(args.ours, args.models, name, threads, args.warmup, spec.value_range) as ours:
        theirs, mine = paired_bursts(litert, ours, args)
    rows = [compared(spec.stem, threads, [t[0] for t in theirs], [m["median_ms"] for m in mine])]
    if len(mine[0].get("steps", [])) > 1:
        rows += [alone(f"{spec.stem}_{suffix}", threads, [sum(steps_ms(m, kind)) for m in mine])
                 for suffix, kind in (("segments", "segment"), ("host", "host"))]
    return rows


def attention_rows(interpreter, args, threads):
    """LiteRT's segments A and B against our steps of the whole attention mesh."""
    peers = attention_model.segments(attention_model.read_verified(args.models / attention_model.MODEL_FILE))
    litert = LiteRTSide([interpreter(model_content=p.content, num_threads=threads) for p in peers],
                        [attention_model.seeded_inputs(p) for p in peers], args.warmup)
    with OursSide(args.ours, args.models, attention_model.MODEL_FILE, threads, args.warmup) as ours:
        theirs, mine = paired_bursts(litert, ours, args)
    for result in mine:
        steps = [step["step"] for step in result.get("steps", [])]
        if len(steps_ms(result, "segment")) != 2 or len(steps_ms(result, "host")) != 2:
            fail(f"{args.ours} ran the attention mesh as {steps}; expected two segments and two host steps")
    return [compared("attention_a", threads, [t[0] for t in theirs], [steps_ms(m, "segment")[0] for m in mine]),
            compared("attention_b", threads, [t[1] for t in theirs], [steps_ms(m, "segment")[1] for m in mine]),
            alone("attention_custom_ops", threads, [sum(steps_ms(m, "host")) for m in mine]),
            compared("attention_whole", threads, [t[2] for t in theirs], [m["median_ms"] for m in mine])]


def print_table(rows):
    header = ("model", "threads", "LiteRT ms", "ours ms", "ours/LiteRT", "P3 (<= 1.10 at 1t)")
    lines = [header]
    for row in rows:
        if row.ratio is None:
            lines.append((row.stem, str(row.threads), "-", f"{row.ours_ms:.3f}", "-", "-"))
            continue
        lines.append((row.stem, str(row.threads), f"{row.litert_ms:.3f}", f"{row.ours_ms:.3f}", f"{row.ratio:.3f}",
                      ("met" if row.ratio <= P3_GOAL else "NOT met") if row.threads == 1 else "-"))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def summary_json(rows, thread_counts):
    summary = {"bench": "inference"}
    for n in thread_counts:
        summary[f"ratio_{n}t"] = {row.stem: round(row.ratio, 3) for row in rows if row.threads == n and row.ratio}
    stems = list(dict.fromkeys(row.stem for row in rows))
    summary["litert_ms"] = {stem: {f"{row.threads}t": round(row.litert_ms, 4) for row in rows
                                   if row.stem == stem and row.litert_ms}
                            for stem in stems if any(row.stem == stem and row.litert_ms for row in rows)}
    summary["ours_ms"] = {stem: {f"{row.threads}t": round(row.ours_ms, 4) for row in rows if row.stem == stem}
                          for stem in stems}
    return json.dumps(summary, separators=(",", ":"))


def thread_list(text):
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated thread counts, got {text!r}")
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"thread counts must be positive, got {text!r}")
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, required=True, help="folder holding the .tflite files")
    parser.add_argument("--ours", type=Path, required=True, help="our inference-bench executable")
    parser.add_argument("--warmup", type=count(0), default=50, help="untimed invokes first (default 50)")
    parser.add_argument("--bursts", type=count(1), default=40, help="paired bursts per model (default 40)")
    parser.add_argument("--burst-ms", type=count(1), default=100, help="length of a burst in ms (default 100)")
    parser.add_argument("--threads", type=thread_list, default=[1, 2], help="thread counts (default 1,2)")
    args = parser.parse_args()

    check_inputs(args.models, args.ours)
    interpreter = load_litert()
    rows = []
    for threads in args.threads:
        for spec in MODELS:
            rows += model_rows(interpreter, (args.models / spec.file).read_bytes(), spec, spec.file, args, threads)
            print(f"measured {spec.stem} at {threads} thread(s)", file=sys.stderr, flush=True)
        rows += attention_rows(interpreter, args, threads)
        print(f"measured the attention mesh at {threads} thread(s)", file=sys.stderr, flush=True)
        for spec in LANDMARKER_MODELS:
            rows += model_rows(interpreter, read_member(args.models, spec.file), spec, f"{BUNDLE_FILE}:{spec.file}",
                               args, threads)
        print(f"measured the landmarker's mesh and blendshape models at {threads} thread(s)", file=sys.stderr, flush=True)
    print_table(rows)
    write_results(json.loads(summary_json(rows, args.threads)), "bench-inference")
    print(summary_json(rows, args.threads))


if __name__ == "__main__":
    main()
