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
. scripts/lib/e2ebench.sh
HFLAN_BENCH_RETURNS="${LAN_RETURNS:-10}" HFLAN_BENCH_HEALS="${LAN_HEALS:-5}" \
  e2e_bench lanreturn.sh '^TestBenchLAN(Rejoin|Heal)$' bench_return_test "rejoin and heal figures"
