#!/usr/bin/env bash
# The AddressSanitizer build make test-asan and the libFuzzer targets (scripts/fuzz/run.sh) share,
# in SCRATCH: the package is compiled once for the test bundle, the worker and every fuzz target,
# where a build of its own for the fuzz targets would cost a fresh clone's make test another half
# hour. Both callers must build with exactly these flags, or each would compile it all again.
#
# libFuzzer steers by the coverage of the code a fuzz target reaches, so everything is compiled
# with the coverage -sanitize=fuzzer would add (edge counters and their table of PCs, comparisons,
# indirect calls, stack depth). Only the fuzz targets link libFuzzer (Package.swift says why); in
# the test bundle and the worker the AddressSanitizer runtime's empty hooks take those calls.
#
# Each caller names the products it runs, so the benchmarks and examples are never built.
#
#   build-asan.sh SCRATCH PRODUCT...      environment: SWIFT
set -euo pipefail

cd "$(dirname "$0")/../.."
scratch=$1
shift
flags=(--sanitize=address
  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp,indirect-calls
  -Xswiftc -Xllvm -Xswiftc -sanitizer-coverage-stack-depth)
# The Swift driver rebuilds a module when its sources change, not when its flags do: a tree built
# before with other flags would keep its objects, and the fuzz targets would run on libraries
# without coverage (libFuzzer then sees a few dozen counters instead of thousands). So a tree
# whose recorded flags differ is built again from nothing.
stamp=$scratch/sanitize-flags
if [ -d "$scratch" ] && [ "$(cat "$stamp" 2>/dev/null)" != "${flags[*]}" ]; then
  echo "$scratch was built with other flags; building it again from nothing"
  rm -rf "$scratch"
fi
mkdir -p "$scratch"
printf '%s' "${flags[*]}" >"$stamp"
for product in "$@"; do
  FACEWORKER_FUZZ=1 "${SWIFT:-swift}" build "${flags[@]}" --scratch-path "$scratch" --product "$product"
done
