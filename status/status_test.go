package status

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"hostfall/game"
)

// The end line names the winners as numbers (a []game.PlayerID is a byte
// slice, which JSON would print as base64) and carries stall_ms.
func TestEndLineWinners(t *testing.T) {
	var out bytes.Buffer
	line := &Line{JSON: true, Out: &out, Human: &bytes.Buffer{}}
	line.End(300, 300, 0xabc, &Winner{Team: game.Team(1), Players: []int{1, 3}}, "victory", KV("stall_ms", int64(42)))
	var got struct {
		Ev     string
		Winner struct {
			Team    int
			Players []int
		}
		StallMS int64 `json:"stall_ms"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if got.Ev != "end" || got.Winner.Team != 1 || len(got.Winner.Players) != 2 || got.Winner.Players[1] != 3 || got.StallMS != 42 {
		t.Fatalf("end line %s", out.String())
	}
	if bytes.Contains(out.Bytes(), []byte(`"players":"`)) {
		t.Fatalf("the winners print as a string: %s", out.String())
	}
}

// The winners come from the game as a []game.PlayerID, a byte slice: the
// end line must still print them as numbers ("players":[0,1], not
// "players":"AAE="), read back as the players they were.
func TestEndLinePlayersReadBack(t *testing.T) {
	for _, tt := range []struct {
		name    string
		players []game.PlayerID
		raw     string
	}{
		{"players 0 and 1", []game.PlayerID{0, 1}, `"players":[0,1]`},
		{"one player", []game.PlayerID{3}, `"players":[3]`},
		{"none", nil, `"players":[]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			line := &Line{JSON: true, Out: &out}
			line.End(60, 60, 1, WinnerOf(game.Team(0), tt.players), "victory")
			if !bytes.Contains(out.Bytes(), []byte(tt.raw)) {
				t.Fatalf("end line %s, want %s", out.String(), tt.raw)
			}
			var got struct{ Winner Winner }
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("%v: %s", err, out.String())
			}
			if len(got.Winner.Players) != len(tt.players) {
				t.Fatalf("read back %v, want %v", got.Winner.Players, tt.players)
			}
			for i, p := range tt.players {
				if got.Winner.Players[i] != int(p) {
					t.Fatalf("read back %v, want %v", got.Winner.Players, tt.players)
				}
			}
		})
	}
}

// A game that ends by a surrender prints its winner from the world.
func TestWorldEndWinners(t *testing.T) {
	w, err := game.NewWorld(game.Config{Seed: 11, Width: 64, Height: 64,
		Players: []game.PlayerConfig{{Team: 0}, {Team: 0}, {Team: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	w.Step([]game.Command{{Player: 2, Kind: game.CmdSurrender}})
	win, reason := WorldEnd(w)
	if reason != "victory" || win == nil || len(win.Players) != 2 || win.Players[0] != 0 || win.Players[1] != 1 {
		t.Fatalf("winner %+v (%s), want team 0: players 0 and 1", win, reason)
	}
	var out bytes.Buffer
	(&Line{JSON: true, Out: &out}).End(uint64(w.Turn()), w.Time(), w.Hash(), win, reason)
	if !bytes.Contains(out.Bytes(), []byte(`"winner":{"team":0,"players":[0,1]}`)) {
		t.Fatalf("end line %s", out.String())
	}
}

// TestEndLineGameTime: the end line's sentence gives the game time, which
// stands still while the game is paused, not the turns, which go on.
func TestEndLineGameTime(t *testing.T) {
	w, err := game.NewWorld(game.Config{Seed: 4, Width: 48, Height: 48,
		Players: []game.PlayerConfig{{Team: 0}, {Team: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		w.Step(nil)
	}
	w.Step([]game.Command{{Player: 0, Kind: game.CmdPause}})
	for range 1200 { // a minute paused
		w.Step(nil)
	}
	w.Step([]game.Command{{Player: 1, Kind: game.CmdSurrender}})
	var human bytes.Buffer
	win, reason := WorldEnd(w)
	(&Line{Human: &human}).End(uint64(w.Turn()), w.Time(), w.Hash(), win, reason)
	if want := "game over at turn 1402 (0:10 of game time)"; !strings.Contains(human.String(), want) {
		t.Fatalf("end sentence %q, want it to say %q", human.String(), want)
	}
}
