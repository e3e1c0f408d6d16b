package client

import (
	"testing"

	"hostfall/game"
)

func TestWorldLogKeepsTheNewestAndDrains(t *testing.T) {
	var l WorldLog
	for i := range maxWorldEvents + 10 {
		l.Add([]game.Event{{Unit: game.UnitID(i)}})
	}
	got := l.Drain(nil)
	if len(got) != maxWorldEvents || got[0].Unit != 10 || got[len(got)-1].Unit != maxWorldEvents+9 {
		t.Fatalf("kept %d events from number %d, want the newest %d", len(got), got[0].Unit, maxWorldEvents)
	}
	if again := l.Drain(nil); len(again) != 0 {
		t.Fatalf("a second drain gave %d events", len(again))
	}
}

func TestEventLogKeepsTheNewestAndDrains(t *testing.T) {
	var l EventLog
	for i := range maxEvents + 3 {
		l.Push(Event{Turn: uint64(i)})
	}
	got := l.Drain(nil)
	if len(got) != maxEvents || got[0].Turn != 3 {
		t.Fatalf("kept %d events from turn %d, want the newest %d", len(got), got[0].Turn, maxEvents)
	}
	if again := l.Drain(nil); len(again) != 0 {
		t.Fatalf("a second drain gave %d events", len(again))
	}
}

func TestRosterCopies(t *testing.T) {
	var r Roster
	ps := []Player{{Name: "a"}, {Name: "b"}}
	r.Set(ps, 1, true)
	ps[0].Name = "changed"
	got := r.Players()
	got[1].Name = "changed too"
	if again := r.Players(); again[0].Name != "a" || again[1].Name != "b" {
		t.Fatalf("the roster shares its slice: %+v", again)
	}
	if me, ok := r.Me(); me != 1 || !ok {
		t.Fatalf("me %d %v", me, ok)
	}
}
