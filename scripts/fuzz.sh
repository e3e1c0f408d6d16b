#!/usr/bin/env bash
# make fuzz: runs every fuzz target in the module for FUZZTIME each (default 60s).
# The seed corpora alone already run in `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-60s}
n=0
for pkg in $(go list ./...); do
  for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
    n=$((n + 1))
    echo "== $pkg $target ($FUZZTIME)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "$pkg"
  done
done
echo "== fuzzed $n targets, no failures"
