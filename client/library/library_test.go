package library

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/game"
	"hostfall/savegame"
	"hostfall/session"
	"hostfall/session/replay"
)

func save(name string, at time.Time, slots ...session.Slot) *savegame.Save {
	return &savegame.Save{At: at, Saved: session.Saved{
		Lobby: session.Lobby{Name: name, MapSeed: 7, MapSize: 64, TurnTicks: 5, MaxPlayers: uint32(len(slots)), Slots: slots},
		State: session.Snapshot{Turn: 140, Data: []byte("world"), NextSeq: make([]uint64, len(slots))},
	}}
}

var (
	ann = session.Slot{Kind: session.SlotHuman, Peer: "a", Name: "Ann"}
	bo  = session.Slot{Kind: session.SlotHuman, Peer: "b", Name: "Bo"}
	bot = session.Slot{Kind: session.SlotBot, Name: "Bot 2"}
)

// TestSaves lists saves newest first with their players, turn and whether
// they are solo; a damaged file with its reason.
func TestSaves(t *testing.T) {
	dir := t.TempDir()
	base := time.Unix(1_790_000_000, 0)
	for _, s := range []*savegame.Save{save("Solo", base, ann, bot), save("Duel", base.Add(time.Hour), ann, bo)} {
		if _, err := savegame.WriteFile(dir, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "x.hfsave"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := (&Library{SaveDir: dir}).Saves()
	if len(got) != 3 {
		t.Fatalf("%d saves listed, want 3: %+v", len(got), got)
	}
	var good []client.SaveInfo
	for _, s := range got {
		if s.Problem != "" {
			if !strings.Contains(s.Problem, "not a Hostfall save") || strings.Contains(s.Problem, dir) {
				t.Errorf("the damaged file's reason %q (want it without the path)", s.Problem)
			}
			continue
		}
		good = append(good, s)
	}
	want := []client.SaveInfo{
		{Name: "Duel", At: base.Add(time.Hour), Players: []string{"Ann", "Bo"}, Turn: 140},
		{Name: "Solo", At: base, Players: []string{"Ann", "Bot 2"}, Turn: 140, Solo: true},
	}
	for i := range good {
		good[i].Path = ""
	}
	if len(good) != 2 || !good[0].At.Equal(want[0].At) || good[0].Name != "Duel" || good[0].Solo || !slices.Equal(good[0].Players, want[0].Players) ||
		good[1].Name != "Solo" || !good[1].Solo || good[1].Turn != 140 || !slices.Equal(good[1].Players, want[1].Players) {
		t.Errorf("saves %+v, want %+v", good, want)
	}
	if got := (&Library{SaveDir: filepath.Join(dir, "none")}).Saves(); len(got) != 0 {
		t.Errorf("a missing directory lists %+v", got)
	}
}

// TestReplays lists replays newest first with their players and length, a
// cut-off one with its reason, re-reads a file that changed, and opens one
// for the viewer.
func TestReplays(t *testing.T) {
	dir := t.TempDir()
	data, err := fake.Replay(3, 2, 64, 200)
	if err != nil {
		t.Fatal(err)
	}
	older, newer := filepath.Join(dir, "a"+ReplayExt), filepath.Join(dir, "b"+ReplayExt)
	for path, b := range map[string][]byte{older: data, newer: data[:len(data)-5], filepath.Join(dir, "notes.txt"): []byte("x")} {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	if err := os.Chtimes(older, now.Add(-time.Hour), now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	lib := &Library{ReplayDir: dir}
	got := lib.Replays()
	if len(got) != 2 || got[0].Path != newer || got[1].Path != older {
		t.Fatalf("replays %+v, want b then a", got)
	}
	if got[0].Problem == "" || !strings.Contains(got[0].Problem, "truncated") {
		t.Errorf("the cut-off replay's problem %q", got[0].Problem)
	}
	if r := got[1]; r.Problem != "" || r.Turns != 200 || r.Length != 10*time.Second || len(r.Players) != 2 {
		t.Errorf("the good replay %+v: want 200 turns, 10 s, 2 players", r)
	}
	// The cut-off file is written whole: the next list reads it again.
	if err := os.WriteFile(newer, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := lib.Replays(); got[0].Problem != "" {
		t.Errorf("a file written since is listed as before: %+v", got[0])
	}
	c, err := lib.OpenReplay(older)
	if err != nil {
		t.Fatal(err)
	}
	defer c.(interface{ Close() error }).Close()
	if _, ok := c.(client.Replayer); !ok {
		t.Fatal("OpenReplay gives no replay viewer's client")
	}
	if _, err := lib.OpenReplay(filepath.Join(dir, "notes.txt")); err == nil {
		t.Error("OpenReplay played a file that is no replay")
	}
}

// A save lists the game time the player saw (the clock stood still while
// the game was paused), not its turn; a state that cannot be read gives -1.
func TestSaveGameTime(t *testing.T) {
	w, _, err := fake.Skirmish(7, 2, 200)
	if err != nil {
		t.Fatal(err)
	}
	w.Step([]game.Command{{Player: 0, Kind: game.CmdPause}})
	for range 400 {
		w.Step(nil)
	}
	data := w.AppendSnapshot([]byte{'H', 'F', 'm', 1, 2, 0, 1})
	dir := t.TempDir()
	s := save("Paused", time.Unix(1_790_000_000, 0), ann, bot)
	s.State.Turn, s.State.Data = uint64(w.Turn()), data
	if _, err := savegame.WriteFile(dir, s); err != nil {
		t.Fatal(err)
	}
	if _, err := savegame.WriteFile(dir, save("Unreadable", time.Unix(1_790_000_100, 0), ann, bot)); err != nil {
		t.Fatal(err)
	}
	got := (&Library{SaveDir: dir}).Saves()
	if len(got) != 2 || got[1].Name != "Paused" || got[1].Time != w.Time() || got[0].Time != -1 {
		t.Fatalf("saves %+v; want Paused at game time %d (turn %d), Unreadable at -1", got, w.Time(), w.Turn())
	}
	if w.Time() >= w.Turn()-300 {
		t.Fatalf("the paused game's clock %d is not behind its turn %d", w.Time(), w.Turn())
	}
}

// A replay's length is the game clock its players saw at the end: the
// turns while the game was paused (and its resume countdown) do not count.
func TestReplayLengthLeavesPausesOut(t *testing.T) {
	dir := t.TempDir()
	lb := session.Lobby{Name: "Paused", MapSeed: 7, MapSize: 64, TurnTicks: 5, MaxPlayers: 2, Slots: []session.Slot{ann, bot}}
	f, err := os.Create(filepath.Join(dir, "p"+ReplayExt))
	if err != nil {
		t.Fatal(err)
	}
	w, err := replay.NewWriter(f, lb)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRules(game.RulesVersion); err != nil {
		t.Fatal(err)
	}
	for n := uint64(1); n <= 200; n++ {
		tn := session.Turn{Number: n}
		// Ann pauses at turn 10 and resumes at turn 50; the world moves
		// again after the 60 turns of the countdown: 99 turns stand still.
		kind := map[uint64]game.CommandKind{10: game.CmdPause, 50: game.CmdResume}[n]
		if kind != game.CmdNone {
			data, err := game.Command{Kind: kind}.AppendBinary(nil)
			if err != nil {
				t.Fatal(err)
			}
			tn.Commands = []session.Command{{Slot: 0, Seq: 1, Data: data}}
		}
		if err := w.WriteTurn(tn); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(w.Close(), f.Close()); err != nil {
		t.Fatal(err)
	}
	got := (&Library{ReplayDir: dir}).Replays()
	if len(got) != 1 || got[0].Problem != "" || got[0].Turns != 200 || got[0].Length != 101*time.Second/game.ClockRate {
		t.Fatalf("the paused replay is listed as %+v; want 200 turns and 101 ticks of game time (5.05 s)", got)
	}
}
