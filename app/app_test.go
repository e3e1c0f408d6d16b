package app

import (
	"errors"
	"io"
	"path/filepath"
	"testing"

	"hostfall/client/network"
	"hostfall/game/ai"
)

// A bot match takes its settings' map size and players; settings no game
// can be played with are an error, not a panic.
func TestBotMatch(t *testing.T) {
	m, err := BotMatch{Players: 3, Seed: 1, Size: 48, Levels: []ai.Level{ai.Easy}}.Match()
	if err != nil {
		t.Fatal(err)
	}
	if w, h := m.World.Size(); w != 48 || h != 48 || m.World.NumPlayers() != 3 {
		t.Errorf("a %d×%d map of %d players, want 48×48 of 3", w, h, m.World.NumPlayers())
	}
	if _, err := (BotMatch{Players: 9, Seed: 1, Size: 48, Levels: []ai.Level{ai.Easy}}).Match(); err == nil {
		t.Error("9 players: no error")
	}
}

// Without a display, what opens the window says so before it touches the
// network (the server build says it has no window); a save that cannot be
// read is refused before anything starts.
func TestRefusedBeforeStarting(t *testing.T) {
	t.Setenv("DISPLAY", "")
	noWindow := CheckWindow() // render.ErrNoDisplay, or ErrServerBuild
	if noWindow == nil {
		t.Fatal("no DISPLAY, and CheckWindow says a window can open")
	}
	w := Window{Name: "Ann"}
	for name, err := range map[string]error{
		"browse":      Browse(t.Context(), w, Network{}),
		"play":        Play(t.Context(), w, Network{Offline: true}, Skirmish{Bots: []ai.Level{ai.Easy}}),
		"window host": Host(t.Context(), HostJoin{Player: "Ann"}, Game{Name: "x", Players: 2}),
	} {
		if !errors.Is(err, noWindow) {
			t.Errorf("%s: %v, want %v", name, err, noWindow)
		}
	}
	err := Resume(t.Context(), HostJoin{Headless: true}, filepath.Join(t.TempDir(), "none.hfsave"), Game{})
	if err == nil {
		t.Error("resuming a missing save: no error")
	}
}

// `join --rejoin` with no record of a game: an error saying there is no
// game to rejoin (the command line makes it a usage error), and no game.
func TestRejoinWithoutARecord(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOSTFALL_DATA", dir)
	p := HostJoin{Headless: true, Player: "Cy", Identity: filepath.Join(dir, "cy.key"),
		Listen: []string{"/ip4/127.0.0.1/tcp/0"}}
	err := Rejoin(t.Context(), p)
	if !errors.Is(err, network.ErrNoLastGame) {
		t.Fatalf("rejoining with no record: %v", err)
	}
	t.Logf("the error: %v", err)
}

// A sound name that is none of the game's is ErrUnknownSound (the command
// line's usage error), before any speaker opens; the server build has no
// sounds to play and says so.
func TestSoundsUnknownName(t *testing.T) {
	want := ErrUnknownSound
	if CheckWindow() == ErrServerBuild {
		want = ErrServerBuild
	}
	err := Sounds(t.Context(), SoundDemo{Names: []string{"worker.select", "no.such"}, Out: io.Discard})
	if !errors.Is(err, want) {
		t.Fatalf("%v, want %v", err, want)
	}
	t.Logf("the error: %v", err)
}
