#!/usr/bin/env bash
# Prints the release version of the source tree: the tag vX.Y.Z of the commit
# without its v, or, between tags, the game version with the commit
# (0.2.0-dev.g86f3487), and -dirty when files differ from the commit.
# HOSTFALL_VERSION overrides it (a build from a tarball without git).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${HOSTFALL_VERSION:-}" ]; then
  echo "$HOSTFALL_VERSION"
  exit 0
fi
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo dev
  exit 0
fi
if v=$(git describe --tags --match 'v[0-9]*' --exact-match --dirty 2>/dev/null); then
  echo "${v#v}"
  exit 0
fi
game=$(sed -n 's/^const GameVersion = "\(.*\)"$/\1/p' app/peer.go)
echo "${game:-0.0.0}-dev.g$(git describe --always --abbrev=7 --dirty)"
