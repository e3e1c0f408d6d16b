package render

import (
	"testing"

	"hostfall/client/fake"
	"hostfall/game"
	"hostfall/session"
)

// TestEndScreenCountsGameTime: a player who went out after a minute-long
// pause went out at 0:20 of game time, and the game lasted 0:20: the end
// screen counts neither the paused turns nor the resume countdown (the
// world stands still for both, so the clock does too).
func TestEndScreenCountsGameTime(t *testing.T) {
	w, players, err := fake.Skirmish(11, 3, 400)
	if err != nil {
		t.Fatal(err)
	}
	players[1].Bot = false
	w.Step([]game.Command{{Player: 0, Kind: game.CmdPause}})
	for range 1200 {
		w.Step(nil)
	}
	w.Step([]game.Command{{Player: 0, Kind: game.CmdResume}})
	for w.Paused().Paused {
		w.Step(nil)
	}
	w.Step([]game.Command{{Player: 1, Kind: game.CmdSurrender}, {Player: 2, Kind: game.CmdSurrender}})
	if !w.Over() {
		t.Fatal("the game did not end with the surrenders")
	}
	if got := endResult(w.Player(1), true); got != "out at 0:20" {
		t.Errorf("player 2's result %q, want out at 0:20", got)
	}
	c := fake.New()
	l := fake.Lobby("Duel", 3)
	l.State = session.StatePlaying
	c.SetLobby(l, 0)
	c.SetGame(w, t0, players, 0)
	h := newHarness(t, c)
	h.frame(nil)
	h.frame(nil)
	win.Update()
	drawn := map[string]bool{}
	for _, t := range h.a.overTxt {
		for _, b := range t.boxes {
			drawn[b.s] = true
		}
	}
	for _, s := range []string{"out at 0:20", "Your side holds the field. Game time 0:20."} {
		if !drawn[s] {
			t.Errorf("the end screen does not say %q; it says %v", s, drawn)
		}
	}
}
