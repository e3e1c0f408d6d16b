package game

import (
	"testing"
)

// rejected returns the reasons of the EvRejected events of the last step.
func rejected(w *World) []Reason {
	var rs []Reason
	for _, ev := range w.Events() {
		if ev.Kind == EvRejected {
			rs = append(rs, ev.Reason)
		}
	}
	return rs
}

func findEvent(w *World, k EventKind) (Event, bool) {
	for _, ev := range w.Events() {
		if ev.Kind == k {
			return ev, true
		}
	}
	return Event{}, false
}

func TestCommandRefusals(t *testing.T) {
	type scene struct {
		w                   *World
		worker, soldier     UnitID // player 0's
		enemy, ally, base   UnitID // player 1's soldier, player 2's worker, player 0's base
		barracks, dead, far UnitID
	}
	setup := func(t *testing.T) scene {
		w := flatWorld(t, 40, 0, 1, 0)
		s := scene{w: w}
		s.worker = put(t, w, Worker, 0, 10, 10)
		s.soldier = put(t, w, Soldier, 0, 12, 10)
		s.enemy = put(t, w, Soldier, 1, 30, 10)
		s.ally = put(t, w, Worker, 2, 14, 10)
		s.far = put(t, w, Worker, 1, 38, 2)
		s.base = w.id(w.lookup(makeID(0, 1)))
		b := w.placeBuilding(Barracks, 0, 20, 20, true)
		s.barracks = w.id(b)
		d := put(t, w, Worker, 0, 16, 16)
		w.remove(w.lookup(d))
		s.dead = d
		w.terrain[5*40+5] = Rock
		w.rebuildDerived()
		see(w)
		f := &w.fog[w.tidx[0]]
		f.stamp[2*40+38] = 0 // hide the far worker from team 0
		return s
	}
	many := make([]UnitID, MaxCommandUnits+1)
	for _, tc := range []struct {
		name string
		cmd  func(s scene) Command
		prep func(s scene)
		want Reason
	}{
		{"unknown player", func(s scene) Command { return Command{Player: 9, Kind: CmdStop} }, nil, RejUnknownPlayer},
		{"unknown kind", func(s scene) Command { return Command{Kind: 99, Units: []UnitID{s.soldier}} }, nil, RejUnknownKind},
		{"too many units", func(s scene) Command { return Command{Kind: CmdStop, Units: many} }, nil, RejTooManyUnits},
		{"not owner", func(s scene) Command {
			return Command{Kind: CmdMove, Units: []UnitID{s.soldier, s.enemy}, X: 1, Y: 1}
		}, nil, RejNotOwner},
		{"ally's unit", func(s scene) Command { return Command{Kind: CmdStop, Units: []UnitID{s.ally}} }, nil, RejNotOwner},
		{"off the map", func(s scene) Command { return Command{Kind: CmdMove, Units: []UnitID{s.soldier}, X: 40, Y: 3} }, nil, RejOutOfMap},
		{"negative", func(s scene) Command { return Command{Kind: CmdAttackMove, Units: []UnitID{s.soldier}, X: -1} }, nil, RejOutOfMap},
		{"only dead units", func(s scene) Command { return Command{Kind: CmdMove, Units: []UnitID{s.dead}, X: 1, Y: 1} }, nil, RejWrongUnit},
		{"building moves", func(s scene) Command { return Command{Kind: CmdMove, Units: []UnitID{s.base}, X: 1, Y: 1} }, nil, RejWrongUnit},
		{"attack own", func(s scene) Command { return Command{Kind: CmdAttack, Units: []UnitID{s.soldier}, Target: s.worker} }, nil, RejBadTarget},
		{"attack ally", func(s scene) Command { return Command{Kind: CmdAttack, Units: []UnitID{s.soldier}, Target: s.ally} }, nil, RejBadTarget},
		{"attack nothing", func(s scene) Command { return Command{Kind: CmdAttack, Units: []UnitID{s.soldier}, Target: s.dead} }, nil, RejBadTarget},
		{"attack hidden", func(s scene) Command { return Command{Kind: CmdAttack, Units: []UnitID{s.soldier}, Target: s.far} }, nil, RejNotVisible},
		{"gather grass", func(s scene) Command { return Command{Kind: CmdGather, Units: []UnitID{s.worker}, X: 1, Y: 1} }, nil, RejBadTarget},
		{"soldier gathers", func(s scene) Command {
			s.w.gold[3*40+3], s.w.terrain[3*40+3] = 100, GoldField
			return Command{Kind: CmdGather, Units: []UnitID{s.soldier}, X: 3, Y: 3}
		}, nil, RejWrongUnit},
		{"build a soldier", func(s scene) Command {
			return Command{Kind: CmdBuild, Units: []UnitID{s.worker}, Build: Soldier, X: 10, Y: 12}
		}, nil, RejUnknownKind},
		{"build on rock", func(s scene) Command {
			return Command{Kind: CmdBuild, Units: []UnitID{s.worker}, Build: Barracks, X: 4, Y: 4}
		}, nil, RejCannotBuild},
		{"build over the edge", func(s scene) Command {
			return Command{Kind: CmdBuild, Units: []UnitID{s.worker}, Build: Barracks, X: 38, Y: 4}
		}, nil, RejOutOfMap},
		{"build unexplored", func(s scene) Command {
			return Command{Kind: CmdBuild, Units: []UnitID{s.worker}, Build: Barracks, X: 37, Y: 1}
		}, nil, RejNotVisible},
		{"soldier builds", func(s scene) Command {
			return Command{Kind: CmdBuild, Units: []UnitID{s.soldier}, Build: Barracks, X: 10, Y: 12}
		}, nil, RejWrongUnit},
		{"build without gold", func(s scene) Command {
			return Command{Kind: CmdBuild, Units: []UnitID{s.worker}, Build: Base, X: 10, Y: 12}
		}, func(s scene) { s.w.pl[0].gold = 399 }, RejNoGold},
		{"train without gold", func(s scene) Command {
			return Command{Kind: CmdTrain, Units: []UnitID{s.base}, Build: Worker}
		}, func(s scene) { s.w.pl[0].gold = 49 }, RejNoGold},
		{"train without supply", func(s scene) Command {
			return Command{Kind: CmdTrain, Units: []UnitID{s.barracks}, Build: Archer}
		}, func(s scene) {
			for j := 0; s.w.pl[0].supplyUsed < s.w.pl[0].supplyCap(); j++ {
				put(t, s.w, Soldier, 0, 2+j%10, 24+j/10)
			}
		}, RejNoSupply},
		{"train at the wrong building", func(s scene) Command {
			return Command{Kind: CmdTrain, Units: []UnitID{s.base}, Build: Soldier}
		}, nil, RejWrongUnit},
		{"train a building", func(s scene) Command {
			return Command{Kind: CmdTrain, Units: []UnitID{s.base}, Build: Base}
		}, nil, RejUnknownKind},
		{"queue full", func(s scene) Command {
			return Command{Kind: CmdTrain, Units: []UnitID{s.base}, Build: Worker}
		}, func(s scene) {
			for range QueueMax {
				s.w.Step([]Command{{Kind: CmdTrain, Units: []UnitID{s.base}, Build: Worker}})
			}
		}, RejQueueFull},
		{"rally with a unit", func(s scene) Command { return Command{Kind: CmdRally, Units: []UnitID{s.soldier}, X: 1, Y: 1} }, nil, RejWrongUnit},
		{"rally off the map", func(s scene) Command { return Command{Kind: CmdRally, Units: []UnitID{s.base}, X: 1, Y: 99} }, nil, RejOutOfMap},
		{"surrendered", func(s scene) Command { return Command{Kind: CmdStop, Units: []UnitID{s.soldier}} },
			func(s scene) { s.w.Step([]Command{{Kind: CmdSurrender}}) }, RejPlayerOut},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := setup(t)
			if tc.prep != nil {
				tc.prep(s)
			}
			gold := s.w.pl[0].gold
			s.w.Step([]Command{tc.cmd(s)})
			got := rejected(s.w)
			if len(got) != 1 || got[0] != tc.want {
				t.Fatalf("refusals %v, want [%v]", got, tc.want)
			}
			if s.w.pl[0].gold != gold {
				t.Errorf("a refused command changed gold from %d to %d", gold, s.w.pl[0].gold)
			}
			checkInvariants(t, s.w)
		})
	}
}

