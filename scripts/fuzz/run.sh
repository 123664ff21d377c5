#!/usr/bin/env bash
# Builds the libFuzzer targets (the Swift ones in the AddressSanitizer build they share with make
# test-asan, ASAN_SCRATCH or .build-asan; the C client's reader in its own build tree), writes their
# seed corpora, and runs each for SECONDS seconds (default 20), one after another. Each target's
# corpus grows in <scratch>/fuzz/corpus/<target> from run to run; its seeds and the inputs of
# crashes found and fixed before (scripts/fuzz/regressions/<target>) run first. A crash stops the
# run, with its input in <scratch>/fuzz/crashes/<target>/. The last lines are a table: each
# target's executions per second and the coverage it reached.
#
#   run.sh SECONDS [TARGET...]     environment: SWIFT, PYTHON (the Python client's environment),
#                                  ASAN_SCRATCH
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
seconds=${1:-20}
shift || true
swift_targets=(FrameDecoder Connection FrameAdmission JPEG TFLite FlexBuffers TaskBundle GeometryMetadata)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${swift_targets[@]}" CReader)
swift=${SWIFT:-swift}
python=${PYTHON:-.venv-client/bin/python}
scratch=${ASAN_SCRATCH:-.build-asan}
state=$scratch/fuzz

swift_products=()
for target in "${targets[@]}"; do
  [ "$target" = CReader ] || swift_products+=("fuzz-$target")
done
SWIFT=$swift scripts/sanitize/build-asan.sh "$scratch" "${swift_products[@]}"
"$python" scripts/fuzz/make-seeds.py "$state/seeds" models clients/c/tests/fixtures/worker-answers.bin

summary=()
for target in "${targets[@]}"; do
  if [ "$target" = CReader ]; then
    make --no-print-directory -C clients/c/fuzz >/dev/null
    binary=clients/c/build/fuzz/fuzz_reader
    leaks=1
  else
    binary=$scratch/debug/fuzz-$target
    # The Swift runtime's caches, kept for the process's life, would count as each input's leaks;
    # the worker's leaks are the business of the suites under valgrind and AddressSanitizer.
    leaks=0
  fi
  corpus=$state/corpus/$target crashes=$state/crashes/$target
  mkdir -p "$corpus" "$crashes"
  regressions=()
  [ -d "scripts/fuzz/regressions/$target" ] && regressions=("scripts/fuzz/regressions/$target")
  log=$state/$target.log
  echo "fuzzing $target for $seconds s"
  if ! ASAN_OPTIONS=detect_leaks=$leaks FACEWORKER_MODELS=models "$binary" -max_total_time="$seconds" -print_final_stats=1 -detect_leaks=$leaks \
      -rss_limit_mb=4096 -artifact_prefix="$crashes/" "$corpus" "$state/seeds/$target" "${regressions[@]}" >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    echo "error: fuzz-$target crashed; the input is in $crashes/" >&2
    exit 1
  fi
  # Instrumented, each Swift target's libraries carry thousands of coverage counters (4,335 for
  # the smallest, JPEG); their main file alone has a few dozen. Fuzzing without them is blind.
  counters=$(sed -n 's/^INFO: Loaded [0-9]* modules *(\([0-9]*\) inline 8-bit counters.*/\1/p' "$log" | head -n 1)
  if [ "$target" != CReader ] && [ "${counters:-0}" -lt 1000 ]; then
    echo "error: fuzz-$target has ${counters:-no} coverage counters: its libraries were built without coverage" >&2
    exit 1
  fi
  # The last status line: DONE when the time ran out between two status lines, else the last one.
  done_line=$(grep -E '^#[0-9]+[[:space:]].* cov: ' "$log" | tail -n 1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' <<<"$done_line")
  ft=$(sed -n 's/.* ft: \([0-9]*\) .*/\1/p' <<<"$done_line")
  execs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  summary+=("$(printf '%-18s %10s %12s %8s %8s %8s' "$target" "$seconds" "$units" "$execs" "$cov" "$ft")")
done
printf '%-18s %10s %12s %8s %8s %8s\n' target seconds executions exec/s cov features
printf '%s\n' "${summary[@]}"
