#!/usr/bin/env bash
# The one recipe of every released binary (make release, make server, the
# Wine tests): the same flags everywhere, so a test's build and the release's
# share Go's build cache and only link again.
#
#   scripts/build.sh OUT GOOS GOARCH full|server
#
# full is the game with its window and speaker (cgo; windows/amd64 is
# cross-compiled with mingw-w64 and linked as a GUI program, so starting it
# opens no console window); server has no cgo: a static binary with the
# headless commands only. -trimpath, no VCS stamp, stripped, and the version
# and commit given with -X: the same commit gives the same bytes wherever it
# is built. HOSTFALL_VERSION and HOSTFALL_COMMIT override what git says.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:?usage: scripts/build.sh OUT GOOS GOARCH full|server}
goos=${2:?GOOS}
arch=${3:?GOARCH}
kind=${4:?full or server}
version=$(scripts/version.sh)
commit=${HOSTFALL_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
ldflags="-s -w -X hostfall/version.Version=$version -X hostfall/version.Commit=$commit"
env=(GOOS="$goos" GOARCH="$arch")
case "$kind/$goos" in
server/*) env+=(CGO_ENABLED=0) ;;
full/linux) env+=(CGO_ENABLED=1) ;;
full/windows)
  cc=x86_64-w64-mingw32-gcc
  command -v "$cc" >/dev/null ||
    { echo "build: the Windows build needs $cc (Debian: apt-get install gcc-mingw-w64-x86-64)" >&2; exit 1; }
  env+=(CGO_ENABLED=1 CC="$cc")
  ldflags+=" -H=windowsgui"
  ;;
*) echo "build: no recipe for a $kind build on $goos" >&2; exit 2 ;;
esac
env "${env[@]}" go build -trimpath -buildvcs=false -ldflags="$ldflags" -o "$out" .
