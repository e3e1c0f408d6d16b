package ai

import (
	"flag"
	"reflect"
	"testing"

	"hostfall/game"
)

var seedFlag = flag.Uint64("seed", 0, "replay with this seed (0: the built-in seeds)")

func seeds(t *testing.T, builtIn ...uint64) []uint64 {
	if *seedFlag != 0 {
		builtIn = []uint64{*seedFlag}
	}
	t.Logf("seeds %v (replay one with -seed N)", builtIn)
	return builtIn
}

func TestParseLevel(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Level
		ok   bool
	}{{"easy", Easy, true}, {"HARD", Hard, true}, {"medium", 0, false}, {"", 0, false}} {
		got, err := ParseLevel(tc.in)
		if (err == nil) != tc.ok || tc.ok && got != tc.want {
			t.Errorf("ParseLevel(%q) = %v, %v", tc.in, got, err)
		}
	}
}

func TestParseLevels(t *testing.T) {
	if got, err := ParseLevels("easy, hard,easy"); err != nil || !reflect.DeepEqual(got, []Level{Easy, Hard, Easy}) {
		t.Errorf("ParseLevels(\"easy, hard,easy\") = %v, %v", got, err)
	}
	for _, in := range []string{"", "easy,", "easy,medium"} {
		if got, err := ParseLevels(in); err == nil {
			t.Errorf("ParseLevels(%q) = %v, want an error", in, got)
		}
	}
}

// play runs a match to its end or to turns.
func play(t *testing.T, cfg game.Config, levels []Level, seed uint64, turns int) *Match {
	t.Helper()
	m, err := NewMatch(cfg, levels, seed)
	if err != nil {
		t.Fatal(err)
	}
	for m.World.Turn() < turns && !m.World.Over() {
		if _, err := m.Turn(); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// TestHardBeatsEasy plays one hard bot against one easy bot on several
// maps, the hard bot in either seat, and wants the hard bot to win most.
func TestHardBeatsEasy(t *testing.T) {
	ss := seeds(t, 1, 2, 3, 4, 5, 6)
	wins := 0
	for _, seed := range ss {
		hard := game.PlayerID(seed % 2)
		levels := []Level{Easy, Easy}
		levels[hard] = Hard
		m := play(t, game.FreeForAll(seed, 2), levels, seed, 20000)
		team, ok := m.World.Winner()
		won := ok && game.PlayerID(team) == hard
		if won {
			wins++
		}
		t.Logf("seed %d: hard bot is player %d; over at turn %d, winner team %d (%v); hard won: %v",
			seed, hard, m.World.Turn(), team, ok, won)
	}
	if wins*3 < len(ss)*2 {
		t.Fatalf("hard won %d of %d games; it should win most", wins, len(ss))
	}
}

func TestBotsAreDeterministic(t *testing.T) {
	for _, seed := range seeds(t, 11) {
		a, _ := NewMatch(game.FreeForAll(seed, 3), []Level{Hard, Easy, Hard}, seed)
		b, _ := NewMatch(game.FreeForAll(seed, 3), []Level{Hard, Easy, Hard}, seed)
		for turn := range 3000 {
			ca, _ := a.Turn()
			cb, _ := b.Turn()
			if !reflect.DeepEqual(ca, cb) || a.World.Hash() != b.World.Hash() {
				t.Fatalf("seed %d: bots diverged at turn %d", seed, turn)
			}
		}
	}
}

// TestBotCommandsAreSound: bots never send commands that only a buggy or
// cheating client would (other players' units, places off the map, …).
func TestBotCommandsAreSound(t *testing.T) {
	for _, seed := range seeds(t, 21) {
		m, _ := NewMatch(game.FreeForAll(seed, 4), []Level{Hard, Easy}, seed)
		counts := map[game.Reason]int{}
		for m.World.Turn() < 8000 && !m.World.Over() {
			m.Turn()
			for _, ev := range m.World.Events() {
				if ev.Kind == game.EvRejected {
					counts[ev.Reason]++
				}
			}
		}
		for r, n := range counts {
			switch r {
			case game.RejCannotBuild, game.RejNoGold, game.RejNoSupply:
				// a site taken or gold spent between decision and step: fair
			default:
				t.Errorf("seed %d: %d bot commands refused: %v", seed, n, r)
			}
		}
	}
}
