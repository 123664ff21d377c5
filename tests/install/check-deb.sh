#!/usr/bin/env bash
# The Debian package, as a machine without Swift meets it:
#
#   tests/install/check-deb.sh out/faceworker_<version>_amd64.deb
#
# - dpkg installs it into a scratch root whose database holds the packages of its Depends:;
# - into a scratch root missing them, dpkg refuses it with its own message;
# - ldd on the installed worker names only libraries that a package of Depends: provides;
# - with an empty directory mounted over the Swift toolchain's runtime libraries, the installed
#   worker (started without --models, so it must find the installed ones) answers a JPEG frame
#   from a program built with the installed header and pkg-config file, linked to the installed
#   library.
# Runs as root, or as any user through a user namespace.
set -euo pipefail
cd "$(dirname "$0")/../.."

deb=$(readlink -f "${1:?usage: check-deb.sh PACKAGE.deb}")
fail() { echo "test-deb: $*" >&2; exit 1; }

if [ "$(id -u)" -ne 0 ] && [ -z "${FACEWORKER_DEB_NAMESPACE:-}" ]; then
  FACEWORKER_DEB_NAMESPACE=1 exec unshare --map-root-user --mount "$0" "$@"
fi

scratch=$(mktemp -d /tmp/fw-deb-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
multiarch=x86_64-linux-gnu

# The package names of Depends:, without versions or alternatives.
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed -E 's/\|.*//; s/\(.*\)//; s/[[:space:]]//g' | grep .)

# A root whose dpkg database says which packages are installed: those named, as the host has them.
make_root() {
  local root=$1; shift
  mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
  : >"$root/var/lib/dpkg/status"
  local package
  for package in "$@"; do
    { dpkg-query -s "$package"; echo; } >>"$root/var/lib/dpkg/status"
    # Their files are the host's, not the root's: an empty list says so without a warning.
    : >"$root/var/lib/dpkg/info/$(dpkg-query -W -f='${binary:Package}' "$package").list"
  done
}

missing=$(echo "$depends" | head -n 1)
make_root "$scratch/incomplete" $(echo "$depends" | grep -vx "$missing")
if said=$(dpkg --root="$scratch/incomplete" --install "$deb" 2>&1); then
  fail "dpkg installed the package without $missing"
fi
echo "$said" | grep -q "faceworker depends on $missing" ||
  fail "dpkg's refusal does not name $missing: $said"
echo "test-deb: without $missing, dpkg refuses the package: $(echo "$said" | grep -m1 'depends on')"

root=$scratch/root
make_root "$root" $depends
dpkg --root="$root" --install "$deb" >"$scratch/install.log" 2>&1 || { cat "$scratch/install.log" >&2; fail "dpkg --install failed"; }
[ "$(dpkg --root="$root" -s faceworker | sed -n 's/^Status: //p')" = "install ok installed" ] ||
  fail "dpkg does not report the package installed"
for file in usr/bin/face-worker usr/share/faceworker/models/manifest.json usr/include/faceworker.h \
    usr/lib/$multiarch/pkgconfig/faceworker.pc usr/lib/$multiarch/libfaceworker.so usr/lib/systemd/system/faceworker.socket \
    usr/lib/systemd/system/faceworker.service usr/lib/systemd/user/faceworker.socket usr/lib/systemd/user/faceworker.service; do
  [ -e "$root/$file" ] || fail "the package does not install /$file"
done
grep -q '^ExecStart=/usr/bin/face-worker ' "$root/usr/lib/systemd/system/faceworker.service" ||
  fail "the system service does not start /usr/bin/face-worker"
echo "test-deb: dpkg installs the package into a scratch root holding its Depends: ($(echo $depends))"

