#!/usr/bin/env bash
# Installs the Debian packages of the named groups when any is missing:
#
#   scripts/install-deps.sh [worker] [client] [test] [bench] [proto] [package]     (default: worker)
#
# worker alone is what `make run` needs, so a first run installs no test tools; each other
# target names the groups it uses. Safe to run again: with everything present it only checks.
# Without a network to Debian's archive it says so in one line and changes nothing.
set -euo pipefail

declare -A groups=(
  # Building XNNPACK from Debian's sources (scripts/build-xnnpack.sh), JPEG decoding, and
  # fetching the models from PyPI's wheels (scripts/fetch-models.py).
  [worker]="cmake ninja-build patch python3 python3-pip libturbojpeg0-dev libjpeg62-turbo-dev"
  # The C client library and its pkg-config file, and its libuv adapter: make deb, the C tests,
  # face-bench.
  [client]="libprotobuf-c-dev protobuf-c-compiler pkg-config libuv1-dev"
  # The test suites: the clients' virtual environments, the C tests' leak checks and the C
  # library's ABI check, the gRPC proxy test (nginx with grpc_pass, TLS and HTTP/2, and its
  # certificates) and grpc-bench, which the gRPC tests run too.
  [test]="python3-venv valgrind abigail-tools nginx openssl libgrpc++-dev libprotobuf-dev protobuf-compiler-grpc"
  # The benchmarks: their virtual environments and grpc-bench, gRPC's C++ client.
  [bench]="python3-venv libgrpc++-dev libprotobuf-dev protobuf-compiler-grpc"
  # make proto: the protobuf compiler.
  [proto]="protobuf-compiler"
  # make deb: dpkg-shlibdeps, which finds the package's Depends:.
  [package]="dpkg-dev"
)

wanted=()
for group in "${@:-worker}"; do
  [ -n "${groups[$group]+set}" ] || { echo "error: no package group '$group' (groups: ${!groups[*]})" >&2; exit 2; }
  read -r -a list <<<"${groups[$group]}"
  wanted+=("${list[@]}")
done

missing=()
for p in $(printf '%s\n' "${wanted[@]}" | sort -u); do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: apt-get not found. FaceWorker's set-up expects Debian 12; install these packages by hand: ${missing[*]}" >&2
  exit 1
fi

# Before anything is touched: can apt reach the first archive it is configured with? apt-get
# update would otherwise fail after many lines, with policy-rc.d already written.
uri=$(grep -hoE '^[^#]*https?://[^ ]+' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
        /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -oE 'https?://[^ ]+' | head -n 1 || true)
if [ -n "$uri" ] && [ -z "${http_proxy:-}${https_proxy:-}" ] && ! apt-config dump 2>/dev/null | grep -qi '^Acquire::https\?::Proxy '; then
  host=${uri#*://}; host=${host%%/*}; port=80
  case $uri in https://*) port=443 ;; esac
  if ! timeout 15 bash -c "exec 3<>/dev/tcp/${host%:*}/$port" 2>/dev/null; then
    echo "error: no network to Debian's archive ($host); nothing was changed. Missing: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "Installing Debian packages: ${missing[*]}"
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
