#!/usr/bin/env bash
# Usage: run-with-worker.sh REPO_ROOT MODELS_DIR -- COMMAND...
# Starts the repository's face-worker on a private socket, runs COMMAND with
# the socket path appended, stops the worker and exits with COMMAND's status.
set -euo pipefail
root=$1 models=$2
shift 2
[ "${1:-}" = -- ] && shift

# FACEWORKER_BIN picks the build (a benchmark wants the release one).
worker=${FACEWORKER_BIN:-}
for candidate in "$root/.build/debug/face-worker" "$root/.build/release/face-worker"; do
  if [ -z "$worker" ] && [ -x "$candidate" ]; then worker=$candidate; fi
done
if [ -z "$worker" ]; then
  echo "error: face-worker is not built; run \`swift build --product face-worker\` at the repository root" >&2
  exit 1
fi

dir=$(mktemp -d)
socket=$dir/faceworker.sock
log=$dir/face-worker.log
"$worker" --socket "$socket" --models "$models" >"$log" 2>&1 &
pid=$!
stop() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap stop EXIT

# Loading four models takes a few seconds in a debug build.
for _ in $(seq 600); do
  [ -S "$socket" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "error: face-worker exited before listening:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.1
done
[ -S "$socket" ] || { echo "error: face-worker did not listen within 60 s" >&2; cat "$log" >&2; exit 1; }

status=0
"$@" "$socket" || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- face-worker log (last 40 lines) ---" >&2
  tail -n 40 "$log" >&2
fi
exit "$status"
