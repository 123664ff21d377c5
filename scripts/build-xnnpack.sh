#!/usr/bin/env bash
# Builds XNNPACK, with the cpuinfo, pthreadpool and FXdiv it is built against, from the source
# tarballs in Debian's archive, into a prefix inside the repository (.deps/xnnpack by default).
# Debian 12 ships a 2022-02 XNNPACK; this is Debian 13's 2024-11 snapshot.
#
# Does nothing when the prefix holds a build of exactly the pinned sources. Each tarball is
# fetched with apt's own downloader, which refuses a file whose SHA-256 differs from the pin;
# the pins are those of the archive's signed Sources index. The build happens in a scratch
# directory and replaces the prefix only once it is complete, so a failure leaves no half-built
# prefix behind.
#
# Only the upstream tarballs (*.orig.tar.xz) are used: Debian's mirror serves them, while the
# source packages' .dsc and .debian.tar.xz files (Debian's own build rules, which build every
# microkernel as a shared library) are not served by it. trixie's cpuinfo tarball is not served
# either; sid's newer snapshot is, and XNNPACK builds against it. pthreadpool is sid's 2025-10
# snapshot rather than trixie's 2024-06 one: its callers no longer wait for a worker that has not
# joined a parallel operator, which is what made split runs slow when a worker was descheduled.
#
# It is compiled with the clang of the Swift toolchain that builds the package, not Debian 12's
# gcc 12: gcc scalarises the AVX kernels that select lanes by sign with blendv (PReLU among them:
# each lane's sign bit tested with a branch), and on a machine with AVX2 but not AVX-512 the
# gcc-built library ran the Face Landmarker's mesh 2.7 times slower and the detectors 1.5 to 1.8
# times slower than the same sources built with clang.
#
# XNNPACK_SANITIZE=thread makes the ThreadSanitizer variant, .deps/xnnpack-tsan: the plain prefix's
# XNNPACK and cpuinfo (built first if missing) with pthreadpool compiled with -fsanitize=thread, so
# that the tool sees the pool hand each operator's task to its workers and the caller wait for
# them. Without it, every read of a task by a worker looks unordered with the caller's write.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
sanitize=${XNNPACK_SANITIZE:-}
case $sanitize in
  "") variant= ;;
  thread) variant=-tsan ;;
  *) echo "error: XNNPACK_SANITIZE=$sanitize: only thread is built" >&2; exit 1 ;;
esac
prefix=${XNNPACK_PREFIX:-$repo/.deps/xnnpack$variant}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

