package ai

import (
	"testing"

	"hostfall/game"
)

// Bots neither pause nor order anything while the game is paused (every
// order would be refused), and play on once it moves again.
func TestBotsWaitOutAPause(t *testing.T) {
	cfg := game.FreeForAll(11, 2)
	cfg.Players[1].Bot = true
	m, err := NewMatch(cfg, []Level{Hard}, 11)
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		if _, err := m.Turn(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Turn(game.Command{Player: 0, Kind: game.CmdPause}); err != nil {
		t.Fatal(err)
	}
	if !m.World.Paused().Paused {
		t.Fatal("not paused")
	}
	for range 300 {
		cmds, err := m.Turn()
		if err != nil {
			t.Fatal(err)
		}
		if len(cmds) > 0 {
			t.Fatalf("at turn %d, while paused, the bots ordered %+v", m.World.Turn(), cmds)
		}
	}
	if _, err := m.Turn(game.Command{Player: 0, Kind: game.CmdResume}); err != nil {
		t.Fatal(err)
	}
	ordered := 0
	for range game.ResumeTurns + 300 {
		cmds, err := m.Turn()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cmds {
			if c.Kind == game.CmdPause || c.Kind == game.CmdResume {
				t.Fatalf("a bot sent %s", c.Kind)
			}
		}
		ordered += len(cmds)
	}
	if ordered == 0 {
		t.Fatal("the bots ordered nothing after the pause")
	}
}
