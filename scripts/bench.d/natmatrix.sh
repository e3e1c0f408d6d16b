#!/usr/bin/env bash
# The NAT matrix (p2p/e2e TestBenchNATMatrix): pairs of home networks in
# namespaces behind full-cone, address-restricted, port-restricted and
# symmetric NATs, with and without a UPnP router (miniupnpd) and IPv6
# behind a stateful firewall, on a simulated public libp2p network. How
# many pairs went direct, the median and p90 time from the joiner's start
# to its first direct connection, and how many went over TCP, QUIC and
# IPv6. About five minutes. Needs root; skipped without.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib/e2ebench.sh
e2e_bench natmatrix.sh '^TestBenchNATMatrix$' natmatrix_test "the NAT matrix"
