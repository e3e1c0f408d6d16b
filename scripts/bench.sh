#!/usr/bin/env bash
# make bench: runs every benchmark and prints one table of figures against the
# targets in bench/targets.txt; the table is also written to bench-results.txt.
# One thing at a time: every package's benchmarks are built first, then each
# binary runs alone (its benchmarks one after another), then each script of
# scripts/bench.d: nothing of ours shares the cores with a measurement. Other
# work on the machine may: each line carries the 1-minute load average before
# and after it, and the table marks a line busy when it was high.
# Scripts that measure outside `go test` print lines in the benchmark format
# ("BenchmarkName 1 12.3 unit") and are appended to the same table.
# BENCH_ONLY=REGEX measures only the packages (import paths) and scripts
# (file names) it matches.
set -euo pipefail
cd "$(dirname "$0")/.."
raw=$(mktemp)
bins=$(mktemp -d)
trap 'rm -rf "$raw" "$bins"' EXIT

load1() { cut -d' ' -f1 /proc/loadavg; }

# annotate: copies its input, adding to each benchmark result line the load
# average when the line before it ended (≈ when it started) and now.
annotate() {
  local before line
  before=$(load1)
  while IFS= read -r line; do
    if [[ "$line" =~ ^Benchmark[^[:space:]]*[[:space:]]+[0-9]+[[:space:]] ]]; then
      local now
      now=$(load1)
      line+=$'\t'"$before load-before"$'\t'"$now load-after"
      before=$now
    fi
    printf '%s\n' "$line"
  done
}

echo "== building the benchmark binaries (load $(load1))" >&2
pkgs=()
while read -r pkg dir; do
  [[ "$pkg" =~ ${BENCH_ONLY:-.} ]] || continue
  grep -qs '^func Benchmark' "$dir"/*_test.go && pkgs+=("$pkg $dir")
done < <(go list -f '{{.ImportPath}} {{.Dir}}' ./...)
for pd in "${pkgs[@]}"; do
  pkg=${pd%% *}
  go test -c -o "$bins/${pkg//\//_}.test" "$pkg"
done

for pd in "${pkgs[@]}"; do
  pkg=${pd%% *} dir=${pd#* }
  echo "== $pkg (alone; load $(load1))" >&2
  # A benchmark binary runs in its package's directory, as go test runs it.
  (cd "$dir" && "$bins/${pkg//\//_}.test" -test.run '^$' -test.bench . -test.benchmem \
    -test.benchtime "${BENCHTIME:-1s}" -test.timeout 30m) | annotate | tee -a "$raw" >&2
done

for extra in scripts/bench.d/*.sh; do
  [ -x "$extra" ] && [[ "$extra" =~ ${BENCH_ONLY:-.} ]] || continue
  echo "== $extra (load $(load1))" >&2
  "$extra" | annotate | tee -a "$raw" >&2
done

go run ./tools/benchtable -targets bench/targets.txt <"$raw" | tee bench-results.txt