# Every library the worker loads belongs to a package that Depends: names.
ldd "$root/usr/bin/face-worker" >"$scratch/ldd" || fail "ldd cannot read the installed worker"
! grep -q 'not found' "$scratch/ldd" || fail "the installed worker needs libraries this machine lacks: $(cat "$scratch/ldd")"
for library in $(grep -oE '/[^ ]+' "$scratch/ldd"); do
  owner=
  for path in "$library" "$(readlink -f "$library")" "${library#/usr}"; do
    owner=$(dpkg -S "$path" 2>/dev/null | head -n 1 | cut -d: -f1) && [ -n "$owner" ] && break
  done
  [ -n "$owner" ] || fail "no Debian package provides $library, which the worker loads"
  echo "$depends" | grep -qx "$owner" || fail "the worker loads $library from $owner, which Depends: does not name"
done
echo "test-deb: ldd names only libraries of packages in Depends: ($(grep -oE '^[[:space:]]*[^ ]+' "$scratch/ldd" | xargs))"

cat >"$scratch/faces.c" <<'C'
#include <faceworker.h>
#include <stdio.h>
#include <stdlib.h>

/* Sends one JPEG to the worker and prints how many faces it found. */
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[2], "rb");
    static uint8_t jpeg[1 << 20];
    size_t len = f ? fread(jpeg, 1, sizeof jpeg, f) : 0;
    if (!len)
        return 2;
    fw_error err;
    fw_client *client = fw_connect(argv[1], &err);
    if (!client) {
        fprintf(stderr, "connect: %s\n", err.message);
        return 1;
    }
    fw_session_options options;
    fw_session_options_init(&options);
    fw_session *session = fw_open_session(client, &options, &err);
    fw_result *result;
    if (!session || fw_process_jpeg(session, jpeg, len, 0, &result, &err) != FW_OK) {
        fprintf(stderr, "frame: %s\n", err.message);
        fw_close(client);
        return 1;
    }
    printf("%zu\n", fw_result_face_count(result));
    fw_result_free(result);
    fw_close(client);
    return 0;
}
C
# The .pc file names /usr paths; the sysroot variable points them into the scratch root.
flags=$(PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_PATH="$root/usr/lib/$multiarch/pkgconfig" pkg-config --cflags --libs faceworker)
cc -std=c11 -Wall -Werror "$scratch/faces.c" $flags -o "$scratch/faces" || fail "a program does not build with: pkg-config faceworker ($flags)"

# Where the toolchain keeps libswiftCore.so and the rest of the Swift runtime.
runtime=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["paths"]["runtimeLibraryPaths"][0])')
[ -e "$runtime/libswiftCore.so" ] || fail "no Swift runtime in $runtime to hide"
mkdir "$scratch/empty"
export root scratch runtime multiarch
unshare --mount bash -euo pipefail -c '
  mount --bind "$scratch/empty" "$runtime"
  [ ! -e "$runtime/libswiftCore.so" ] || { echo "test-deb: the Swift runtime is still in reach" >&2; exit 1; }
  "$root/usr/bin/face-worker" --socket "$scratch/worker.sock" >"$scratch/worker.log" 2>&1 &
  worker=$!
  trap "kill $worker 2>/dev/null || true" EXIT
  until [ -S "$scratch/worker.sock" ]; do
    kill -0 $worker 2>/dev/null || { cat "$scratch/worker.log" >&2; echo "test-deb: the installed worker exited" >&2; exit 1; }
    sleep 0.1
  done
  grep -q "models=$root/usr/share/faceworker/models" "$scratch/worker.log" ||
    { cat "$scratch/worker.log" >&2; echo "test-deb: the worker did not default to the installed models" >&2; exit 1; }
  faces=$(LD_LIBRARY_PATH="$root/usr/lib/$multiarch" "$scratch/faces" "$scratch/worker.sock" \
    Tests/Fixtures/astronaut.jpg) || { echo "test-deb: the frame was not answered" >&2; exit 1; }
  [ "$faces" = 1 ] || { echo "test-deb: the installed worker found $faces faces in astronaut.jpg, not 1" >&2; exit 1; }
  kill -TERM $worker
  wait $worker || { echo "test-deb: the installed worker did not stop cleanly" >&2; exit 1; }
  trap - EXIT
'
echo "test-deb: with the Swift runtime out of reach, the installed worker answers a frame from a program built with the installed pkg-config file"
echo "test-deb: $(basename "$deb") is $(stat -c %s "$deb") bytes"
