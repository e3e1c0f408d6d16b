#!/usr/bin/env bash
# make test-under-load: CI's command (.ci/run) on a fresh clone of HEAD with
# two CPU hogs (stress-ng --cpu 2, at the tests' own priority) running beside
# it for the whole run: the suite must pass on a busy machine, where a
# starved process misses its moment. RUNS (default 1) runs in a row, each on
# a clone of its own; the JS rendezvous point's node_modules are copied from
# this tree when it has them (a warm machine), else installed. Each run's
# log is kept in bin/underload-N.log; the last lines give the wall times.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/clone.sh
runs=${RUNS:-1}
command -v stress-ng >/dev/null 2>&1 ||
  { echo "underload: stress-ng is not installed; run scripts/deps.sh --test (make test-under-load does)" >&2; exit 1; }

work=$(mktemp -d /tmp/hostfall-underload-XXXXXX)
hog=""
cleanup() {
  local rc=$?
  if [ -n "$hog" ]; then
    kill "$hog" 2>/dev/null || true
    wait "$hog" 2>/dev/null || true
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT

mkdir -p bin
echo "== load before the hogs: $(loadavg)"
stress-ng --cpu 2 --timeout 3h --quiet &
hog=$!
results=()
failed=0
for i in $(seq "$runs"); do
  dir="$work/hostfall-$i"
  fresh_clone "$dir"
  if [ -d tools/rendezvous-js/node_modules ]; then
    cp -a tools/rendezvous-js/node_modules "$dir/tools/rendezvous-js/"
  fi
  log="bin/underload-$i.log"
  echo "== run $i of $runs: .ci/run in $dir beside stress-ng --cpu 2 (log: $log; load $(loadavg))"
  start=$SECONDS
  rc=0
  (cd "$dir" && .ci/run) 2>&1 | tee "$log" || rc=$?
  results+=("run $i: $([ "$rc" = 0 ] && echo passed || echo FAILED) in $((SECONDS - start)) s wall (load at the end $(loadavg))")
  [ "$rc" = 0 ] || failed=1
  rm -rf "$dir"
done
echo "== under load (stress-ng --cpu 2 beside each run):"
printf '  %s\n' "${results[@]}"
exit "$failed"
