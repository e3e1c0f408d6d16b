package status

import (
	"bytes"
	"encoding/json"
	"testing"

	"hostfall/game"
)

// The end line names the winners as numbers (a []game.PlayerID is a byte
// slice, which JSON would print as base64) and carries stall_ms.
func TestEndLineWinners(t *testing.T) {
	var out bytes.Buffer
	line := &Line{JSON: true, Out: &out, Human: &bytes.Buffer{}}
	line.End(300, 0xabc, &Winner{Team: game.Team(1), Players: []int{1, 3}}, "victory", KV("stall_ms", int64(42)))
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
