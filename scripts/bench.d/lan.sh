#!/usr/bin/env bash
# LAN figures from real hostfall processes, each in a network namespace of
# its own on one bridge, joining by mDNS (p2p/e2e TestBenchLAN): command
# latency propose → executed on every peer, SIGKILL of the host → first turn
# of the new host on every survivor, discovery (browse → session seen), and
# idle bytes a second per peer. LAN_RUNS games, two host kills each
# (default 5 → 10 kills, about three minutes). Needs root; skipped without.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$(id -u)" != 0 ]; then
  echo "lan.sh: network namespaces need root; LAN figures skipped" >&2
  exit 0
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! HFLAN_BENCH=1 HFLAN_BENCH_RUNS="${LAN_RUNS:-5}" \
  go test -run '^TestBenchLAN$' -count=1 -v -timeout 15m ./p2p/e2e >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
grep -v '^Benchmark' "$log" | grep -E '^\s+bench_test' >&2 || true
grep '^Benchmark' "$log"
