#!/usr/bin/env bash
# Issue 14's figures from real hostfall processes, each in a network
# namespace of its own on one bridge (p2p/e2e TestBenchLANRejoin and
# TestBenchLANHeal): a joiner of a game 10 minutes in (a save of turn 12,000
# that the test makes, resumed by four headless peers) SIGKILLed and
# restarted with `join --rejoin`, its restart → the host's player_back line
# for its slot (LAN_RETURNS returns, default 10); and a 2/2 split healed
# after 20 s, the heal → every peer follows one host (LAN_HEALS, default 5).
# About four minutes. Needs root; skipped without.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$(id -u)" != 0 ]; then
  echo "lanreturn.sh: network namespaces need root; rejoin and heal figures skipped" >&2
  exit 0
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! HFLAN_BENCH=1 HFLAN_BENCH_RETURNS="${LAN_RETURNS:-10}" HFLAN_BENCH_HEALS="${LAN_HEALS:-5}" \
  go test -run '^TestBenchLAN(Rejoin|Heal)$' -count=1 -v -timeout 15m ./p2p/e2e >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
grep -v '^Benchmark' "$log" | grep -E '^\s+bench_return_test' >&2 || true
grep '^Benchmark' "$log"
