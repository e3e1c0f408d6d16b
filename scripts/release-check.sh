#!/usr/bin/env bash
# make release-check: the release tests (below), then: the same commit gives
# the same release, byte for byte.
# Builds the release twice: once in this checkout, once in a copy of its
# files in another directory with no git metadata (so nothing may depend on
# where the source lies or on .git), then compares every file. Go's build
# cache serves the second build's compiled packages: it mostly links again.
set -euo pipefail
cd "$(dirname "$0")/.."
# The tests build as make test's do (scripts/test.sh: -trimpath, so that the
# compiled packages make test left in the cache serve here too).
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath"

HOSTFALL_VERSION=$(scripts/version.sh)
HOSTFALL_COMMIT=$(git rev-parse HEAD)
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)
export HOSTFALL_VERSION HOSTFALL_COMMIT SOURCE_DATE_EPOCH

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SECONDS=0

# The release tests: the builds make test leaves out (internal/releasetest),
# the Windows game under Wine (its sims, console, window and a LAN game with
# Linux peers) and the arm64 and 386 server builds. Every test gated by
# releasetest matches release_tests and lives in release_pkgs
# (internal/releasetest's own test checks both).
release_tests='^(TestWindows.*|TestLANLinuxAndWindows|TestServerBinariesAreStatic|TestCrossBuildsPlayTheSameSim|TestPlayerRelaysInNamespaces|TestInternetCodeThroughAPlayer)$'
release_pkgs=(./deploy ./p2p/e2e)
echo "== release-check: the release tests (${release_pkgs[*]})"
mkdir -p bin
go build -o bin/testsum ./tools/testsum
outcomes="$tmp/outcomes"
tests_ok=0
HOSTFALL_RELEASE_TESTS=1 go test -json -count=1 -timeout 30m -run "$release_tests" "${release_pkgs[@]}" |
  bin/testsum -record "$outcomes" -stage release || tests_ok=1
bin/testsum -summary "$outcomes" -require-all || tests_ok=1
tests=$SECONDS
if [ "$tests_ok" -ne 0 ]; then
  echo "== release-check: a release test failed (above)" >&2
  exit 1
fi
echo "== release-check: first build (this checkout)"
scripts/release.sh "$tmp/a"
first=$((SECONDS - tests))

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
echo "== release-check: both builds give the same $(ls "$tmp/a" | wc -l) files, byte for byte (release tests ${tests} s, first build ${first} s, second $((SECONDS - tests - first)) s)"
cat "$tmp/a/SHA256SUMS"
