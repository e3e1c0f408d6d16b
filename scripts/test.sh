#!/usr/bin/env bash
# make test: vet, then every test. Packages that run goroutines (the I/O shells)
# run under the race detector; the pure cores run plain and again as 32-bit code,
# which catches any dependence on int size.
set -euo pipefail
cd "$(dirname "$0")/.."

# Packages with goroutines of their own. A new concurrent package goes here.
race_dirs=(p2p sound render match client)

# can_run_386 tells whether this kernel executes 32-bit x86 binaries.
can_run_386() {
  local dir
  dir=$(mktemp -d)
  printf 'package main\nfunc main() {}\n' >"$dir/main.go"
  local ok=1
  if (cd "$dir" && GOARCH=386 CGO_ENABLED=0 go build -o probe main.go 2>/dev/null) &&
    "$dir/probe" 2>/dev/null; then
    ok=0
  fi
  rm -rf "$dir"
  return $ok
}

SECONDS=0
echo "== go vet"
go vet ./...

# Every go test run streams through testsum: a line per package, the output
# of failed tests, and each test's outcome recorded for the summary at the end
# (which tests were skipped, and why).
mkdir -p bin
go build -o bin/testsum ./tools/testsum
outcomes=$(mktemp)
trap 'rm -f "$outcomes"' EXIT
# A suite that fails does not stop the others: the summary covers them all.
failed=0
gotest() { go test -json "$@" | bin/testsum -record "$outcomes" || failed=1; }

mapfile -t all < <(go list ./...)
race=()
plain=()
for p in "${all[@]}"; do
  hit=""
  for d in "${race_dirs[@]}"; do
    case "$p" in hostfall/"$d"|hostfall/"$d"/*) hit=1 ;; esac
  done
  if [ -n "$hit" ]; then race+=("$p"); else plain+=("$p"); fi
done

echo "== go test (${#plain[@]} packages) at ${SECONDS}s"
gotest -count=1 "${plain[@]}"

if [ "${#race[@]}" -gt 0 ]; then
  echo "== go test -race (${#race[@]} packages) at ${SECONDS}s"
  gotest -count=1 -race "${race[@]}"
fi

pure=()
for d in game session; do
  [ -d "$d" ] && mapfile -t -O "${#pure[@]}" pure < <(go list "./$d/...")
done
if [ "${#pure[@]}" -gt 0 ]; then
  echo "== GOARCH=386 go test (deterministic cores) at ${SECONDS}s"
  exec386=()
  if ! can_run_386; then
    echo "   (this kernel cannot run 32-bit binaries; running them under qemu-i386)"
    exec386=(-exec "$PWD/scripts/exec386.sh")
  fi
  GOARCH=386 CGO_ENABLED=0 gotest -count=1 "${exec386[@]}" "${pure[@]}"
fi
echo "== summary after ${SECONDS}s"
# HOSTFALL_REQUIRE_ALL_TESTS=1 (CI) fails the run when a test was skipped for
# want of something this machine should have (root, Xvfb, avahi, …).
bin/testsum -summary "$outcomes" ${HOSTFALL_REQUIRE_ALL_TESTS:+-require-all} || failed=1
if [ "$failed" -ne 0 ]; then
  echo "== some tests failed (their output is above)"
  exit 1
fi
echo "== all tests passed"
