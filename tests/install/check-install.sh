#!/usr/bin/env bash
# `make install` into a temporary DESTDIR: checks the installed tree, builds a
# program with the installed pkg-config file, has it ping the installed worker
# (started without --models, so it must find the installed models), then
# `make uninstall` and checks that nothing it installed is left. INSTALL_CONFIG
# names the build installed (release unless set; `make test-install` sets debug).
set -euo pipefail
cd "$(dirname "$0")/../.."

root=$(mktemp -d /tmp/fw-install-XXXXXX)
worker=
cleanup() {
  [ -n "$worker" ] && kill "$worker" 2>/dev/null || true
  rm -rf "$root"
}
trap cleanup EXIT
fail() { echo "test-install: $*" >&2; exit 1; }

prefix=/usr/local
dest=$root/dest
installed=$dest$prefix
make --no-print-directory install DESTDIR="$dest" PREFIX="$prefix" CONFIG="${INSTALL_CONFIG:-release}" >"$root/install.log" 2>&1 ||
  { cat "$root/install.log" >&2; fail "make install failed"; }

# The model files are the ones the manifest lists, and the manifest beside them.
models=$(python3 -c 'import json, sys; print(*(f["name"] for f in json.load(open(sys.argv[1]))["files"]))' models.json)
for file in bin/face-worker include/faceworker.h lib/libfaceworker.a lib/libfaceworker.so lib/pkgconfig/faceworker.pc \
    share/faceworker/models/manifest.json $(printf 'share/faceworker/models/%s ' $models); do
  [ -e "$installed/$file" ] || fail "make install did not install $prefix/$file"
done
cmp -s models.json "$installed/share/faceworker/models/manifest.json" || fail "the installed manifest.json is not models.json"
[ -x "$installed/bin/face-worker" ] || fail "the installed face-worker is not executable"
for unit in user/faceworker.socket user/faceworker.service system/faceworker.socket system/faceworker.service; do
  [ -e "$installed/lib/systemd/$unit" ] || fail "make install did not install $prefix/lib/systemd/$unit"
done
grep -q "^ExecStart=$prefix/bin/face-worker " "$installed/lib/systemd/system/faceworker.service" ||
  fail "the installed service does not start $prefix/bin/face-worker"
echo "test-install: the installed tree has the worker, the models, the C library and the systemd units"

# systemd-analyze verify checks that ExecStart's binary exists, so it checks
# copies that start the binary where DESTDIR put it.
if command -v systemd-analyze >/dev/null; then
  for scope in user system; do
    mkdir -p "$root/verify/$scope"
    for unit in "$installed/lib/systemd/$scope"/*; do
      sed "s|^ExecStart=$prefix/bin/|ExecStart=$installed/bin/|" "$unit" >"$root/verify/$scope/$(basename "$unit")"
    done
    flags=()
    [ "$scope" = user ] && flags=(--user)
    # The user manager resolves %t from XDG_RUNTIME_DIR, which a CI shell may lack.
    mkdir -p "$root/run"
    # A key systemd does not know is only a warning, so any output fails too.
    said=$(cd "$root/verify/$scope" && XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$root/run}" \
      systemd-analyze verify "${flags[@]}" faceworker.socket faceworker.service 2>&1) ||
      fail "systemd-analyze verify refuses the $scope units: $said"
    [ -z "$said" ] || fail "systemd-analyze verify warns about the $scope units: $said"
  done
  echo "test-install: systemd-analyze verify accepts the user and system units"
else
  echo "test-install: systemd-analyze is not installed; the units were not verified"
fi

cat >"$root/ping.c" <<'C'
#include <faceworker.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    fw_error err;
    fw_client *client = fw_connect(argv[1], &err);
    if (!client) {
        fprintf(stderr, "connect: %s\n", err.message);
        return 1;
    }
    int rc = fw_ping(client, "installed", 9, &err);
    if (rc != FW_OK)
        fprintf(stderr, "ping: %s\n", err.message);
    fw_close(client);
    return rc == FW_OK ? 0 : 1;
}
C
# The .pc file names $(PREFIX) paths; the sysroot variable points them into DESTDIR.
flags=$(PKG_CONFIG_SYSROOT_DIR="$dest" PKG_CONFIG_PATH="$installed/lib/pkgconfig" pkg-config --cflags --libs faceworker)
cc -std=c11 -Wall -Werror "$root/ping.c" $flags -o "$root/ping" || fail "a program does not build with: pkg-config faceworker ($flags)"

(cd "$root" && exec "$installed/bin/face-worker" --socket "$root/worker.sock") >"$root/worker.log" 2>&1 &
worker=$!
for _ in $(seq 1 300); do
  [ -S "$root/worker.sock" ] && break
  kill -0 "$worker" 2>/dev/null || { cat "$root/worker.log" >&2; fail "the installed worker exited"; }
  sleep 0.1
done
grep -q "models=$installed/share/faceworker/models" "$root/worker.log" ||
  { cat "$root/worker.log" >&2; fail "the installed worker did not default to the installed models"; }
LD_LIBRARY_PATH="$installed/lib" "$root/ping" "$root/worker.sock" || fail "the program could not ping the installed worker"
kill -TERM "$worker"
wait "$worker" || fail "the installed worker did not stop cleanly"
worker=
echo "test-install: a program built with the installed pkg-config file pings the installed worker, which found the installed models"

make --no-print-directory uninstall DESTDIR="$dest" PREFIX="$prefix" >"$root/uninstall.log" 2>&1 ||
  { cat "$root/uninstall.log" >&2; fail "make uninstall failed"; }
left=$(find "$dest" -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "test-install: make uninstall removes everything make install put there"
