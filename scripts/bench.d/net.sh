#!/usr/bin/env bash
# Network figures from real hostfall processes on loopback (see
# tools/netbench): command latency propose → executed on every peer, and
# SIGKILL of the host → first turn of the new host on every survivor.
# NET_RUNS games, two kills each (default 5 → 10 kills, about two minutes).
set -euo pipefail
cd "$(dirname "$0")/../.."
go build -o bin/hostfall .
go run ./tools/netbench -bin bin/hostfall -runs "${NET_RUNS:-5}"
