package render

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/game"
	"hostfall/render/ui"
	"hostfall/session"
)

// pausedClient is a scripted two-player network game that Bo (player 1)
// paused; the local player is Ann, the host.
func pausedClient(t *testing.T) (*fake.Client, *game.World) {
	t.Helper()
	w, players, err := fake.Skirmish(7, 2, 600)
	if err != nil {
		t.Fatal(err)
	}
	players[0].Name, players[1].Name, players[1].Bot = "Ann", "Bo", false
	w.Step([]game.Command{{Player: 1, Kind: game.CmdPause}})
	c := fake.New()
	l := fake.Lobby("Friday LAN party", 2)
	l.State = session.StatePlaying
	for i, p := range players {
		l.Slots[i] = session.Slot{Kind: session.SlotHuman, Name: p.Name, Color: p.Color}
	}
	c.SetLobby(l, 0)
	c.SetGame(w, t0.Add(-time.Second), players, 0)
	c.SetStatus(client.NetStatus{Online: true, Host: "Ann", Epoch: 16, Turn: 601, TurnMillis: 50,
		Peers: []client.PeerStatus{{Name: "Ann", Slot: 0, Host: true, Self: true}, {Name: "Bo", Slot: 1, PingMillis: 1.2}}})
	return c, w
}

// TestShotPaused: Bo paused the game. The overlay says so, who may resume
// and the pauses left, over a dimmed map; Escape opens the menu titled
// "Paused by Bo" with "Resume the game" for Ann (the host), which sends the
// resume; the countdown shows as "Resuming in 3…".
func TestShotPaused(t *testing.T) {
	c, w := pausedClient(t)
	h := newHarness(t, c)
	h.frame(nil)
	h.frame(nil)
	g := h.a.game
	if g == nil || !g.pause.Paused || g.overlay() != overPause {
		t.Fatalf("the game screen shows no pause (%+v)", g.pause)
	}
	if got := g.pauseTitle(); got != "Paused by Bo" {
		t.Errorf("title %q", got)
	}
	if g.resumers != "Bo or you (the host) may resume." || g.pauseHint() != "Bo has 2 pauses left, you 3 · Escape: menu" {
		t.Errorf("lines %q, %q", g.resumers, g.pauseHint())
	}
	img := h.shot("paused")
	c0 := g.ui.Layout.Map.Center()
	panel := ui.XYWH(c0.X-150, c0.Y-110, 300, 118)
	if n := count(img, ui.XYWH(c0.X-80, c0.Y-92, 160, 30), like(rgb8(colAccent), 40)); n < 150 {
		t.Errorf("the title: %d accent pixels", n)
	}
	textIn(t, img, "who may resume", ui.XYWH(c0.X-120, c0.Y-50, 240, 22), 150)
	textIn(t, img, "the pause panel", panel, 400)
	if p := textProblems(h.a); len(p) > 0 {
		t.Errorf("text overlaps: %q", p)
	}

	h.frame(func(in *ui.Input) { in.Press(ui.KeyEscape) })
	if !g.ui.MenuOpen || len(c.Proposed()) != 0 {
		t.Fatalf("Escape while paused: menu open %v, sent %+v", g.ui.MenuOpen, c.Proposed())
	}
	m := g.ui.Menu()
	if len(m) < 2 || m[1].Choice != ui.MenuUnpause {
		t.Fatalf("the host's menu while paused: %+v", m)
	}
	h.frame(nil)
	h.shot("paused-menu")
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, g.ui.Layout.MenuButton(1).Center()) })
	if p := c.Proposed(); len(p) != 1 || p[0].Kind != game.CmdResume || p[0].Player != 0 || g.ui.MenuOpen {
		t.Fatalf("Resume the game sent %+v (menu open %v)", p, g.ui.MenuOpen)
	}

	// The resume comes back in a turn: the countdown shows.
	c.View(func(w *game.World, _ time.Time) {
		w.Step([]game.Command{{Player: 0, Kind: game.CmdResume, Host: true}})
	})
	c.PushWorld(w.Events()...)
	h.frame(nil)
	h.frame(nil)
	if got := g.pauseTitle(); got != "Resuming in 3…" {
		t.Errorf("countdown title %q", got)
	}
	// The panel says who resumed, once: no notice beside it (play-test of
	// issue 29: "Ann resumed the game." and "Ann resumes the game.").
	if !overStrings(h.a)["You resumed the game."] && !overStrings(h.a)["Ann resumed the game."] {
		t.Errorf("the countdown's panel does not say who resumed: %v", overStrings(h.a))
	}
	for s := range drawnStrings(h.a) {
		if strings.Contains(s, "resume") {
			t.Errorf("a notice %q beside the panel's", s)
		}
	}
	h.shot("resuming")
}

// The pause overlay and the paused menu fit every window size, their lines
// clear of each other, and the top bar's help (which names Esc) overlaps
// nothing.
func TestPausedSizes(t *testing.T) {
	for _, sz := range shotSizes {
		c, _ := pausedClient(t)
		h := newSizedHarness(t, c, sz.w, sz.h)
		h.frame(nil)
		h.frame(nil)
		overBoxes := func() []string {
			var boxes []textBox
			for _, tl := range h.a.overTxt {
				boxes = append(boxes, tl.boxes...)
			}
			return boxProblems(boxes, h.a.w, h.a.h)
		}
		if p := append(textProblems(h.a), overBoxes()...); len(p) > 0 {
			t.Errorf("%d×%d paused: %q", sz.w, sz.h, p)
		}
		h.shot(fmt.Sprintf("paused-%dx%d", sz.w, sz.h))
		h.frame(func(in *ui.Input) { in.Press(ui.KeyEscape) })
		h.frame(nil)
		if p := overBoxes(); len(p) > 0 {
			t.Errorf("%d×%d paused menu: %q", sz.w, sz.h, p)
		}
	}
}