// run steps w with no commands until cond holds or n ticks pass.
func run(w *World, n int, cond func() bool) bool {
	for range n {
		if cond() {
			return true
		}
		w.Step(nil)
	}
	return cond()
}

func TestTrainWorker(t *testing.T) {
	w := flatWorld(t, 40, 0, 1)
	base := w.id(0)
	w.Step([]Command{{Kind: CmdRally, Units: []UnitID{base}, X: 20, Y: 20}, {Kind: CmdTrain, Units: []UnitID{base}, Build: Worker}})
	if w.pl[0].gold != 1000-stats[Worker].Cost || w.pl[0].supplyUsed != 1 {
		t.Fatalf("gold %d supply %d after queueing a worker", w.pl[0].gold, w.pl[0].supplyUsed)
	}
	var got Event
	ok := run(w, int(stats[Worker].Time)+5, func() bool { ev, ok := findEvent(w, EvTrained); got = ev; return ok })
	if !ok || got.UnitKind != Worker || got.Player != 0 {
		t.Fatalf("no worker trained: %+v", got)
	}
	u, _ := w.Unit(got.Unit)
	if u.Order != OrderMove || u.Goal != [2]int{20, 20} {
		t.Fatalf("trained worker ignores the rally point: %+v", u)
	}
	checkInvariants(t, w)
}