# name  source package version  pool path of the upstream tarball  its SHA-256
# (the .dsc's SHA-256 is the source package's identity in the index, kept for whoever checks)
pins=(
  "xnnpack 0.0~git20241108.4ea82e5-2 pool/main/x/xnnpack/xnnpack_0.0~git20241108.4ea82e5.orig.tar.xz 90bde2caef0f880f627bab0dc805a86c4b8070cd98e3243db3046ab3f3be1a99 dsc:defa47997f0e383e3d6298967be0a9f4cca4ce743a64b1814fafce0fc3efe1e7"
  "cpuinfo 0.0~git20250905.877328f-1 pool/main/c/cpuinfo/cpuinfo_0.0~git20250905.877328f.orig.tar.xz 557ca404a3836b9f335a3a06b65ff9fe9dbaaefab7fb5c0185f53d9f33615a10 dsc:7c233bad30a12fa86704d468f71ee93538a45b14f22d64a164101df939e962d0"
  "pthreadpool 0.0~git20251020.0e6ca13-1.1 pool/main/p/pthreadpool/pthreadpool_0.0~git20251020.0e6ca13.orig.tar.xz 7a385b6585abe8f8658952c50b44a1dabe200de2c88eabe65d15168b8a82295c dsc:6ffc2e004468b33afe4d47583c02cf34392c8a4adcc3dafd634f869c36d4866e"
  "fxdiv 0.0~git20200417.b408327-4 pool/main/f/fxdiv/fxdiv_0.0~git20200417.b408327.orig.tar.xz 7953482badaf4cb34026c3487c257b8e4ab2df061c019bd6fabbbc12ad52c44b dsc:dabdcfe7300587612cffd1ce7eb7ba6e1fd1082059750a071acd9f4f968609a7"
)
swift=$(command -v swift) || { echo "error: swift is not on PATH; XNNPACK is built with the Swift toolchain's clang" >&2; exit 1; }
toolchain=$(dirname "$(readlink -f "$swift")")
cc=$toolchain/clang
cxx=$toolchain/clang++
[ -x "$cc" ] && [ -x "$cxx" ] || { echo "error: the Swift toolchain in $toolchain has no clang and clang++ to build XNNPACK with" >&2; exit 1; }
# What the prefix was built from, with how (the flags below, the compiler above, the patches): a
# change to any of them rebuilds it.
cmake_flags=(
  -G Ninja
  -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON
  -DXNNPACK_LIBRARY_TYPE=static
  -DXNNPACK_BUILD_ALL_MICROKERNELS=OFF
  -DXNNPACK_BUILD_TESTS=OFF
  -DXNNPACK_BUILD_BENCHMARKS=OFF
  -DXNNPACK_ENABLE_KLEIDIAI=OFF
)
# One change to XNNPACK's source, backported from upstream (2025): a convolution with at most 16
# output channels uses AVX-512 kernels 16 wide (7x16) instead of 32 wide (7x32), which would spend
# half their work or more on padding. LiteRT's XNNPACK does the same; the Face Landmarker's mesh
# has many 8- and 16-channel convolutions at 128x128. We widen its rule: a wider convolution runs
# 16 wide too when that pads fewer channels (36 or 42 take 48 columns rather than 64, 72 or 80 take
# 80 rather than 96), as most of BlazeFace's do. Both kernels sum each output in the same order, so
# the results are the same to the bit. On a 2-core AMD EPYC the short-range detector's matrix
# products went from 241 to 209 us over two threads, its whole run from about 0.58 to 0.51 ms.
#
# And one of ours: an operator that writes under 32 KB, other than a convolution or a matrix
# multiplication, runs on the calling thread rather than split over the pool. Such operators take
# a microsecond or two, and handing one to another core cost more than that: the Face Landmarker's
# blendshape model (about a hundred of them between its matrix multiplications) ran in 0.47 ms
# over two threads and 0.36 ms so, and the attention mesh in 1.35 against 1.24 ms.
#
# And another of ours: a split convolution's task covers up to 16 of its microkernel's row blocks
# instead of one, as long as each thread keeps 16 tasks or more. Each task ends with an atomic
# update that waits for the task's stores; on the narrow 128x128 and 64x64 layers of the meshes
# those waits took a tenth of a split run. Over two threads the Face Landmarker's mesh went from
# 2.74 to 2.46 ms and the face mesh from 0.79 to 0.74 ms, with the same results to the bit.
#
# And a third of ours: a pad of the innermost dimension alone (BlazeFace widens its channels this
# way before each residual add) pads its rows a tile of 16 KB at a time, where XNNPACK called its
# pad microkernel, through the pool, once per pixel. On a 2-core AMD EPYC with AVX-512 the
# short-range detector's pads went from 63 to 24 us over two threads, its whole run from 0.61 to
# 0.58 ms.
patches=("$repo/scripts/xnnpack-narrow-gemm.patch" "$repo/scripts/xnnpack-inline-small-ops.patch"
  "$repo/scripts/xnnpack-gemm-row-tiles.patch" "$repo/scripts/xnnpack-pad-rows.patch")
# And one to pthreadpool, in both variants: a thread with nothing to do (a worker between runs, a
# caller waiting for the workers to finish) spins its thousand pause instructions (about 25 us),
# then calls sched_yield 200 times (about 0.15 ms on an idle 2-core VM) before it sleeps. Each
# yield lets any thread runnable on its CPU go first, so the spin takes only idle time. A frame
# sent straight after the last answer finds the pool's worker still awake, and a caller whose
# share of a split decode ends first no longer sleeps and waits to be woken. On a 2-core AMD EPYC
# VM, P1's round trip took 0.886 of the time (12 alternating rounds), the Face Landmarker's 0.960.
pool_patches=("$repo/scripts/pthreadpool-idle-yield.patch")
stamp=$(printf '%s\n' "${pins[@]}" "${cmake_flags[*]}" "$("$cc" --version | head -n 1)"
  sha256sum "${patches[@]}" "${pool_patches[@]}" | cut -d' ' -f1)
tsan_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_C_FLAGS=-fsanitize=thread"
  -DPTHREADPOOL_LIBRARY_TYPE=static -DPTHREADPOOL_BUILD_TESTS=OFF -DPTHREADPOOL_BUILD_BENCHMARKS=OFF
  # The toolchain's ThreadSanitizer runtime links only with its own libdispatch; nothing here is
  # linked, so CMake's compiler check must not link either.
  -DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY)
base=$repo/.deps/xnnpack
if [ -n "$variant" ]; then
  XNNPACK_SANITIZE= XNNPACK_PREFIX="$base" "$0"
  stamp=$(printf '%s\n' "$stamp" "pthreadpool ${tsan_flags[*]}")
fi
[ -f "$prefix/PINS" ] && [ "$(cat "$prefix/PINS")" = "$stamp" ] && exit 0

