package render

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/client/network"
	"hostfall/client/offline"
	"hostfall/game"
	"hostfall/game/ai"
	"hostfall/p2p/transport"
	"hostfall/render/ui"
	"hostfall/session"
	"hostfall/settings"
)

// soloClient is a scripted game of one person (player 0) against three
// bots, which the world knows as bots: the player may pause at will.
func soloClient(t *testing.T) (*fake.Client, *game.World) {
	t.Helper()
	cfg := game.Config{Seed: 7}
	for i := range 4 {
		cfg.Players = append(cfg.Players, game.PlayerConfig{Team: game.Team(i), Bot: i > 0})
	}
	m, err := ai.NewMatch(cfg, []ai.Level{ai.Hard}, 7)
	if err != nil {
		t.Fatal(err)
	}
	for m.World.Turn() < 300 {
		if _, err := m.Turn(); err != nil {
			t.Fatal(err)
		}
	}
	c := fake.New()
	l := fake.Lobby("Practice", 4)
	l.State = session.StatePlaying
	var players []client.Player
	for i := range 4 {
		kind, name := session.SlotBot, fmt.Sprintf("Bot %d", i+1)
		if i == 0 {
			kind, name = session.SlotHuman, "Ann"
		}
		l.Slots[i] = session.Slot{Kind: kind, Name: name, Color: uint8(i)}
		players = append(players, client.Player{Name: name, Slot: i, Color: uint8(i), Bot: i > 0})
	}
	c.SetLobby(l, 0)
	c.SetGame(m.World, t0.Add(-time.Second), players, 0)
	return c, m.World
}

// pauses returns the pause and resume commands c was given.
func pauses(c *fake.Client) []string {
	var out []string
	for _, cmd := range c.Proposed() {
		if cmd.Kind == game.CmdPause || cmd.Kind == game.CmdResume {
			out = append(out, fmt.Sprintf("%s by %d", cmd.Kind, cmd.Player))
		}
	}
	return out
}

// Alone against bots the how-to stops the game while it shows: it pauses
// (a command, the player may pause at will) and closing it resumes; a
// pause of the player's own is left alone.
func TestHowToPausesASoloGame(t *testing.T) {
	c, w := soloClient(t)
	h := newOptionsHarness(t, c, 1024, 768, true)
	h.frame(nil)
	h.frame(nil)
	hw := &h.a.howTo
	if !hw.shown || !hw.modal {
		t.Fatalf("the first solo game shows the how-to %v, modal %v; want it shown and modal", hw.shown, hw.modal)
	}
	if got := strings.Join(pauses(c), ", "); got != "pause by 0" {
		t.Fatalf("opening the how-to sent %q, want a pause", got)
	}
	w.Step(c.Proposed()) // the pause lands
	h.frame(nil)
	// One panel over the paused game: the pause panel is not drawn through
	// the how-to (play-test of issue 29: F1's help under the pause banner).
	if g := h.a.game; !g.pause.Paused || overStrings(h.a)[g.pauseTitle()] {
		t.Errorf("under the how-to: paused %v, the pause panel's %q drawn %v", g.pause.Paused, g.pauseTitle(), overStrings(h.a)[g.pauseTitle()])
	}
	h.key(ui.KeyEscape)
	if hw.shown {
		t.Fatal("Escape did not close the how-to")
	}
	h.frame(nil)
	if g := h.a.game; g.pause.Paused && !overStrings(h.a)[g.pauseTitle()] {
		t.Errorf("the how-to closed on a paused game, and no pause panel says so")
	}
	if got := strings.Join(pauses(c), ", "); got != "pause by 0, resume by 0" {
		t.Fatalf("closing the how-to sent %q, want its pause resumed", got)
	}
	// The player's own pause: F1 over it neither pauses nor resumes.
	h.key(ui.KeyF1)
	h.key(ui.KeyF1)
	if hw.shown || len(pauses(c)) != 2 {
		t.Fatalf("over the player's pause: shown %v, commands %q", hw.shown, pauses(c))
	}
}

// A how-to closed before its pause landed resumes that pause when it does.
func TestHowToResumesALatePause(t *testing.T) {
	c, w := soloClient(t)
	h := newOptionsHarness(t, c, 1024, 768, true)
	h.frame(nil)
	h.frame(nil)
	h.key(ui.KeyEnter)
	if h.a.howTo.shown || len(pauses(c)) != 1 {
		t.Fatalf("after Enter: shown %v, commands %q", h.a.howTo.shown, pauses(c))
	}
	w.Step(c.Proposed())
	h.frame(nil)
	h.frame(nil)
	if got := strings.Join(pauses(c), ", "); got != "pause by 0, resume by 0" {
		t.Fatalf("the late pause: commands %q, want it resumed", got)
	}
}

