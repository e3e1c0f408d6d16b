package game

import (
	"bytes"
	"testing"
)

// built places a finished building of kind k for p with its top-left at (x, y).
func built(tb testing.TB, w *World, k Kind, p PlayerID, x, y int) UnitID {
	tb.Helper()
	i := w.placeBuilding(k, p, x, y, true)
	if i < 0 {
		tb.Fatal("world full")
	}
	return w.id(i)
}

func TestTowerShootsWhatComesInRange(t *testing.T) {
	for _, tc := range []struct {
		name   string
		x, y   int // the enemy soldier's tile; the tower covers (10..11, 10..11)
		killed bool
	}{
		{"next to it", 13, 10, true},
		{"at range", 16, 11, true},
		{"out of range", 19, 11, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := flatWorld(t, 40, 0, 1)
			tower := built(t, w, Tower, 0, 10, 10)
			v := put(t, w, Soldier, 1, tc.x, tc.y)
			shot := false
			dead := run(w, 800, func() bool {
				for _, ev := range w.Events() {
					shot = shot || ev.Kind == EvAttack && ev.Unit == tower && ev.UnitKind == Tower
				}
				_, alive := w.Unit(v)
				return !alive
			})
			if dead != tc.killed || shot != tc.killed {
				t.Fatalf("soldier at (%d,%d): killed %v, shot at %v; want %v", tc.x, tc.y, dead, shot, tc.killed)
			}
			checkInvariants(t, w)
		})
	}
}

// ticksToRaze is how long the units of kind k, n of them, take to destroy a
// barracks, or -1 if they do not within limit ticks.
func ticksToRaze(t *testing.T, k Kind, n, limit int) int {
	w := flatWorld(t, 40, 0, 1)
	see(w)
	target := built(t, w, Barracks, 1, 20, 20)
	var us []UnitID
	for j := range n {
		us = append(us, put(t, w, k, 0, 10+j, 21))
	}
	w.Step([]Command{{Kind: CmdAttack, Units: us, Target: target}})
	for tick := range limit {
		if _, ok := w.Unit(target); !ok {
			return tick
		}
		w.Step(nil)
	}
	return -1
}

// A catapult is the answer to buildings: it razes a barracks much faster
// than soldiers of the same cost.
func TestCatapultsRazeBuildings(t *testing.T) {
	cats := ticksToRaze(t, Catapult, 2, 6000)
	soldiers := ticksToRaze(t, Soldier, 4, 6000) // 4 × 75 = 2 × 150 gold
	t.Logf("a barracks falls to 2 catapults in %d ticks, to 4 soldiers in %d", cats, soldiers)
	if cats < 0 || soldiers < 0 || cats*3 >= soldiers*2 {
		t.Fatalf("catapults took %d ticks, soldiers of the same cost %d; catapults should be much faster", cats, soldiers)
	}
}

// workshopWorld is a flat world where player 0 has a finished workshop.
func workshopWorld(t *testing.T) (*World, UnitID) {
	w := flatWorld(t, 40, 0, 1)
	return w, built(t, w, Workshop, 0, 20, 20)
}

func TestResearchRaisesTheLevel(t *testing.T) {
	w, ws := workshopWorld(t)
	s := put(t, w, Soldier, 0, 10, 10)
	v := put(t, w, Soldier, 1, 30, 10)
	hit := w.damage(w.lookup(s), w.lookup(v))
	w.Step([]Command{{Kind: CmdResearch, Units: []UnitID{ws}, Upgrade: UpWeapons}})
	if r := rejected(w); len(r) != 0 || w.pl[0].gold != 1000-UpWeapons.Cost(1) {
		t.Fatalf("refused %v, gold %d", r, w.pl[0].gold)
	}
	if !w.Researching(0, UpWeapons) {
		t.Fatal("the workshop is not researching")
	}
	done := run(w, int(UpWeapons.Time(1))+5, func() bool { _, ok := findEvent(w, EvResearched); return ok })
	if !done || w.Level(0, UpWeapons) != 1 || w.Researching(0, UpWeapons) {
		t.Fatalf("research done %v, level %d", done, w.Level(0, UpWeapons))
	}
	if got := w.damage(w.lookup(s), w.lookup(v)); got != hit+WeaponsBonus {
		t.Fatalf("damage after weapons 1 is %d, want %d", got, hit+WeaponsBonus)
	}
	if got := w.armor(w.lookup(v)); got != stats[Soldier].Armor {
		t.Fatalf("the enemy's armor changed to %d", got)
	}
}

func TestResearchRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		prep func(w *World, ws UnitID)
		up   Upgrade
		want Reason
	}{
		{"no such upgrade", nil, numUpgrades, RejUnknownKind},
		{"at the top", func(w *World, _ UnitID) { w.pl[0].up[UpArmor] = MaxUpgradeLevel }, UpArmor, RejMaxLevel},
		{"already under way", func(w *World, ws UnitID) {
			w.Step([]Command{{Kind: CmdResearch, Units: []UnitID{ws}, Upgrade: UpArmor}})
		}, UpArmor, RejResearching},
		{"busy with the other", func(w *World, ws UnitID) {
			w.Step([]Command{{Kind: CmdResearch, Units: []UnitID{ws}, Upgrade: UpWeapons}})
		}, UpArmor, RejBusy},
		{"busy training", func(w *World, ws UnitID) {
			w.Step([]Command{{Kind: CmdTrain, Units: []UnitID{ws}, Build: Catapult}})
		}, UpArmor, RejBusy},
		{"poor", func(w *World, _ UnitID) { w.pl[0].gold = 99 }, UpArmor, RejNoGold},
		{"unfinished", func(w *World, ws UnitID) { w.e.progress[w.lookup(ws)] = 1 }, UpArmor, RejWrongUnit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, ws := workshopWorld(t)
			if tc.prep != nil {
				tc.prep(w, ws)
			}
			gold := w.pl[0].gold
			w.Step([]Command{{Kind: CmdResearch, Units: []UnitID{ws}, Upgrade: tc.up}})
			if got := rejected(w); len(got) != 1 || got[0] != tc.want {
				t.Fatalf("refusals %v, want [%v]", got, tc.want)
			}
			if w.pl[0].gold != gold {
				t.Errorf("a refused research changed gold from %d to %d", gold, w.pl[0].gold)
			}
			checkInvariants(t, w)
		})
	}
}

func TestTrainingWaitsForResearch(t *testing.T) {
	w, ws := workshopWorld(t)
	w.Step([]Command{{Kind: CmdResearch, Units: []UnitID{ws}, Upgrade: UpArmor}})
	w.Step([]Command{{Kind: CmdTrain, Units: []UnitID{ws}, Build: Catapult}})
	if got := rejected(w); len(got) != 1 || got[0] != RejBusy {
		t.Fatalf("training during research: refusals %v, want [%v]", got, RejBusy)
	}
}

func TestLostWorkshopRefundsItsResearch(t *testing.T) {
	w, ws := workshopWorld(t)
	w.Step([]Command{{Kind: CmdResearch, Units: []UnitID{ws}, Upgrade: UpArmor}})
	w.remove(w.lookup(ws))
	if w.pl[0].gold != 1000 || w.Researching(0, UpArmor) {
		t.Fatalf("gold %d after losing the workshop, want 1000 back", w.pl[0].gold)
	}
}

// A state with research under way and a tower aiming survives a snapshot
// byte for byte, and the restored world plays on in step.
func TestSnapshotKeepsResearchAndTowers(t *testing.T) {
	w, ws := workshopWorld(t)
	built(t, w, Tower, 0, 10, 10)
	put(t, w, Soldier, 1, 14, 11)
	w.pl[0].up[UpWeapons] = 2
	w.Step([]Command{{Kind: CmdResearch, Units: []UnitID{ws}, Upgrade: UpArmor}})
	run(w, 30, func() bool { return false })
	snap := w.Snapshot()
	w2 := new(World)
	if err := w2.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w2.Snapshot(), snap) || w2.Hash() != w.Hash() {
		t.Fatal("the restored world differs")
	}
	if w2.Level(0, UpWeapons) != 2 || !w2.Researching(0, UpArmor) {
		t.Fatal("the restored world lost the upgrades")
	}
	for range 700 {
		w.Step(nil)
		w2.Step(nil)
		if w.Hash() != w2.Hash() {
			t.Fatalf("the restored world diverged at turn %d", w.Turn())
		}
	}
	if w.Level(0, UpArmor) != 1 {
		t.Fatal("the research never finished")
	}
	for _, mut := range []func(w *World){
		func(w *World) { w.pl[0].up[UpWeapons]-- },
		func(w *World) { w.e.research[w.lookup(ws)] = UpWeapons },
	} {
		w3 := new(World)
		w.CopyTo(w3)
		mut(w3)
		if w3.Hash() == w.Hash() {
			t.Fatal("the hash misses an upgrade field")
		}
	}
}

func TestScoreDecidesAtScoreTurn(t *testing.T) {
	w := flatWorld(t, 40, 0, 1)
	put(t, w, Soldier, 1, 30, 10) // player 1 is worth a soldier more
	w.turn, w.clock = ScoreTurn-2, ScoreTurn-2
	w.Step(nil)
	if w.Over() {
		t.Fatal("over before ScoreTurn")
	}
	w.Step(nil)
	team, ok := w.Winner()
	ev, won := findEvent(w, EvVictory)
	if !ok || team != 1 || !won || !ev.ByScore || !w.ByScore() || w.Turn() != ScoreTurn {
		t.Fatalf("at turn %d: winner %d (%v), victory event %+v", w.Turn(), team, ok, ev)
	}
	if w.Score(1) <= w.Score(0) || w.Score(1) != 1000+int64(stats[Base].Cost+stats[Soldier].Cost) {
		t.Fatalf("scores %d and %d", w.Score(0), w.Score(1))
	}
}

func TestScoreTieGoesToTheKillers(t *testing.T) {
	w := flatWorld(t, 40, 0, 1)
	w.pl[1].killed = 1
	w.turn, w.clock = ScoreTurn-1, ScoreTurn-1
	w.Step(nil)
	if team, ok := w.Winner(); !ok || team != 1 {
		t.Fatalf("winner %d (%v), want team 1 on kills", team, ok)
	}
}
