#!/usr/bin/env bash
# Builds the Debian package faceworker_<version>_amd64.deb into OUTDIR (default: out):
#
#   packaging/make-deb.sh [OUTDIR]
#
# It holds the worker, built with --static-swift-stdlib so that it runs without a Swift toolchain;
# the models and their manifest; the systemd units; and the C client library with its header and
# pkg-config file. Depends: is what dpkg-shlibdeps finds for the worker and the library, so every
# shared library they load comes from a Debian package that dpkg insists on.
#
# The worker is built in its own scratch path (DEB_SCRATCH, default .build-deb): the static
# standard library changes every module's build flags, and sharing .build would throw away the
# ordinary release build each time.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
out=$(mkdir -p "${1:-out}" && cd "${1:-out}" && pwd)
scratch=${DEB_SCRATCH:-$repo/.build-deb}
models=${MODELS:-$repo/models}
swift=${SWIFT:-swift}

[ "$(dpkg --print-architecture)" = amd64 ] || { echo "error: the package is built for amd64 only" >&2; exit 1; }
for tool in dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || { echo "error: $tool is missing (scripts/install-deps.sh package installs it)" >&2; exit 1; }
done

control=$repo/packaging/control
version=$(sed -n 's/^Version: //p' "$control")
multiarch=x86_64-linux-gnu
deb=$out/faceworker_${version}_amd64.deb

"$swift" build -c release --product face-worker --static-swift-stdlib --scratch-path "$scratch"
worker=$("$swift" build -c release --product face-worker --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/face-worker

work=$(mktemp -d "$out/.deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Debian's own layout, debian/<package>/ with its DEBIAN/, where dpkg-shlibdeps expects binaries.
stage=$work/debian/faceworker
install -d "$stage/DEBIAN"

install -D -m 755 "$worker" "$stage/usr/bin/face-worker"
strip --strip-unneeded "$stage/usr/bin/face-worker"

# The worker looks for its models in share/faceworker/models beside its bin directory.
files=$(python3 -c 'import json, sys; print(*(f["name"] for f in json.load(open(sys.argv[1]))["files"]))' models.json)
install -d "$stage/usr/share/faceworker/models"
for file in $files; do
  install -m 644 "$models/$file" "$stage/usr/share/faceworker/models/"
done
install -m 644 models.json "$stage/usr/share/faceworker/models/manifest.json"

for unit in user/faceworker.socket user/faceworker.service system/faceworker.socket system/faceworker.service; do
  install -d "$stage/usr/lib/systemd/$(dirname "$unit")"
  sed 's|@BINDIR@|/usr/bin|' "systemd/$unit" >"$stage/usr/lib/systemd/$unit"
done

# Built apart from clients/c/build, whose pkg-config file names the prefix make install was given.
make --no-print-directory -C clients/c install BUILD="$work/c" PREFIX=/usr LIBDIR=/usr/lib/$multiarch \
  DESTDIR="$stage"
library=$(readlink -f "$stage/usr/lib/$multiarch/libfaceworker.so")
strip --strip-unneeded "$library"

# dpkg-shlibdeps reads the source package's name from debian/control; it refuses a library that
# no installed package's shlibs or symbols file covers, which keeps the toolchain's out.
printf 'Source: faceworker\n\nPackage: faceworker\nArchitecture: amd64\n' >"$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O -e"$stage/usr/bin/face-worker" -e"$library" |
  sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "error: dpkg-shlibdeps found no dependencies for the worker" >&2; exit 1; }

{
  sed '/^Description:/,$d' "$control"
  echo "Depends: $depends"
  # Building against the static library, or any program with the pkg-config file, needs
  # protobuf-c's development files; running the worker does not.
  echo "Suggests: libprotobuf-c-dev, pkg-config"
  echo "Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)"
  sed -n '/^Description:/,$p' "$control"
} >"$stage/DEBIAN/control"
# The shared library's soname link is in the package; the cache is the ldconfig trigger's.
echo "activate-noawait ldconfig" >"$stage/DEBIAN/triggers"

dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb: $(du -h "$deb" | cut -f1), Depends: $depends"
