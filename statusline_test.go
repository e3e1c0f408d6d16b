package main

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
	ps := &peerStatus{line: &statusLine{json: true, out: &out, human: &bytes.Buffer{}}}
	ps.line.end(300, 0xabc, &winnerJSON{Team: game.Team(1), Players: []int{1, 3}}, "victory", kv("stall_ms", int64(42)))
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
