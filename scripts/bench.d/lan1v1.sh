#!/usr/bin/env bash
# Issue 29's figure from real hostfall processes, each in a network
# namespace of its own on one bridge (p2p/e2e TestBenchLAN1v1HostKill): the
# host of a game of two SIGKILLed at turn 100, the kill → the survivor's
# turns flow again (its host_changed line, printed with the first turn it
# sequences). LAN_1V1_KILLS games (default 10, about two minutes). Needs
# root; skipped without.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib/e2ebench.sh
HFLAN_BENCH_1V1="${LAN_1V1_KILLS:-10}" e2e_bench lan1v1.sh '^TestBenchLAN1v1HostKill$' bench_1v1 "the 1v1 host-kill figure"
