#!/usr/bin/env bash
# Every make bench* driver, run for a few iterations on the debug build the tests made, so that
# none of them rots unseen between the runs that measure. A debug build's figures mean nothing;
# what is checked is that each driver runs to its end and prints its JSON summary with the
# figures its table is made of.
set -euo pipefail
cd "$(dirname "$0")/../.."

bin=.build/debug
tools=.venv-tools/bin/python
frames=Tests/Fixtures/video
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export FACEWORKER_BENCH_RESULTS=$scratch/results

# The summary is the last line of the output; it must be JSON and hold every key named.
check() {
  local name=$1 output=$2
  shift 2
  python3 - "$name" "$output" "$@" <<'PY'
import json, sys
name, output, keys = sys.argv[1], sys.argv[2], sys.argv[3:]
lines = [line for line in open(output).read().splitlines() if line.strip()]
try:
    summary = json.loads(lines[-1])
except (IndexError, ValueError):
    sys.exit(f"{name}: no JSON summary on its last line:\n" + "\n".join(lines[-20:]))
missing = [key for key in keys if summary.get(key) is None]
if missing:
    sys.exit(f"{name}: the summary lacks {', '.join(missing)}: {summary}")
print(f"{name}: ran to its summary ({len(summary)} figures)")
PY
}

$tools -m tools.bench.bench_inference --models models --ours $bin/inference-bench --warmup 1 --bursts 1 --burst-ms 5 \
  --threads 1 >"$scratch/inference.txt"
check bench-inference "$scratch/inference.txt" bench

$tools -m tools.bench.bench_pipeline --frames $frames --models models --ours $bin/pipeline-bench --warmup 1 --iterations 2 \
  --rounds 1 --sampling-runs 2 >"$scratch/pipeline.txt"
check bench-pipeline "$scratch/pipeline.txt" detect_ratio landmarks_ratio tasks_ratio sampling_ms

$tools -m tools.bench.bench_pipeline --sampling-only --ours $bin/pipeline-bench --sampling-runs 2 >"$scratch/sampling.txt"
check bench-sampling "$scratch/sampling.txt" sampling_ms

$tools -m tools.bench.bench --worker $bin/face-worker --face-bench clients/c/build/face-bench \
  --client-python .venv-client/bin/python --grpc-python .venv-grpc/bin/python \
  --grpc-bench tools/bench/grpc-bench/build/grpc-bench --tasks-python .venv-tasks/bin/python \
  --models models --frames $frames --png "$scratch/latency.png" \
  --starts 1 --rounds 1 --warmup 1 --iterations 3 --live-seconds 1 --pings 20 --raw-iterations 2 >"$scratch/bench.txt"
check bench "$scratch/bench.txt" p1_ratio p1t_ratio p2_ratio p2t_ratio p2t_python_ratio p2t_busy_neighbour_ratio \
  p2t_with_stream_ratio first_frame_ratio p5_ratio p6_us p7_streams p7t_streams p1_grpc_ratio python_result_us
