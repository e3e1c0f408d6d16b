# Sourced by scripts/bench.d/lan*.sh: runs an opt-in benchmark of p2p/e2e
# (real hostfall processes in network namespaces) with HFLAN_BENCH=1 and
# whatever HFLAN_BENCH_* the caller exported, prints its figures (lines in
# the benchmark format) on stdout and the test's own log lines of prefix on
# stderr; with the whole log on stderr when it fails.
# Usage: e2e_bench NAME TEST_REGEX LOG_PREFIX WHAT_IS_SKIPPED
e2e_bench() {
  local name=$1 tests=$2 prefix=$3 skipped=$4
  if [ "$(id -u)" != 0 ]; then
    echo "$name: network namespaces need root; $skipped skipped" >&2
    return 0
  fi
  local log
  log=$(mktemp)
  if ! HFLAN_BENCH=1 go test -run "$tests" -count=1 -v -timeout 15m ./p2p/e2e >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    return 1
  fi
  grep -v '^Benchmark' "$log" | grep -E "^\s+$prefix" >&2 || true
  grep '^Benchmark' "$log"
  rm -f "$log"
}
