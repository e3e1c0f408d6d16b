#!/usr/bin/env bash
# make soak: long randomized runs of the session engine on the simulated network.
set -euo pipefail
cd "$(dirname "$0")/.."
SOAK=${SOAK:-10000}
if ! go list ./session/... >/dev/null 2>&1; then
  echo "soak: the session package does not exist yet"; exit 0
fi
go test -count=1 -timeout 2h -run '^TestSoak$' ./session/ -soak="$SOAK" -v
