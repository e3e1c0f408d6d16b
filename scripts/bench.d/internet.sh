#!/usr/bin/env bash
# Internet figures on a simulated public libp2p network (p2p/e2e
# TestBenchInternet): 32 DHT servers with relays in one namespace, a host and
# a joiner behind NAT routers of their own. Time from starting `join` with a
# short code to the lobby, the lookup alone, and the share of joins that went
# direct by hole punching. INTERNET_JOINS joins (default 20, about two
# minutes). Needs root; skipped without.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib/e2ebench.sh
HFLAN_BENCH_JOINS="${INTERNET_JOINS:-20}" e2e_bench internet.sh '^TestBenchInternet$' bench_internet_test "internet figures"
