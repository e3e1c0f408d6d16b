#!/usr/bin/env bash
# make bench: runs every benchmark and prints one table of figures against the
# targets in bench/targets.txt; the table is also written to bench-results.txt.
# Scripts that measure outside `go test` print lines in the benchmark format
# ("BenchmarkName 1 12.3 unit") and are appended to the same table.
set -euo pipefail
cd "$(dirname "$0")/.."
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT

echo "== go test -bench (this takes a few minutes)" >&2
go test -run '^$' -bench . -benchmem -benchtime "${BENCHTIME:-1s}" -timeout 30m ./... | tee "$raw" >&2

for extra in scripts/bench.d/*.sh; do
  [ -x "$extra" ] || continue
  echo "== $extra" >&2
  "$extra" | tee -a "$raw" >&2
done

go run ./tools/benchtable -targets bench/targets.txt <"$raw" | tee bench-results.txt
