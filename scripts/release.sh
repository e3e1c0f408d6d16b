#!/usr/bin/env bash
# make release: the files of a release, in OUT (dist/ by default):
#
#   hostfall-VERSION-windows-amd64.zip           the game (hostfall.exe)
#   hostfall-VERSION-linux-amd64.tar.gz          the game (hostfall)
#   hostfall-server-VERSION-linux-{amd64,arm64,386}.tar.gz, -windows-amd64.zip
#                                                the server build (no cgo, static)
#   SHA256SUMS
#
# Each archive holds one directory named as the archive: the program, README.txt
# (docs/release/), LICENSE.txt and THIRD_PARTY_LICENSES.txt, generated from the
# modules the build compiles in (tools/release licenses) and, for the Windows
# game, the Debian copyright files of the mingw-w64 runtime and GCC support
# library the cgo link puts in (tools/release cruntime). Every binary comes from
# scripts/build.sh with the version stamped; the archives' entries are sorted and
# dated at the commit's time: the same commit gives the same bytes (make
# release-check builds twice and compares). HOSTFALL_VERSION, HOSTFALL_COMMIT and
# SOURCE_DATE_EPOCH override what git says (a build outside the checkout).
#
#   scripts/release.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-dist}")

HOSTFALL_VERSION=$(scripts/version.sh)
HOSTFALL_COMMIT=${HOSTFALL_COMMIT:-$(git rev-parse HEAD)}
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
export HOSTFALL_VERSION HOSTFALL_COMMIT SOURCE_DATE_EPOCH
v=$HOSTFALL_VERSION

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/release" ./tools/release
rm -rf "$out"
mkdir -p "$out"
SECONDS=0

# pack NAME GOOS GOARCH full|server EXE README: builds, lays out and archives one.
pack() {
  local name=$1 goos=$2 arch=$3 kind=$4 exe=$5 readme=$6 cgo=0 ext=tar.gz
  local dir=$work/$name
  mkdir -p "$dir"
  local t0=$SECONDS
  scripts/build.sh "$dir/$exe" "$goos" "$arch" "$kind"
  [ "$kind" = full ] && cgo=1
  GOOS=$goos GOARCH=$arch CGO_ENABLED=$cgo "$work/release" licenses >"$dir/THIRD_PARTY_LICENSES.txt"
  if [ "$kind/$goos" = full/windows ]; then # mingw-w64's C runtime is linked in too
    "$work/release" cruntime x86_64-w64-mingw32-gcc >>"$dir/THIRD_PARTY_LICENSES.txt"
  fi
  cp LICENSE "$dir/LICENSE.txt"
  cp "docs/release/$readme" "$dir/README.txt"
  check_libs "$dir/$exe" "$dir/README.txt" "$goos" "$kind"
  [ "$goos" = windows ] && ext=zip
  "$work/release" archive -o "$out/$name.$ext" -mtime "$SOURCE_DATE_EPOCH" -C "$work" "$name"
  printf 'release: %s.%s (%d bytes) in %d s\n' "$name" "$ext" "$(stat -c %s "$out/$name.$ext")" "$((SECONDS - t0))"
}

# check_libs fails when the program needs a library its README does not name
# (Linux), or a DLL that Windows does not ship (mingw's runtime DLLs are lib*.dll).
check_libs() {
  local bin=$1 readme=$2 goos=$3 kind=$4 lib
  for lib in $("$work/release" libs "$bin"); do
    if [ "$goos" = linux ] && ! grep -qF "$lib" "$readme"; then
      echo "release: $bin needs $lib, which its README ($readme) does not name" >&2
      exit 1
    fi
    case "$goos/$lib" in
    windows/lib*.dll | windows/LIB*.DLL)
      echo "release: $bin needs $lib, a DLL Windows does not have; link it statically" >&2
      exit 1
      ;;
    esac
  done
  if [ "$kind" = server ] && [ "$goos" = linux ] && [ -n "$("$work/release" libs "$bin")" ]; then
    echo "release: the server build $bin is not static" >&2
    exit 1
  fi
}

pack "hostfall-$v-linux-amd64" linux amd64 full hostfall README-linux.txt
pack "hostfall-$v-windows-amd64" windows amd64 full hostfall.exe README-windows.txt
for arch in amd64 arm64 386; do
  pack "hostfall-server-$v-linux-$arch" linux "$arch" server hostfall-server README-server.txt
done
pack "hostfall-server-$v-windows-amd64" windows amd64 server hostfall-server.exe README-server.txt
"$work/release" sums "$out"
echo "release: $v (commit $HOSTFALL_COMMIT) in $out after ${SECONDS} s"
