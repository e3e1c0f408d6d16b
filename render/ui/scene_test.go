package ui

import (
	"testing"

	"hostfall/game"
)

func TestExtractInterpolates(t *testing.T) {
	f := newFixture(t)
	id := f.own(game.Worker)[0].ID
	f.w.Step([]game.Command{{Player: 0, Kind: game.CmdMove, Units: []game.UnitID{id}, X: 10, Y: 10}})
	for range 5 {
		f.w.Step(nil)
	}
	var ex Extractor
	ex.Extract(f.w, 0, false, 1)
	cur := WorldPos(mustUnit(t, f.w, id).Pos)
	f.w.Step(nil)
	next := WorldPos(mustUnit(t, f.w, id).Pos)
	if cur == next {
		t.Fatal("the worker did not move")
	}
	for _, tt := range []struct {
		alpha float64
		want  Vec
	}{{0, cur}, {0.5, cur.Lerp(next, 0.5)}, {1, next}} {
		u, ok := ex.Extract(f.w, 0, false, tt.alpha).Find(id)
		if !ok {
			t.Fatal("worker missing from the scene")
		}
		if !near(u.Pos, tt.want) {
			t.Errorf("alpha %v: at %v, want %v", tt.alpha, u.Pos, tt.want)
		}
	}
	// After a jump of many turns (a restore, a late join) units snap.
	for range 2 * maxLerpTurns {
		f.w.Step(nil)
	}
	now := WorldPos(mustUnit(t, f.w, id).Pos)
	if u, _ := ex.Extract(f.w, 0, false, 0).Find(id); !near(u.Pos, now) {
		t.Errorf("after a jump: at %v, want %v", u.Pos, now)
	}
}

func mustUnit(t *testing.T, w *game.World, id game.UnitID) game.UnitInfo {
	t.Helper()
	u, ok := w.Unit(id)
	if !ok {
		t.Fatalf("unit %v is gone", id)
	}
	return u
}

func TestExtractHidesFog(t *testing.T) {
	f := newFixture(t)
	n := 0
	us := f.w.Units()
	for i := range us.Len() {
		if us.Alive(i) {
			n++
		}
	}
	for _, u := range f.sc.Units {
		if !u.Own {
			t.Fatalf("player 0 sees %v of player %d across the map at turn 8", u.Kind, u.Owner)
		}
	}
	var ex Extractor
	if sc := ex.Extract(f.w, 0, true, 1); len(sc.Units) != n {
		t.Fatalf("an observer sees %d of %d units", len(sc.Units), n)
	}
	// Buildings come first, so units are drawn over them.
	seenUnit := false
	for _, u := range f.sc.Units {
		if !u.Building {
			seenUnit = true
		} else if seenUnit {
			t.Fatal("a building after a unit in the scene")
		}
	}
}

func TestEventCues(t *testing.T) {
	f := newFixture(t)
	workers := f.own(game.Worker)
	here := f.w.Starts()[0]
	there := f.w.Starts()[2]
	evs := []game.Event{
		{Kind: game.EvAttack, Player: 0, Other: 1, Unit: workers[0].ID, UnitKind: game.Worker, Pos: here},
		{Kind: game.EvAttack, Player: 2, Other: 3, UnitKind: game.Soldier, Pos: there}, // in the fog
		{Kind: game.EvDied, Player: 0, UnitKind: game.Base, Pos: here},
		{Kind: game.EvTrained, Player: 0, Unit: workers[1].ID, UnitKind: game.Worker, Pos: here},
		{Kind: game.EvTrained, Player: 1, UnitKind: game.Worker, Pos: there},
		{Kind: game.EvRejected, Player: 0, Reason: game.RejNoGold},
		{Kind: game.EvUnderAttack, Player: 0, Pos: here},
	}
	cues, notes := EventCues(nil, nil, evs, 0, false, f.w)
	want := []Cue{
		{Sound: "worker.attack", Pos: WorldPos(here), At: true},
		{Sound: "building.destroyed", Pos: WorldPos(here), At: true},
		{Sound: "worker.ready", Origin: workers[1].ID, Pos: WorldPos(here), At: true},
		{Sound: SoundNoGold},
		{Sound: "building.under_attack"},
	}
	if len(cues) != len(want) {
		t.Fatalf("cues %+v, want %+v", cues, want)
	}
	for i := range want {
		if cues[i] != want[i] {
			t.Errorf("cue %d: %+v, want %+v", i, cues[i], want[i])
		}
	}
	if len(notes) != 2 || notes[0].Text != "Not enough gold." || !notes[0].Error {
		t.Fatalf("notices %+v", notes)
	}
	// A battle of many is told by a few sounds.
	var battle []game.Event
	for range 200 {
		battle = append(battle, game.Event{Kind: game.EvAttack, UnitKind: game.Soldier, Pos: here})
	}
	if cues, _ := EventCues(nil, nil, battle, 0, false, f.w); len(cues) != maxCombatCues {
		t.Fatalf("200 attacks made %d sounds", len(cues))
	}
}
