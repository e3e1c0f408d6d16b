package game_test

import (
	"strings"
	"testing"

	"hostfall/game"
)

func TestCompareNamesWhatDiffers(t *testing.T) {
	a, _ := game.NewWorld(game.FreeForAll(4, 2))
	b, _ := game.NewWorld(game.FreeForAll(4, 2))
	for range 50 {
		a.Step(nil)
		b.Step(nil)
	}
	if d := game.Compare(a, b, 5); len(d) != 0 {
		t.Fatalf("equal worlds differ: %q", d)
	}
	// Player 0 trains a worker in b only: gold, supply and the base's queue differ.
	var base game.UnitID
	us := b.Units()
	for i := range us.Len() {
		if us.Alive(i) && us.Owner(i) == 0 && us.Kind(i) == game.Base {
			base = us.ID(i)
		}
	}
	b.Step([]game.Command{{Player: 0, Kind: game.CmdTrain, Units: []game.UnitID{base}, Build: game.Worker}})
	a.Step(nil)
	d := strings.Join(game.Compare(a, b, 5), "\n")
	for _, want := range []string{"player 0: gold", "slot", "queue 0/0", "vs"} {
		if !strings.Contains(d, want) {
			t.Errorf("comparison lacks %q:\n%s", want, d)
		}
	}
}

// A pause on one side only is named in the comparison.
func TestCompareNamesAPause(t *testing.T) {
	a, _ := game.NewWorld(game.FreeForAll(4, 2))
	b, _ := game.NewWorld(game.FreeForAll(4, 2))
	a.Step(nil)
	b.Step([]game.Command{{Player: 1, Kind: game.CmdPause}})
	d := strings.Join(game.Compare(a, b, 5), "\n")
	for _, want := range []string{"pause off vs by player 1", "pauses used 0 vs 1"} {
		if !strings.Contains(d, want) {
			t.Errorf("comparison lacks %q:\n%s", want, d)
		}
	}
}