func TestGatherBringsGoldHome(t *testing.T) {
	w := flatWorld(t, 40, 0, 1)
	for y := 30; y < 32; y++ {
		for x := 12; x < 14; x++ {
			w.terrain[y*40+x], w.gold[y*40+x] = GoldField, 100
		}
	}
	w.rebuildDerived()
	see(w)
	wk := put(t, w, Worker, 0, 8, 30)
	w.Step([]Command{{Kind: CmdGather, Units: []UnitID{wk}, X: 12, Y: 30}})
	before := w.pl[0].gold
	if !run(w, 600, func() bool { return w.pl[0].gold >= before+3*CarryGold }) {
		u, _ := w.Unit(wk)
		t.Fatalf("gold %d after 600 ticks (started %d); worker %+v", w.pl[0].gold, before, u)
	}
	if w.pl[0].mined < 3*CarryGold {
		t.Fatalf("mined %d", w.pl[0].mined)
	}
	checkInvariants(t, w)
}

func TestGoldRunsOut(t *testing.T) {
	w := flatWorld(t, 40, 0, 1)
	w.terrain[30*40+12], w.gold[30*40+12] = GoldField, CarryGold*2
	w.rebuildDerived()
	see(w)
	wk := put(t, w, Worker, 0, 10, 30)
	w.Step([]Command{{Kind: CmdGather, Units: []UnitID{wk}, X: 12, Y: 30}})
	if !run(w, 1000, func() bool { u, _ := w.Unit(wk); return u.Order == OrderIdle }) {
		t.Fatal("worker still busy after the gold ran out")
	}
	if w.terrain[30*40+12] != Grass || w.pl[0].mined != CarryGold*2 {
		t.Fatalf("tile %s, mined %d", w.terrain[30*40+12], w.pl[0].mined)
	}
}

func TestBuildBarracks(t *testing.T) {
	w := flatWorld(t, 40, 0, 1)
	see(w)
	wk := put(t, w, Worker, 0, 10, 10)
	blocker := put(t, w, Soldier, 0, 21, 21) // stands on the site; must step aside
	w.Step([]Command{{Kind: CmdBuild, Units: []UnitID{wk}, Build: Barracks, X: 20, Y: 20}})
	if w.pl[0].gold != 1000-stats[Barracks].Cost {
		t.Fatalf("gold %d: the building was not paid for", w.pl[0].gold)
	}
	var b Event
	if !run(w, 300, func() bool { var ok bool; b, ok = findEvent(w, EvBuildStarted); return ok }) {
		t.Fatal("the worker never placed the barracks")
	}
	if u, _ := w.Unit(blocker); u.Pos.X>>TileShift >= 20 && u.Pos.X>>TileShift <= 22 && u.Pos.Y>>TileShift >= 20 && u.Pos.Y>>TileShift <= 22 {
		t.Fatalf("a unit is left inside the building at %v", u.Pos)
	}
	capBefore := w.pl[0].supplyCap()
	if !run(w, int(stats[Barracks].Time)+2, func() bool { _, ok := findEvent(w, EvBuildingDone); return ok }) {
		t.Fatal("the barracks never finished")
	}
	if got, _ := w.Unit(b.Unit); !got.Built || got.HP != stats[Barracks].HP {
		t.Fatalf("finished barracks %+v", got)
	}
	if w.pl[0].supplyCap() != capBefore+stats[Barracks].Provides {
		t.Fatalf("supply cap %d, want %d", w.pl[0].supplyCap(), capBefore+stats[Barracks].Provides)
	}
	checkInvariants(t, w)
}

