package ai

import (
	"flag"
	"fmt"
	"slices"
	"sync"
	"testing"

	"hostfall/game"
)

// The long bot runs of scripts/botgames.sh; opt-in, as they take minutes.
var (
	flagEndGames = flag.Int("endgames", 0, "opt-in: play this many seeds × map sizes 64, 128, 256 × 2 to 8 players; every game must end with a winner (scripts/botgames.sh)")
	flagRank     = flag.Int("rank", 0, "opt-in: play this many seeds of each pair of levels head to head on 64 and 128 maps and print the win rates (scripts/botgames.sh)")
)

// result is one finished bot game.
type result struct {
	name    string
	size    int
	turn    int
	winner  bool
	byScore bool
}

// endLevels gives the players of a game levels that vary with the seed, so
// every level plays every map and seat, easy against easy included.
func endLevels(seed uint64, n int) []Level {
	ls := make([]Level, n)
	for p := range ls {
		ls[p] = Level((seed + uint64(p)*(seed/3+1)) % uint64(numLevels))
	}
	return ls
}

// TestEveryGameEnds: over -endgames seeds, each map size 64, 128, 256 and
// each player count 2 to 8, every bot game ends with a winner by
// game.ScoreTurn. It prints how long games ran and how many the score
// decided (the behavioural goal: none).
func TestEveryGameEnds(t *testing.T) {
	if *flagEndGames == 0 {
		t.Skip("opt-in: run with -endgames=N (scripts/botgames.sh)")
	}
	var mu sync.Mutex
	var results []result
	t.Run("games", func(t *testing.T) {
		// Seeds outermost, so a run cut short has covered every size and
		// player count alike.
		for seed := uint64(1); seed <= uint64(*flagEndGames); seed++ {
			for _, size := range []int{64, 128, 256} {
				for players := 2; players <= game.MaxPlayers; players++ {
					name := fmt.Sprintf("seed%d/size%d/players%d", seed, size, players)
					t.Run(name, func(t *testing.T) {
						t.Parallel()
						cfg := game.FreeForAll(seed, players)
						cfg.Width, cfg.Height = size, size
						levels := endLevels(seed, players)
						m := play(t, cfg, levels, seed, game.ScoreTurn+1)
						w := m.World
						_, won := w.Winner()
						r := result{name: name, size: size, turn: w.Turn(), winner: won, byScore: w.ByScore()}
						t.Logf("game size %d players %d seed %d levels %v: turn %d winner %v by score %v",
							size, players, seed, levels, r.turn, r.winner, r.byScore)
						mu.Lock()
						results = append(results, r)
						mu.Unlock()
						if !won || w.Turn() > game.ScoreTurn {
							t.Errorf("%s (levels %v): over %v, winner %v at turn %d", name, levels, w.Over(), won, w.Turn())
						}
					})
				}
			}
		}
	})
	summarizeEnds(t, results)
}

// summarizeEnds logs the numbers of TestEveryGameEnds by map size.
func summarizeEnds(t *testing.T, rs []result) {
	slices.SortFunc(rs, func(a, b result) int { return a.turn - b.turn })
	for _, size := range []int{64, 128, 256} {
		var turns []int
		score, nowin := 0, 0
		for _, r := range rs {
			if r.size != size {
				continue
			}
			turns = append(turns, r.turn)
			if r.byScore {
				score++
			}
			if !r.winner {
				nowin++
			}
		}
		if len(turns) == 0 {
			continue
		}
		t.Logf("summary size %d: %d games, %d without a winner, %d decided by score; turns median %d, p90 %d, max %d (%s)",
			size, len(turns), nowin, score, turns[len(turns)/2], turns[len(turns)*9/10], turns[len(turns)-1],
			gameTime(turns[len(turns)-1]))
	}
	if n := len(rs); n > 0 {
		t.Logf("summary all: %d games, the longest %s ended at turn %d (%s); the rule ends any game at turn %d",
			n, rs[n-1].name, rs[n-1].turn, gameTime(rs[n-1].turn), game.ScoreTurn)
	}
}

func gameTime(turns int) string { return fmt.Sprintf("%d:%02d", turns/1200, turns/20%60) }

// TestLevelsHeadToHead: -rank seeds of each pair of levels, one against
// one on 64 and 128 maps, each level in both seats; prints the win rates
// and wants the stronger level to win at least 60 %.
func TestLevelsHeadToHead(t *testing.T) {
	if *flagRank == 0 {
		t.Skip("opt-in: run with -rank=N (scripts/botgames.sh)")
	}
	pairs := []struct{ strong, weak Level }{{Hard, Normal}, {Normal, Easy}, {Hard, Easy}}
	wins := make([]int, len(pairs))
	games := make([]int, len(pairs))
	var mu sync.Mutex
	t.Run("games", func(t *testing.T) {
		for j, pr := range pairs {
			for _, size := range []int{64, 128} {
				for seed := uint64(1); seed <= uint64(*flagRank); seed++ {
					t.Run(fmt.Sprintf("%v-%v/size%d/seed%d", pr.strong, pr.weak, size, seed), func(t *testing.T) {
						t.Parallel()
						won, last := duel(t, pr.strong, pr.weak, seed, size, game.ScoreTurn+1)
						t.Logf("duel %v-%v size %d seed %d: %v won %v at turn %d", pr.strong, pr.weak, size, seed, pr.strong, won, last)
						mu.Lock()
						games[j]++
						if won {
							wins[j]++
						}
						mu.Unlock()
					})
				}
			}
		}
	})
	for j, pr := range pairs {
		rate := 100 * wins[j] / max(games[j], 1)
		t.Logf("win rate %s over %s: %d of %d games (%d %%)", pr.strong, pr.weak, wins[j], games[j], rate)
		if rate < 60 {
			t.Errorf("%s won only %d %% against %s", pr.strong, rate, pr.weak)
		}
	}
}
