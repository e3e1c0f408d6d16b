package app

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"hostfall/game/ai"
)

// testMatch is a bot match of players on a 64×64 map, hard and easy bots,
// to be played for turns.
func testMatch(t *testing.T, players, turns int) (BotMatch, *ai.Match) {
	t.Helper()
	b := BotMatch{Players: players, Seed: 7, Size: 64, Turns: turns, Levels: []ai.Level{ai.Hard, ai.Easy}}
	m, err := b.Match()
	if err != nil {
		t.Fatal(err)
	}
	return b, m
}

// sim prints progress on one writer and the result on the other; with
// --status-json a turn line every 20 turns and the end line, which agree.
func TestSim(t *testing.T) {
	var out, progress bytes.Buffer
	b, m := testMatch(t, 2, 3000)
	if err := b.Sim(context.Background(), m, false, &out, &progress); err != nil {
		t.Fatal(err)
	}
	if want := "turn 1000/3000 (0:50 of game time)\nturn 2000/3000 (1:40 of game time)\nturn 3000/3000 (2:30 of game time)\n"; progress.String() != want {
		t.Errorf("progress %q, want %q", progress.String(), want)
	}
	result := regexp.MustCompile(`^winner: none \(turn limit\)\nlast turn: 3000 \(2:30 of game time\)\nhash: ([0-9a-f]{16})\n$`)
	got := result.FindStringSubmatch(out.String())
	if got == nil {
		t.Fatalf("result %q", out.String())
	}

	out.Reset()
	progress.Reset()
	b, m = testMatch(t, 2, 3000)
	if err := b.Sim(context.Background(), m, true, &out, &progress); err != nil {
		t.Fatal(err)
	}
	if progress.Len() != 0 {
		t.Errorf("progress with JSON lines: %q", progress.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3000/20+1 {
		t.Fatalf("%d lines, want %d", len(lines), 3000/20+1)
	}
	var end struct {
		Ev, Hash, Reason string
		Turn             int
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &end); err != nil {
		t.Fatal(err)
	}
	if end.Ev != "end" || end.Turn != 3000 || end.Hash != got[1] || end.Reason != "turn limit" {
		t.Fatalf("end line %s, want turn 3000 and hash %s", lines[len(lines)-1], got[1])
	}
	if !strings.Contains(lines[len(lines)-2], `"hash":"`+got[1]+`"`) {
		t.Fatalf("last turn line %s, want hash %s", lines[len(lines)-2], got[1])
	}
}

// play --headless says what is played, then the table of every player and
// the map in text.
func TestWatch(t *testing.T) {
	var out bytes.Buffer
	b, m := testMatch(t, 4, 6000)
	if err := b.Watch(context.Background(), m, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.HasPrefix(s, "Hostfall: 4 bots play an offline match on a 64×64 map (seed 7).\n\n") {
		t.Fatalf("start %q", s[:min(len(s), 100)])
	}
	if !regexp.MustCompile(`(?m)^  5:00  p0 +\d+ units +\d+ gold \| p1 `).MatchString(s) {
		t.Errorf("no army sizes at 5:00:\n%s", s)
	}
	if !strings.Contains(s, "\nwinner: none (turn limit)\nlast turn: 6000 (5:00 of game time)\n") {
		t.Errorf("no result:\n%s", s)
	}
	if !regexp.MustCompile(`(?m)^player +bot +team +result +gold mined +trained +killed +lost\n0 +hard +0 `).MatchString(s) {
		t.Errorf("no table:\n%s", s)
	}
	_, mp, ok := strings.Cut(s, "$ gold, # rock, ~ water):\n")
	rows := strings.Split(strings.TrimSuffix(mp, "\n"), "\n")
	if !ok || len(rows) != 64/4 || len(rows[0]) != 64/2 || strings.Trim(mp, " .~#$0123ABCD\n") != "" {
		t.Errorf("map of %d rows:\n%s", len(rows), mp)
	}
}
