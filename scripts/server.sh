#!/usr/bin/env bash
# make server, make server-all: the server build of hostfall: no cgo, so no
# window and no speaker, and a static binary that needs nothing on the
# machine it runs on (a VPS, a Raspberry Pi, a FROM scratch container). It
# runs relay, list, sim, replay --headless --verify, and host, join and play
# with --headless.
#
#   scripts/server.sh OUT [GOARCH]    one linux binary (GOARCH: amd64 by default)
#
# The recipe is scripts/build.sh's (-trimpath, no VCS stamp, stripped, the
# version stamped): the same source and Go version give the same bytes
# wherever they are built, from a git checkout, a tarball or inside the
# container recipe. Needs only Go; the deploy package's tests build with this
# script and check its binaries.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:?usage: scripts/server.sh OUT [GOARCH]}
arch=${2:-amd64}
start=$(date +%s%N)
scripts/build.sh "$out" linux "$arch" server
end=$(date +%s%N)
awk -v out="$out" -v arch="$arch" -v size="$(stat -c %s "$out")" -v ns="$((end - start))" \
  'BEGIN { printf "%s: linux/%s, %d bytes (%.1f MB), built in %.1f s\n", out, arch, size, size / 1e6, ns / 1e9 }'
