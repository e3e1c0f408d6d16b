#!/usr/bin/env bash
# Issue 30's figures with the host in a process of its own
# (client/network peer_procs_*_test.go): hostfall processes on loopback and
# the attackers in the test's process.
#  - BenchmarkProcBulkMember: the host's peak RSS and its replay's size
#    after BUDGETS_MINUTES (default 10) of a member sending the most its
#    budgets allow;
#  - BenchmarkProcStrangerFlood/ids=16 and ids=100: the host loop's longest
#    stall while that many fresh identities flood it with the largest frames
#    a stranger may send, split in what its own code took (busy-ms: the most
#    CPU one pass of the loop took; it must stay under 50 ms) and how much
#    of a stall the loop was not run (late-ms: the machine's load, which
#    its unflooded joiners see as well: joiner-stall-ms), with the load.
# The figures are printed even when a test's assertion failed (a follower
# claimed, a player was waited for); then the log follows and it fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
minutes=${BUDGETS_MINUTES:-10}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
ok=1
echo "budgets.sh: load at the start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
HOSTFALL_PROC_BENCH=1 HOSTFALL_BULK_MINUTES="$minutes" go test -count=1 -v -timeout "$((minutes * 3 + 15))m" \
  -run '^(TestBenchBulkMember|TestBenchStrangerFlood)$' ./client/network >"$log" 2>&1 || ok=0
echo "budgets.sh: load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
grep -E '^\s+peer_procs.*FIGURE' "$log" >&2 || true
grep '^Benchmark' "$log" || true
if [ "$ok" = 0 ]; then
  cat "$log" >&2
  echo "budgets.sh: a test failed (its log is above)" >&2
  exit 1
fi