for tool in cmake ninja patch; do
  command -v "$tool" >/dev/null || { echo "error: $tool is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
downloader=/usr/lib/apt/apt-helper
[ -x "$downloader" ] || { echo "error: $downloader (Debian's apt) is missing; this build expects Debian" >&2; exit 1; }

host=${mirror#*://}; host=${host%%/*}
if ! timeout 15 bash -c "exec 3<>/dev/tcp/$host/80" 2>/dev/null; then
  echo "error: no network to Debian's sources ($host): XNNPACK cannot be built; connect and run make deps again" >&2
  exit 1
fi

mkdir -p "$(dirname "$prefix")"
work=$(mktemp -d "$(dirname "$prefix")/.xnnpack-build.XXXXXX")
trap 'rm -rf "$work"' EXIT

started=$SECONDS
echo "Building ${variant:+pthreadpool for }XNNPACK into $prefix (first set-up only; a few minutes)"
for pin in "${pins[@]}"; do
  read -r name version path sha256 _ <<<"$pin"
  [ -n "$variant" ] && [ "$name" != pthreadpool ] && [ "$name" != fxdiv ] && continue
  tarball="$work/${path##*/}"
  if ! "$downloader" download-file "$mirror/$path" "$tarball" "SHA256:$sha256" >"$work/fetch.log" 2>&1; then
    echo "error: could not fetch $name $version ($mirror/$path) or its SHA-256 differs from the pin:" >&2
    grep -E '^E:' "$work/fetch.log" >&2 || cat "$work/fetch.log" >&2
    exit 1
  fi
  mkdir "$work/$name"
  # XNNPACK's tarball has no top directory; the others have one.
  if [ "$name" = xnnpack ]; then
    tar -xJf "$tarball" -C "$work/$name"
  else
    tar -xJf "$tarball" -C "$work/$name" --strip-components=1
  fi
done

for patch in "${pool_patches[@]}"; do
  patch -d "$work/pthreadpool" -p1 --quiet <"$patch" \
    || { echo "error: $(basename "$patch") does not apply to pthreadpool's source" >&2; exit 1; }
done

if [ -n "$variant" ]; then
  cmake -S "$work/pthreadpool" -B "$work/build" -G Ninja "${tsan_flags[@]}" -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DFXDIV_SOURCE_DIR="$work/fxdiv" >"$work/configure.log" 2>&1 \
    || { tail -n 30 "$work/configure.log" >&2; echo "error: pthreadpool's configuration failed" >&2; exit 1; }
  cmake --build "$work/build" --target pthreadpool >"$work/build.log" 2>&1 \
    || { tail -n 30 "$work/build.log" >&2; echo "error: pthreadpool's build failed" >&2; exit 1; }
  staged="$work/prefix"
  cp -r "$base" "$staged"
  cp "$(find "$work/build" -name libpthreadpool.a -print -quit)" "$staged/lib/"
  printf '%s\n' "$stamp" >"$staged/PINS"
  rm -rf "$prefix"
  mv "$staged" "$prefix"
  # As below, for the build that links this prefix.
  rm -rf "$repo"/.build-tsan/*/Inference.build "$repo"/.build-tsan/*/*/Inference.build \
    "$repo"/.build-tsan/*/description.json "$repo"/.build-tsan/*/*/description.json
  echo "pthreadpool built with ThreadSanitizer in $((SECONDS - started)) s"
  exit 0
fi

for patch in "${patches[@]}"; do
  patch -d "$work/xnnpack" -p1 --quiet <"$patch" \
    || { echo "error: $(basename "$patch") does not apply to XNNPACK's source" >&2; exit 1; }
done

cmake -S "$work/xnnpack" -B "$work/build" "${cmake_flags[@]}" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCPUINFO_SOURCE_DIR="$work/cpuinfo" \
  -DPTHREADPOOL_SOURCE_DIR="$work/pthreadpool" \
  -DFXDIV_SOURCE_DIR="$work/fxdiv" >"$work/configure.log" 2>&1 \
  || { tail -n 30 "$work/configure.log" >&2; echo "error: XNNPACK's configuration failed" >&2; exit 1; }
cmake --build "$work/build" --target XNNPACK microkernels-prod cpuinfo pthreadpool >"$work/build.log" 2>&1 \
  || { tail -n 30 "$work/build.log" >&2; echo "error: XNNPACK's build failed" >&2; exit 1; }

staged="$work/prefix"
mkdir -p "$staged/include" "$staged/lib"
cp "$work/xnnpack/include/xnnpack.h" "$work/pthreadpool/include/pthreadpool.h" "$staged/include/"
for lib in XNNPACK microkernels-prod cpuinfo pthreadpool; do
  cp "$(find "$work/build" -name "lib$lib.a" -print -quit)" "$staged/lib/"
done
printf '%s\n' "$stamp" >"$staged/PINS"
rm -rf "$prefix"
mv "$staged" "$prefix"
# SwiftPM does not notice that a library it links has changed: dropping the objects of the one
# target that links these makes every product that contains it link again, and dropping the build
# descriptions makes SwiftPM plan that target's compilation anew rather than look for its files.
rm -rf "$repo"/.build/*/Inference.build "$repo"/.build/*/*/Inference.build \
  "$repo"/.build/*/description.json "$repo"/.build/*/*/description.json
echo "XNNPACK built in $((SECONDS - started)) s"
