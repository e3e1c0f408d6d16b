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
	}{{"easy", Easy, true}, {"Normal", Normal, true}, {"HARD", Hard, true}, {"medium", 0, false}, {"", 0, false}} {
		got, err := ParseLevel(tc.in)
		if (err == nil) != tc.ok || tc.ok && got != tc.want {
			t.Errorf("ParseLevel(%q) = %v, %v", tc.in, got, err)
		}
	}
}

func TestParseLevels(t *testing.T) {
	if got, err := ParseLevels("easy, hard,normal"); err != nil || !reflect.DeepEqual(got, []Level{Easy, Hard, Normal}) {
		t.Errorf("ParseLevels(\"easy, hard,normal\") = %v, %v", got, err)
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

// duel plays one bot of level a against one of level b on the map of seed
// (a in seat seed%2, so each level plays both seats) and reports whether a
// won and the last turn.
func duel(t *testing.T, a, b Level, seed uint64, size, turns int) (won bool, last int) {
	t.Helper()
	seat := game.PlayerID(seed % 2)
	levels := []Level{b, b}
	levels[seat] = a
	cfg := game.FreeForAll(seed, 2)
	cfg.Width, cfg.Height = size, size
	m := play(t, cfg, levels, seed, turns)
	team, ok := m.World.Winner()
	return ok && game.PlayerID(team) == seat, m.World.Turn()
}

// TestLevelsRank plays each level against the one below it on a few maps,
// in either seat, and wants the stronger one to win most. The 64 maps are
// where the first armies meet soonest, and where hard once won only half
// of its games against normal.
func TestLevelsRank(t *testing.T) {
	ss := seeds(t, 1, 2, 3, 4)
	for _, tc := range []struct{ strong, weak Level }{{Hard, Normal}, {Normal, Easy}} {
		t.Run(tc.strong.String()+"-"+tc.weak.String(), func(t *testing.T) {
			t.Parallel()
			for _, size := range []int{64, 96} {
				wins := 0
				for _, seed := range ss {
					won, last := duel(t, tc.strong, tc.weak, seed, size, game.ScoreTurn)
					if won {
						wins++
					}
					t.Logf("size %d seed %d: %s won: %v (turn %d)", size, seed, tc.strong, won, last)
				}
				if wins*4 < len(ss)*3 {
					t.Errorf("size %d: %s won %d of %d games against %s; it should win most", size, tc.strong, wins, len(ss), tc.weak)
				}
			}
		})
	}
}

// TestEasyIsGentle: an easy bot next to a player who does nothing builds a
// small army (at most six until its first attack) and leaves it at home
// for the first six minutes.
func TestEasyIsGentle(t *testing.T) {
	for _, seed := range seeds(t, 1, 2, 3) {
		w, err := game.NewWorld(game.FreeForAll(seed, 2))
		if err != nil {
			t.Fatal(err)
		}
		m := &Match{World: w, Bots: []*Bot{New(0, Easy, seed)}}
		enemy := w.Starts()[1]
		maxArmy, firstNear := 0, -1
		for w.Turn() < 9000 && !w.Over() {
			if _, err := m.Turn(); err != nil {
				t.Fatal(err)
			}
			army, near := armyOf(w, 0, enemy)
			if w.Turn() <= profiles[Easy].firstAttack {
				maxArmy = max(maxArmy, army)
			}
			if near > 0 && firstNear < 0 {
				firstNear = w.Turn()
			}
			if w.Turn() == 2800 && army > 2 {
				t.Errorf("seed %d: easy has %d fighters at 2:20", seed, army)
			}
		}
		t.Logf("seed %d: largest army before the first attack %d, first fighter near the enemy base at turn %d", seed, maxArmy, firstNear)
		if firstNear >= 0 && firstNear < profiles[Easy].firstAttack {
			t.Errorf("seed %d: easy reached the enemy at turn %d, before %d", seed, firstNear, profiles[Easy].firstAttack)
		}
		if maxArmy > profiles[Easy].armyMax || firstNear < 0 {
			t.Errorf("seed %d: easy's army peaked at %d (limit %d), attacked at turn %d", seed, maxArmy, profiles[Easy].armyMax, firstNear)
		}
	}
}

// armyOf counts player p's fighters, and those within 20 tiles of at.
func armyOf(w *game.World, p game.PlayerID, at game.Point) (all, near int) {
	us := w.Units()
	for i := range us.Len() {
		k := us.Kind(i)
		if !us.Alive(i) || us.Owner(i) != p || k == game.Worker || k.IsBuilding() {
			continue
		}
		all++
		if tileDist(us.Pos(i), at) <= 20 {
			near++
		}
	}
	return all, near
}

// TestBotsUseTheContent: over a long game a normal and a hard bot build
// towers and a workshop, train catapults and research upgrades.
func TestBotsUseTheContent(t *testing.T) {
	seed := seeds(t, 3)[0]
	cfg := game.FreeForAll(seed, 2)
	m, err := NewMatch(cfg, []Level{Normal, Hard}, seed)
	if err != nil {
		t.Fatal(err)
	}
	used := [2]map[string]bool{{}, {}}
	for m.World.Turn() < 14000 && !m.World.Over() {
		if _, err := m.Turn(); err != nil {
			t.Fatal(err)
		}
		for _, ev := range m.World.Events() {
			if ev.Player >= 2 {
				continue
			}
			switch ev.Kind {
			case game.EvBuildingDone, game.EvTrained:
				used[ev.Player][ev.UnitKind.String()] = true
			case game.EvResearched:
				used[ev.Player][ev.Upgrade.String()] = true
			}
		}
	}
	for p, u := range used {
		for _, want := range []string{"tower", "workshop", "catapult", "weapons", "armor"} {
			if !u[want] {
				t.Errorf("player %d (%s) never got a %s in %d turns; it had %v", p, m.Bots[p].Level(), want, m.World.Turn(), u)
			}
		}
	}
}

func TestBotsAreDeterministic(t *testing.T) {
	for _, seed := range seeds(t, 11) {
		a, _ := NewMatch(game.FreeForAll(seed, 3), []Level{Hard, Easy, Normal}, seed)
		b, _ := NewMatch(game.FreeForAll(seed, 3), []Level{Hard, Easy, Normal}, seed)
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
		m, _ := NewMatch(game.FreeForAll(seed, 4), []Level{Hard, Normal, Easy}, seed)
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
