"""Per-model invoke time: our XNNPACK runtime against LiteRT's interpreter (goal P3).

    make bench-inference
    .venv-tools/bin/python tools/bench_inference.py --models models --ours .build/release/inference-bench

For every model and thread count both runtimes get the same seeded input (SplitMix64, seed 1,
see model_inputs.RANDOM_DESCRIPTION), are warmed up, and are then timed invoke by invoke.
The pair is measured --rounds times, alternating, and each side keeps its round with the lowest
median: on a small shared machine a burst of other work then spoils one round, not the ratio.
LiteRT is timed here with time.perf_counter_ns around Interpreter.invoke() (XNNPACK is its
default CPU path); ours is timed by the executable itself, run as

    <ours> --models DIR --model <file> --threads N --warmup W --iterations I

which prints one JSON line: {"model": ..., "threads": N, "median_ms": ..., "p90_ms": ..., "iterations": I}.

The output is a table, then, as the very last line, one JSON object:
{"bench": "inference", "ratio_<N>t": {model: ours/LiteRT median}, ...,
 "litert_ms": {model: {"<N>t": median}}, "ours_ms": {model: {"<N>t": median}}}
with model names lacking ".tflite". P3 is met when every 1-thread ratio is at most 1.10.
"""

import argparse
import json
import sys
import time
from pathlib import Path

from model_inputs import MODELS, RANDOM_SEED, random_input

from bench_args import count
from bench_process import fail, median_and_p90, require_executable, run_json, summary_ms

P3_GOAL = 1.10
OURS_TIMEOUT_S = 600


def load_litert():
    try:
        from ai_edge_litert.interpreter import Interpreter
    except ImportError:
        fail("LiteRT's Python package is not installed in this interpreter; `make venv` creates .venv-tools")
    return Interpreter


def check_inputs(models_dir, ours):
    for spec in MODELS:
        if not (models_dir / spec.file).is_file():
            fail(f"model {models_dir / spec.file} is missing; `make models` fetches it")
    require_executable(ours, "bench-inference")


def time_litert(interpreter_class, path, spec, threads, warmup, iterations):
    interpreter = interpreter_class(model_path=str(path), num_threads=threads)
    interpreter.allocate_tensors()
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], random_input(spec, RANDOM_SEED))
    invoke = interpreter.invoke
    for _ in range(warmup):
        invoke()
    samples = []
    clock = time.perf_counter_ns
    for _ in range(iterations):
        start = clock()
        invoke()
        samples.append(clock() - start)
    return summary_ms(samples)


def time_ours(ours, models_dir, spec, threads, warmup, iterations):
    command = [str(ours), "--models", str(models_dir), "--model", spec.file, "--threads", str(threads),
               "--warmup", str(warmup), "--iterations", str(iterations)]
    result = run_json(command, OURS_TIMEOUT_S)
    median, p90 = median_and_p90(result, command)
    if result.get("model") != spec.file or result.get("threads") != threads:
        fail(f"{ours} answered for {result.get('model')} with {result.get('threads')} threads, "
             f"asked for {spec.file} with {threads}")
    return median, p90


def print_table(rows):
    header = ("model", "threads", "LiteRT ms", "p90", "ours ms", "p90", "ours/LiteRT", "P3 (<= 1.10 at 1t)")
    lines = [header] + [
        (stem, str(threads), f"{lm:.3f}", f"{lp:.3f}", f"{om:.3f}", f"{op:.3f}", f"{om / lm:.3f}",
         ("met" if om / lm <= P3_GOAL else "NOT met") if threads == 1 else "-")
        for stem, threads, (lm, lp), (om, op) in rows
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def summary_json(rows, thread_counts):
    summary = {"bench": "inference"}
    for n in thread_counts:
        summary[f"ratio_{n}t"] = {stem: round(om / lm, 3) for stem, t, (lm, _), (om, _) in rows if t == n}
    for key, pick in (("litert_ms", lambda row: row[2][0]), ("ours_ms", lambda row: row[3][0])):
        summary[key] = {spec.stem: {f"{row[1]}t": round(pick(row), 4) for row in rows if row[0] == spec.stem}
                        for spec in MODELS}
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
    parser.add_argument("--iterations", type=count(1), default=500, help="timed invokes (default 500)")
    parser.add_argument("--rounds", type=count(1), default=3, help="alternating measurements per pair (default 3)")
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
                ours.append(time_ours(args.ours, args.models, spec, threads, args.warmup, args.iterations))
            rows.append((spec.stem, threads, min(litert), min(ours)))
            print(f"measured {spec.stem} at {threads} thread(s)", file=sys.stderr, flush=True)
    print_table(rows)
    print(summary_json(rows, args.threads))


if __name__ == "__main__":
    main()
