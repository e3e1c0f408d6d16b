#!/usr/bin/env bash
# The CPU an idle lobby browser window uses (scripts/idlecpu.sh: the offline
# browser, muted, on an Xvfb of its own, CPU time over 10 s), as a benchmark
# line for bench/targets.txt. Needs Xvfb (scripts/deps.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(mktemp -d)/hostfall
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" .
line=$(scripts/idlecpu.sh "$bin")
echo "$line" >&2
pct=$(sed -n 's/^hostfall: \([0-9]*\) % of a core.*/\1/p' <<<"$line")
echo "BenchmarkIdleBrowserCPU 1 ${pct:?idlecpu.sh printed no figure} %core"
