"""Per-model invoke time: our XNNPACK runtime against LiteRT's interpreter (goal P3).

    make bench-inference
    .venv-tools/bin/python tools/bench_inference.py --models models --ours .build/release/inference-bench

For every model and thread count both runtimes get the same seeded input (SplitMix64, seed 1,
see model_inputs.RANDOM_DESCRIPTION), are warmed up, and are then timed invoke by invoke.
The pair is measured --rounds times, alternating, and each side keeps its round with the lowest
median: on a small shared machine a burst of other work then spoils one round, not the ratio. The
rounds are many and short because the virtual machines this runs on change speed in steps lasting
0.5 to 5 s (see tools/bench.py): each side then meets the fastest level in some round.
LiteRT is timed here with time.perf_counter_ns around Interpreter.invoke() (XNNPACK is its
default CPU path); ours is timed by the executable itself, run as

    <ours> --models DIR --model <file> --threads N --warmup W --iterations I

which prints one JSON line: {"model": ..., "threads": N, "median_ms": ..., "p90_ms": ..., "iterations": I,
"steps": [{"step": ..., "median_ms": ..., "p90_ms": ...}, ...]}.

The attention mesh (face_landmark_with_attention.tflite) holds MediaPipe's custom operators, which
LiteRT cannot run, so LiteRT times its two builtin-only segments as tools/attention_model.py cuts
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
{"bench": "inference", "ratio_<N>t": {model: ours/LiteRT median}, ...,
 "litert_ms": {model: {"<N>t": median}}, "ours_ms": {model: {"<N>t": median}}}
with model names lacking ".tflite" (the attention rows as attention_a, attention_b, attention_whole;
attention_custom_ops, and <model>_segments and <model>_host for models run in several steps, in
ours_ms only). P3 is met when every 1-thread ratio is at most 1.10.
"""

import argparse
import json
import sys
import time
from pathlib import Path

import attention_model
from landmarker_bundle import BUNDLE_FILE, read_member
from model_inputs import MODELS, RANDOM_SEED, ModelSpec, random_input

from bench_args import count
from bench_process import fail, median_and_p90, require_executable, run_json, summary_ms

P3_GOAL = 1.10
OURS_TIMEOUT_S = 600

# Members of the Face Landmarker bundle, with the value ranges of their seeded inputs.
LANDMARKER_MODELS = (
    ModelSpec("face_landmarks_detector.tflite", (1, 256, 256, 3), (0.0, 1.0)),
    ModelSpec("face_blendshapes.tflite", (1, 146, 2), (0.0, 640.0)),
)


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


def time_litert(interpreter_class, path, spec, threads, warmup, iterations):
    return time_interpreter(interpreter_class(model_path=str(path), num_threads=threads),
                            [random_input(spec, RANDOM_SEED)], warmup, iterations)


def time_interpreter(interpreter, inputs, warmup, iterations):
    return time_in_sequence([interpreter], [inputs], warmup, iterations)[0]


def time_ours(ours, models_dir, file, threads, warmup, iterations, value_range=None):
    """Our median and p90 in ms, and the JSON line's per-step figures."""
    command = [str(ours), "--models", str(models_dir), "--model", file, "--threads", str(threads),
               "--warmup", str(warmup), "--iterations", str(iterations)]
    if value_range is not None:
        command += ["--lower", repr(value_range[0]), "--upper", repr(value_range[1])]
    result = run_json(command, OURS_TIMEOUT_S)
    median, p90 = median_and_p90(result, command)
    if result.get("model") != file or result.get("threads") != threads:
        fail(f"{ours} answered for {result.get('model')} with {result.get('threads')} threads, "
             f"asked for {file} with {threads}")
    return (median, p90), result.get("steps", [])


def time_in_sequence(interpreters, inputs, warmup, iterations):
    """Each interpreter's median and p90 in ms, and those of their sum, when every iteration invokes
    them one after the other."""
    for interpreter, arrays in zip(interpreters, inputs, strict=True):
        interpreter.allocate_tensors()
        for detail, tensor in zip(interpreter.get_input_details(), arrays, strict=True):
            interpreter.set_tensor(detail["index"], tensor)
    invokes = [interpreter.invoke for interpreter in interpreters]
    for _ in range(warmup):
        for invoke in invokes:
            invoke()
    samples = [[] for _ in invokes]
    clock = time.perf_counter_ns
    for _ in range(iterations):
        start = clock()
        for invoke, times in zip(invokes, samples):
            invoke()
            end = clock()
            times.append(end - start)
            start = end
    return [summary_ms(times) for times in samples] + [summary_ms([sum(run) for run in zip(*samples)])]


