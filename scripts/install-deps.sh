#!/usr/bin/env bash
# Installs the Debian packages FaceWorker builds against, when any is missing.
# Safe to run again: with everything present it only checks and exits.
set -euo pipefail

packages=(
  cmake ninja-build patch python3     # building XNNPACK from Debian's sources (scripts/build-xnnpack.sh)
  libturbojpeg0-dev                   # JPEG decoding
  libprotobuf-c-dev protobuf-c-compiler protobuf-compiler   # C client and `make proto`
  python3-venv python3-pip            # virtual environments for the benchmarks and clients
  valgrind pkg-config                 # the C client's leak-checked tests and its pkg-config file
  libuv1-dev abigail-tools            # the C client's libuv adapter and its ABI check
  nginx openssl                       # the gRPC proxy test: nginx (grpc_pass, TLS, HTTP/2) and its certificates
  libgrpc++-dev libprotobuf-dev protobuf-compiler-grpc   # grpc-bench, gRPC's C++ client for the gRPC rows of make bench
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing Debian packages: ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: apt-get not found. FaceWorker's set-up expects Debian 12; install these packages by hand: ${missing[*]}" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "error: not root and sudo is not available; as root run: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
# The tests start nginx themselves, unprivileged, with a configuration of their own; nginx's
# package would otherwise start the system's service on port 80. While apt-get runs, a
# policy-rc.d that says "no" keeps every package's service stopped; one already in place is kept.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  trap '"${sudo[@]}" rm -f "$policy"' EXIT
  printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null
  "${sudo[@]}" chmod 755 "$policy"
fi
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
