#!/usr/bin/env bash
# make test: vet, then every test. Packages that run goroutines (the I/O shells)
# run under the race detector; the pure cores run plain and again as 32-bit code,
# which catches any dependence on int size.
set -euo pipefail
cd "$(dirname "$0")/.."

# Packages with goroutines of their own. A new concurrent package goes here.
race_dirs=(p2p sound render)

echo "== go vet"
go vet ./...

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

echo "== go test (${#plain[@]} packages)"
go test -count=1 "${plain[@]}"

if [ "${#race[@]}" -gt 0 ]; then
  echo "== go test -race (${#race[@]} packages)"
  go test -count=1 -race "${race[@]}"
fi

mapfile -t pure < <(go list ./game/... ./session/... 2>/dev/null || true)
if [ "${#pure[@]}" -gt 0 ]; then
  # Some kernels cannot run 32-bit programs (no IA32 emulation): then at least
  # type-check and vet the 32-bit build.
  probe=$(mktemp -d)
  printf 'package main\nfunc main() {}\n' >"$probe/p.go"
  if GOARCH=386 CGO_ENABLED=0 go run "$probe/p.go" 2>/dev/null; then
    echo "== GOARCH=386 go test (deterministic cores)"
    GOARCH=386 CGO_ENABLED=0 go test -count=1 "${pure[@]}"
  else
    echo "== GOARCH=386 go vet (this kernel cannot run 32-bit programs)"
    GOARCH=386 CGO_ENABLED=0 go vet "${pure[@]}"
  fi
  rm -rf "$probe"
fi
echo "== all tests passed"