def attention_rows(interpreter_class, args, threads):
    """LiteRT's segments A and B against our steps of the whole attention mesh, best of the rounds."""
    peers = attention_model.segments(attention_model.read_verified(args.models / attention_model.MODEL_FILE))
    best = {}
    for _ in range(args.rounds):
        figures = time_in_sequence([interpreter_class(model_content=p.content, num_threads=threads) for p in peers],
                                   [attention_model.seeded_inputs(p) for p in peers], args.warmup, args.iterations)
        for key, figure in zip(("a", "b", "whole"), figures):
            best[f"litert_{key}"] = min(best.get(f"litert_{key}", figure), figure)
        whole, steps = time_ours(args.ours, args.models, attention_model.MODEL_FILE, threads, args.warmup, args.iterations)
        segments = [(s["median_ms"], s["p90_ms"]) for s in steps if s["step"].startswith("segment")]
        host = [(s["median_ms"], s["p90_ms"]) for s in steps if s["step"].startswith("host")]
        if len(segments) != 2 or len(host) != 2:
            fail(f"{args.ours} ran the attention mesh as {[s['step'] for s in steps]}; expected two segments and two host steps")
        for key, figure in (("a", segments[0]), ("b", segments[1]), ("custom_ops", tuple(map(sum, zip(*host)))),
                            ("whole", whole)):
            best[f"ours_{key}"] = min(best.get(f"ours_{key}", figure), figure)
    return [("attention_a", threads, best["litert_a"], best["ours_a"]),
            ("attention_b", threads, best["litert_b"], best["ours_b"]),
            ("attention_custom_ops", threads, None, best["ours_custom_ops"]),
            ("attention_whole", threads, best["litert_whole"], best["ours_whole"])]


def landmarker_rows(interpreter_class, args, threads):
    """The bundle's mesh and blendshape models, ours against LiteRT, best of the rounds; for a model
    run in several steps, also our segments and our host steps, each summed over the run."""
    rows = []
    for spec in LANDMARKER_MODELS:
        content = read_member(args.models, spec.file)
        name = f"{BUNDLE_FILE}:{spec.file}"
        best = {}
        for _ in range(args.rounds):
            figure = time_interpreter(interpreter_class(model_content=content, num_threads=threads),
                                      [random_input(spec, RANDOM_SEED)], args.warmup, args.iterations)
            best["litert"] = min(best.get("litert", figure), figure)
            whole, steps = time_ours(args.ours, args.models, name, threads, args.warmup, args.iterations, spec.value_range)
            best["ours"] = min(best.get("ours", whole), whole)
            for kind in ("segment", "host"):
                parts = [(s["median_ms"], s["p90_ms"]) for s in steps if s["step"].startswith(kind)]
                if parts:
                    total = tuple(map(sum, zip(*parts)))
                    best[kind] = min(best.get(kind, total), total)
            best["steps"] = len(steps)
        rows.append((spec.stem, threads, best["litert"], best["ours"]))
        if best["steps"] > 1:
            rows += [(f"{spec.stem}_segments", threads, None, best["segment"]),
                     (f"{spec.stem}_host", threads, None, best.get("host", (0.0, 0.0)))]
    return rows


def print_table(rows):
    header = ("model", "threads", "LiteRT ms", "p90", "ours ms", "p90", "ours/LiteRT", "P3 (<= 1.10 at 1t)")
    lines = [header]
    for stem, threads, litert, (om, op) in rows:
        if litert is None:
            lines.append((stem, str(threads), "-", "-", f"{om:.3f}", f"{op:.3f}", "-", "-"))
            continue
        lm, lp = litert
        lines.append((stem, str(threads), f"{lm:.3f}", f"{lp:.3f}", f"{om:.3f}", f"{op:.3f}", f"{om / lm:.3f}",
                      ("met" if om / lm <= P3_GOAL else "NOT met") if threads == 1 else "-"))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def summary_json(rows, thread_counts):
    summary = {"bench": "inference"}
    for n in thread_counts:
        summary[f"ratio_{n}t"] = {stem: round(om / litert[0], 3) for stem, t, litert, (om, _) in rows
                                  if t == n and litert is not None}
    stems = list(dict.fromkeys(row[0] for row in rows))
    summary["litert_ms"] = {stem: {f"{row[1]}t": round(row[2][0], 4) for row in rows if row[0] == stem and row[2]}
                            for stem in stems if any(row[0] == stem and row[2] for row in rows)}
    summary["ours_ms"] = {stem: {f"{row[1]}t": round(row[3][0], 4) for row in rows if row[0] == stem} for stem in stems}
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
    parser.add_argument("--iterations", type=count(1), default=150, help="timed invokes (default 150)")
    parser.add_argument("--rounds", type=count(1), default=10, help="alternating measurements per pair (default 10)")
    parser.add_argument("--threads", type=thread_list, default=[1, 2], help="thread counts (default 1,2)")
    args = parser.parse_args()

    check_inputs(args.models, args.ours)
    interpreter_class = load_litert()
    rows = []
    for threads in args.threads:
        for spec in MODELS:
            litert, ours = [], []
            for _ in range(args.rounds):
                litert.append(time_litert(interpreter_class, args.models / spec.file, spec, threads,
                                          args.warmup, args.iterations))
                ours.append(time_ours(args.ours, args.models, spec.file, threads, args.warmup, args.iterations)[0])
            rows.append((spec.stem, threads, min(litert), min(ours)))
            print(f"measured {spec.stem} at {threads} thread(s)", file=sys.stderr, flush=True)
        rows += attention_rows(interpreter_class, args, threads)
        print(f"measured the attention mesh at {threads} thread(s)", file=sys.stderr, flush=True)
        rows += landmarker_rows(interpreter_class, args, threads)
        print(f"measured the landmarker's mesh and blendshape models at {threads} thread(s)", file=sys.stderr, flush=True)
    print_table(rows)
    print(summary_json(rows, args.threads))


if __name__ == "__main__":
    main()
