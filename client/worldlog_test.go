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
