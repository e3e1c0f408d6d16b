package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"hostfall/match"
	"hostfall/session/replay"
)

// sim --replay writes a replay that plays back into the same game: every
// turn, a state hash every ten, for every level and with teams.
func TestSimReplay(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"levels", []string{"--players", "3", "--levels", "easy,normal,hard"}},
		{"teams", []string{"--players", "4", "--teams", "0,1,0,1", "--levels", "hard"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sim.hfreplay")
			args := append([]string{"--size", "64", "--seed", "3", "--turns", "600", "--replay", path, "--status-json"}, tc.args...)
			if err := runSim(context.Background(), args); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, err := replay.Read(f)
			if err != nil {
				t.Fatal(err)
			}
			turns, checked, err := match.Verify(r, nil)
			if err != nil || turns != 600 || checked != 60 {
				t.Fatalf("verify: %d turns, %d hashes, %v; want 600, 60, nil", turns, checked, err)
			}
		})
	}
}
