#!/usr/bin/env bash
# make soak: long randomized runs of the session engine on the simulated network.
set -euo pipefail
cd "$(dirname "$0")/.."
SOAK=${SOAK:-10000}
if ! go list ./session/... >/dev/null 2>&1; then
  echo "soak: the session package does not exist yet"; exit 0
fi
go test -count=1 -timeout 2h -run '^TestSoak$' ./session/ -soak="$SOAK" -v
# The first 1,000 schedules, of which make test runs 300 (and every one that once failed).
go test -count=1 -timeout 2h -run '^TestProperty$' ./session/ -schedules=1000 -v
# And a hostile member forging messages, over many more schedules than make test runs.
HOSTILE=${HOSTILE:-1000}
go test -count=1 -timeout 2h -run '^TestHostileMember$' ./session/ -hostile="$HOSTILE" -hostileseed=100000 -v