func TestCanceledBuildRefunds(t *testing.T) {
	w := flatWorld(t, 40, 0, 1)
	see(w)
	wk := put(t, w, Worker, 0, 10, 10)
	w.Step([]Command{{Kind: CmdBuild, Units: []UnitID{wk}, Build: Barracks, X: 30, Y: 20}})
	w.Step([]Command{{Kind: CmdStop, Units: []UnitID{wk}}})
	if w.pl[0].gold != 1000 {
		t.Fatalf("gold %d after canceling, want 1000", w.pl[0].gold)
	}
}

func TestCombatKills(t *testing.T) {
	w := flatWorld(t, 40, 0, 1)
	see(w)
	s := put(t, w, Soldier, 0, 10, 10)
	v := put(t, w, Worker, 1, 16, 12)
	w.Step([]Command{{Kind: CmdAttack, Units: []UnitID{s}, Target: v}})
	attacked, alerted := false, false
	ok := run(w, 600, func() bool {
		for _, ev := range w.Events() {
			attacked = attacked || ev.Kind == EvAttack && ev.Unit == s && ev.Target == v
			alerted = alerted || ev.Kind == EvUnderAttack && ev.Player == 1
		}
		ev, died := findEvent(w, EvDied)
		return died && ev.Unit == v && ev.Other == 0
	})
	if !ok || !attacked || !alerted {
		t.Fatalf("died %v, attack events %v, under-attack %v", ok, attacked, alerted)
	}
	if _, alive := w.Unit(v); alive || w.pl[0].killed != 1 || w.pl[1].lost != 1 {
		t.Fatal("the dead worker is still counted")
	}
	checkInvariants(t, w)
}

func TestIdleSoldiersDefend(t *testing.T) {
	w := flatWorld(t, 40, 0, 1)
	guard := put(t, w, Soldier, 0, 20, 20)
	raider := put(t, w, Soldier, 1, 24, 20)
	if !run(w, 400, func() bool { _, ok := w.Unit(raider); return !ok }) {
		if _, ok := w.Unit(guard); ok {
			t.Fatal("neither soldier died: the idle ones never fought")
		}
	}
}

func TestGroupMoveDoesNotStack(t *testing.T) {
	w := flatWorld(t, 48, 0, 1)
	for y := 10; y < 40; y++ {
		w.terrain[y*48+24] = Rock // a wall to walk around
	}
	w.rebuildDerived()
	var group []UnitID
	for j := range 30 {
		group = append(group, put(t, w, Soldier, 0, 5+j%6, 15+j/6))
	}
	w.Step([]Command{{Kind: CmdMove, Units: group, X: 40, Y: 20}})
	done := run(w, 1500, func() bool {
		checkInvariants(t, w)
		for _, id := range group {
			if u, _ := w.Unit(id); u.Order != OrderIdle {
				return false
			}
		}
		return true
	})
	if !done {
		for _, id := range group {
			u, _ := w.Unit(id)
			x, y := u.Pos.Tile()
			t.Logf("%v at (%d,%d) %v blocked %d", id, x, y, u.Order, w.e.blocked[id.slot()])
		}
		t.Fatal("the group never settled")
	}
	for _, id := range group {
		u, _ := w.Unit(id)
		x, y := u.Pos.Tile()
		if absInt(x-40) > 5 || absInt(y-20) > 5 {
			t.Errorf("unit %v stopped at (%d,%d), far from (40,20)", id, x, y)
		}
	}
}

func TestSurrenderEndsTheGame(t *testing.T) {
	w := flatWorld(t, 40, 0, 1, 0)
	w.Step([]Command{{Player: 1, Kind: CmdSurrender}})
	if _, ok := findEvent(w, EvPlayerOut); !ok || !w.pl[1].out {
		t.Fatal("player 1 is not out")
	}
	ev, ok := findEvent(w, EvVictory)
	team, won := w.Winner()
	if !ok || !won || team != 0 || ev.Team != 0 {
		t.Fatalf("victory %v %+v, winner %d %v", ok, ev, team, won)
	}
	if w.pl[1].units != 0 || w.pl[1].buildings != 0 {
		t.Fatal("the surrendered player's units remain")
	}
}

func TestLosingEveryBuildingPutsOut(t *testing.T) {
	w := flatWorld(t, 40, 0, 1, 2)
	put(t, w, Worker, 2, 30, 30)
	w.remove(w.lookup(w.id(2))) // player 2's base
	w.Step(nil)
	if !w.pl[2].out || w.pl[2].units != 0 {
		t.Fatal("player 2 has no building but is still in")
	}
	if w.Over() {
		t.Fatal("the game ended with two teams left")
	}
}
