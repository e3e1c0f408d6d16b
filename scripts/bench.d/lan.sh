#!/usr/bin/env bash
# LAN figures from real hostfall processes, each in a network namespace of
# its own on one bridge, joining by mDNS (p2p/e2e TestBenchLAN): command
# latency propose → executed on every peer, SIGKILL of the host → first turn
# of the new host on every survivor, and idle bytes a second per peer:
# LAN_RUNS games, two host kills each (default 5 → 10 kills, about three
# minutes). Then discovery on each path apart (TestBenchLANDiscovery: a
# joiner's browser opened → the session seen, LAN_OPENINGS joiners a path,
# default 24, about a minute). Needs root; skipped without.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib/e2ebench.sh
HFLAN_BENCH_RUNS="${LAN_RUNS:-5}" HFLAN_BENCH_OPENINGS="${LAN_OPENINGS:-24}" \
  e2e_bench lan.sh '^TestBenchLAN(Discovery)?$' 'bench_(discovery_)?test' "LAN figures"
