#!/usr/bin/env bash
# make botgames: the long bot runs of issue 16, with their numbers.
#   1. Every bot game ends with a winner: SEEDS seeds (default 50) × map sizes
#      64, 128, 256 × 2 to 8 players, levels mixed by seed (TestEveryGameEnds).
#   2. The levels rank hard > normal > easy: RANK seeds (default 20) of each
#      pair, one against one on 64 and 128 maps, both seats (TestLevelsHeadToHead).
# Prints the summary lines: games, turns (median, p90, max) and win rates.
# Both cores: the games run as parallel subtests (go test's -parallel).
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=${SEEDS:-50}
RANK=${RANK:-20}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
SECONDS=0
status=0
go test -count=1 -timeout 12h -run '^(TestEveryGameEnds|TestLevelsHeadToHead)$' ./game/ai/ \
  -endgames="$SEEDS" -rank="$RANK" -v >"$log" 2>&1 || status=$?
grep -E 'summary|win rate|^\s+long_test.go.*(over|won only)|^(--- FAIL|FAIL|ok|PASS)' "$log" | grep -v -- '--- PASS' || true
echo "botgames: SEEDS=$SEEDS RANK=$RANK, $((SECONDS / 60)) min $((SECONDS % 60)) s, exit $status"
exit "$status"