// With other people in the game the how-to stops nothing: the first game
// shows a hint instead, F1 shows it translucent and not modal (the game
// keeps the keyboard: Enter opens the chat), sends no pause, and an
// attack on the player closes it.
func TestHowToInANetworkGame(t *testing.T) {
	for _, sz := range shotSizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			c := gameClient(t) // four people
			h := newOptionsHarness(t, c, sz.w, sz.h, true)
			h.frame(nil)
			h.frame(nil)
			g, hw := h.a.game, &h.a.howTo
			if hw.shown || !drawnStrings(h.a)[howToHint] {
				t.Fatalf("first network game: how-to shown %v, hint drawn %v; want the hint alone", hw.shown, drawnStrings(h.a)[howToHint])
			}
			h.key(ui.KeyF1)
			h.frame(nil)
			if !hw.shown || hw.modal {
				t.Fatalf("F1: shown %v, modal %v; want it shown beside the game", hw.shown, hw.modal)
			}
			h.shot(fmt.Sprintf("howto-network-%dx%d", sz.w, sz.h))
			if p := modalProblems(h.a); len(p) > 0 {
				t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
			}
			if p := pauses(c); len(p) > 0 {
				t.Fatalf("the how-to sent %q in a game of four people", p)
			}
			h.key(ui.KeyEnter)
			if !hw.shown || !g.ui.ChatOpen {
				t.Fatalf("Enter: how-to shown %v, chat open %v; want the chat open beside the how-to", hw.shown, g.ui.ChatOpen)
			}
			h.key(ui.KeyEscape) // closes the chat
			c.PushWorld(game.Event{Kind: game.EvUnderAttack, Player: 0, Other: 1})
			h.frame(nil)
			h.frame(nil)
			if hw.shown {
				t.Fatal("an attack on the player left the how-to over the map")
			}
			if !settings.Load(h.path, nil).HowToSeen {
				t.Error("the how-to seen in a network game is not remembered")
			}
		})
	}
}

// TestHowToGivesTheOfflineGameBack: in a real offline game the how-to's
// pause holds the game clock, and closing it lets the game go on.
func TestHowToGivesTheOfflineGameBack(t *testing.T) {
	c := offline.New(offline.Options{Name: "Ann", Countdown: 2})
	defer c.Close()
	if err := c.Create(client.CreateOptions{Name: "How-to", MaxPlayers: 2, MapSeed: 7, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	if err := c.SetSlot(1, session.SlotBot, 0); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	howToHoldsTheClock(t, c, 5*time.Millisecond, 40)
}

// TestHowToPausesANetworkSoloGame: alone against a bot in a network game
// (a window's `host --players 1 --bots 1`, or the browser's game with
// bots), the how-to opens while the game still loads, when the session
// takes no command yet; its pause is asked again until taken, so the game
// clock stands still from turn 1 while the how-to shows (play-test: it ran
// 0:03 → 0:19), and closing it lets the game go on.
func TestHowToPausesANetworkSoloGame(t *testing.T) {
	testWindow(t)
	c := loopbackClientOn(t, transport.Options{}, nil, func(o *network.Options) { o.WaitScreen = true })
	if err := c.Create(client.CreateOptions{Name: "Solo", PlayerName: "Ann", MaxPlayers: 2, MapSeed: 7, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	if err := c.SetSlot(1, session.SlotBot, 0); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if at := howToHoldsTheClock(t, c, 10*time.Millisecond, 60); at > 20 {
		t.Fatalf("the how-to paused the game at game time %d (ticks); want it held from the first second", at)
	}
}

// howToHoldsTheClock draws the window over c's game (one person against a
// bot, the first game: the how-to shows) at the wall clock, a frame every
// pace: the how-to pauses the game, the game clock stands still under it
// for frames frames, and Enter closes it and lets the game go on. It
// returns the game time the clock stood at.
func howToHoldsTheClock(t *testing.T, c Client, pace time.Duration, frames int) int {
	t.Helper()
	h := newOptionsHarness(t, c, 1024, 768, true)
	frame := func(set func(in *ui.Input)) {
		h.now = time.Now()
		h.frame(set)
		time.Sleep(pace)
	}
	clock := func() (n int, paused bool) {
		c.View(func(w *game.World, _ time.Time) { n, paused = w.Time(), w.Paused().Paused })
		return
	}
	until := func(what string, cond func() bool) {
		t.Helper()
		for range 1500 {
			if cond() {
				return
			}
			frame(nil)
		}
		t.Fatalf("timed out waiting for %s", what)
	}
	until("the how-to over the game", func() bool { return h.a.howTo.shown })
	until("the game paused", func() bool { _, p := clock(); return p })
	at, _ := clock()
	turn := c.Status().Turn
	for range frames {
		frame(nil)
	}
	now, _ := clock()
	t.Logf("paused at game time %d (ticks), turn %d → %d under the how-to", at, turn, c.Status().Turn)
	if now != at {
		t.Fatalf("the game clock went from %d to %d under the how-to", at, now)
	}
	frame(func(in *ui.Input) { in.Press(ui.KeyEnter) })
	until("the game going on", func() bool { n, p := clock(); return !p && n > at })
	return at
}

// A player back in a game by a rejoin (the browser's Rejoin after a crash)
// was in that game before: no first-game hint, no how-to (play-test of
// issue 29: "First game? F1…" shown again after a rejoin).
func TestHowToNoHintAfterRejoin(t *testing.T) {
	c := gameClient(t)
	c.SetRejoining(client.RejoinStatus{Game: "Friday LAN party", Joined: true})
	h := newOptionsHarness(t, c, 1024, 768, true)
	for range 3 {
		h.frame(nil)
	}
	if h.a.howTo.shown || drawnStrings(h.a)[howToHint] {
		t.Errorf("after a rejoin: how-to shown %v, hint drawn %v; want neither", h.a.howTo.shown, drawnStrings(h.a)[howToHint])
	}
}
