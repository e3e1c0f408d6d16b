#!/usr/bin/env bash
# make release-check: the same commit gives the same release, byte for byte.
# Builds the release twice: once in this checkout, once in a copy of its
# files in another directory with no git metadata (so nothing may depend on
# where the source lies or on .git), then compares every file. Go's build
# cache serves the second build's compiled packages: it mostly links again.
set -euo pipefail
cd "$(dirname "$0")/.."

HOSTFALL_VERSION=$(scripts/version.sh)
HOSTFALL_COMMIT=$(git rev-parse HEAD)
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)
export HOSTFALL_VERSION HOSTFALL_COMMIT SOURCE_DATE_EPOCH

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SECONDS=0
echo "== release-check: first build (this checkout)"
scripts/release.sh "$tmp/a"
first=$SECONDS

echo "== release-check: second build (a copy in $tmp/src, without .git)"
mkdir "$tmp/src"
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
  tar --null -T - -cf - | tar -xf - -C "$tmp/src"
(cd "$tmp/src" && scripts/release.sh "$tmp/b")

if ! diff -r "$tmp/a" "$tmp/b"; then
  echo "== release-check: the two builds differ (above); the release is not reproducible" >&2
  exit 1
fi
echo "== release-check: both builds give the same $(ls "$tmp/a" | wc -l) files, byte for byte (first build ${first} s, second $((SECONDS - first)) s)"
cat "$tmp/a/SHA256SUMS"
