package game_test

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"hostfall/game"
	"hostfall/game/ai"
)

var update = flag.Bool("update", false, "rewrite testdata/determinism.golden from this build")

const goldenPath = "testdata/determinism.golden"

// The determinism game: four bots, two of each level, and random commands
// from no bot (many of them refused) mixed in, for 20,000 turns.
const (
	detSeed   = 42
	detTurns  = 20000
	detSnapAt = 5000
	detEvery  = 2000 // golden checkpoints
)

// TestDeterminism plays the determinism game once, recording every turn's
// commands and hash, then replays the commands into a second world built from
// the same config, and into a third world restored from a snapshot taken at
// turn 5,000: all three must agree at every turn. The hashes at checkpoints
// must match testdata/determinism.golden, so any change of the simulation's
// results — from a code change, another compiler or another architecture —
// shows up here. Rewrite the file with -update when a change is intended.
func TestDeterminism(t *testing.T) {
	cfg := game.FreeForAll(detSeed, 4)
	m, err := ai.NewMatch(cfg, []ai.Level{ai.Hard, ai.Easy, ai.Hard, ai.Easy}, detSeed)
	if err != nil {
		t.Fatal(err)
	}
	cmds := make([][]game.Command, detTurns)
	hashes := make([]uint64, detTurns+1)
	hashes[0] = m.World.Hash()
	var snap []byte
	r := game.NewRNG(detSeed, 3)
	for turn := range detTurns {
		if turn == detSnapAt {
			snap = m.World.Snapshot()
		}
		var extra []game.Command
		for _, c := range game.Chaos(m.World, &r) {
			if c.Kind != game.CmdSurrender {
				extra = append(extra, c)
			}
		}
		applied, err := m.Turn(extra...)
		if err != nil {
			t.Fatal(err)
		}
		cmds[turn] = append([]game.Command(nil), applied...)
		hashes[turn+1] = m.World.Hash()
	}
	team, won := m.World.Winner()
	t.Logf("original run: over %v, winner team %d (%v); final hash %016x", m.World.Over(), team, won, hashes[detTurns])

	replay, err := game.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, "replayed world", replay, 0, cmds, hashes)

	restored := new(game.World)
	if err := restored.Restore(snap); err != nil {
		t.Fatal(err)
	}
	compare(t, "world restored at turn 5000", restored, detSnapAt, cmds, hashes)

	checkGolden(t, hashes)
}

// compare steps w from turn from with the recorded commands and checks its
// hash against the original's after every step.
func compare(t *testing.T, name string, w *game.World, from int, cmds [][]game.Command, hashes []uint64) {
	t.Helper()
	if w.Turn() != from || w.Hash() != hashes[from] {
		t.Fatalf("%s: at turn %d hash %016x, original %016x", name, w.Turn(), w.Hash(), hashes[from])
	}
	for turn := from; turn < len(cmds); turn++ {
		w.Step(cmds[turn])
		if h := w.Hash(); h != hashes[turn+1] {
			t.Fatalf("%s: desync at turn %d: hash %016x, original %016x", name, turn+1, h, hashes[turn+1])
		}
	}
}

func checkGolden(t *testing.T, hashes []uint64) {
	t.Helper()
	var want strings.Builder
	fmt.Fprintf(&want, "# Hashes of TestDeterminism's game: seed %d, 4 bots (hard, easy, hard, easy), random commands.\n", detSeed)
	fmt.Fprintf(&want, "# Any change here means the simulation's results changed. If that is intended, run\n")
	fmt.Fprintf(&want, "#   go test ./game -run TestDeterminism -update\n# and commit this file.\n")
	for turn := detEvery; turn <= detTurns; turn += detEvery {
		fmt.Fprintf(&want, "turn %d %016x\n", turn, hashes[turn])
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(goldenPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenPath, []byte(want.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s from this build; commit it if the change of the simulation is intended", goldenPath)
		return
	}
	golden, err := readGolden(goldenPath)
	if err != nil {
		t.Fatalf("%v (create it with: go test ./game -run TestDeterminism -update)", err)
	}
	for turn := detEvery; turn <= detTurns; turn += detEvery {
		if g, ok := golden[turn]; !ok || g != hashes[turn] {
			t.Fatalf("drift from %s at turn %d: hash %016x, golden %016x.\n"+
				"The simulation now computes other results than the build that wrote the file. If the change is\n"+
				"intended, rerun with -update and commit the file; if not, this build (or architecture) is not deterministic.",
				goldenPath, turn, hashes[turn], g)
		}
	}
}

func readGolden(path string) (map[int]uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[int]uint64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var turn int
		var hex string
		if line := sc.Text(); strings.HasPrefix(line, "turn ") {
			if _, err := fmt.Sscanf(line, "turn %d %s", &turn, &hex); err != nil {
				return nil, fmt.Errorf("%s: bad line %q", path, line)
			}
			h, err := strconv.ParseUint(hex, 16, 64)
			if err != nil {
				return nil, fmt.Errorf("%s: bad hash in %q", path, line)
			}
			out[turn] = h
		}
	}
	return out, sc.Err()
}
