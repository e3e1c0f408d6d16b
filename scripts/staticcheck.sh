#!/usr/bin/env bash
# staticcheck.sh ARGS…: staticcheck at the version pinned here (make test's
# vet stage runs it on ./...; staticcheck.conf says which checks). It lives in
# the user's cache, one directory per version, so another staticcheck on the
# machine is neither used nor replaced.
# staticcheck.sh --install: builds it from the module proxy when it is
# missing (scripts/deps.sh --test does; cold, a few minutes of both cores).
set -euo pipefail
version=v0.8.2 # staticcheck 2026.2.2, which knows Go 1.26
dir="${XDG_CACHE_HOME:-$HOME/.cache}/hostfall/tools/staticcheck-$version"
if [ "${1:-}" = --install ]; then
  [ -x "$dir/staticcheck" ] && exit 0
  echo "deps: installing staticcheck $version (go install from the module proxy)"
  GOBIN="$dir" go install "honnef.co/go/tools/cmd/staticcheck@$version" || {
    echo "deps: go install honnef.co/go/tools/cmd/staticcheck@$version failed. The module proxy must be reachable (go env GOPROXY); run it by hand with GOBIN=$dir to see why." >&2
    exit 1
  }
  exit 0
fi
[ -x "$dir/staticcheck" ] || {
  echo "staticcheck $version is not installed in $dir: run scripts/deps.sh --test (make test does)" >&2
  exit 1
}
exec "$dir/staticcheck" "$@"
