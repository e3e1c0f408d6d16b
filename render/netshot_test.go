package render

import (
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"hostfall/client"
	"hostfall/client/network"
	"hostfall/game"
	"hostfall/internal/testwait"
	"hostfall/p2p/transport"
	"hostfall/render/ui"
	"hostfall/session"
)

// The window on a live network game: Ann's window client hosts on a real
// libp2p host on loopback, Bo's client joins from another, a bot takes the
// third slot, and the game runs. The shot shows Ann's game screen with the
// network panel (F3) listing both players with Bo's measured round trip.
func TestShotNetGame(t *testing.T) {
	testWindow(t) // skip early without a display
	transport.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4}))
	lan := &network.Static{}
	ann := loopbackClient(t, nil)
	bo := loopbackClient(t, lan)
	if err := ann.Create(client.CreateOptions{Name: "LAN night", PlayerName: "Ann", MaxPlayers: 3, MapSeed: 7, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	if err := ann.SetSlot(2, session.SlotBot, 1); err != nil {
		t.Fatal(err)
	}
	li, addr, _ := ann.Listing("lan-1")
	lan.Add(li, addr)
	if err := bo.Join("lan-1", client.JoinOptions{PlayerName: "Bo"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo in the lobby", 10*time.Second, func() bool { return bo.Slot() == 1 })
	if err := bo.EditSlot(session.SlotEdit{Name: "Bo", Color: 3, Ready: true}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the game under way", 20*time.Second, func() bool {
		_ = ann.Start() // refused until Bo's ready flag has arrived
		turn := -1
		bo.View(func(w *game.World, _ time.Time) { turn = w.Turn() })
		return turn >= 40
	})
	testwait.For(t, "Bo's round trip measured", 10*time.Second, func() bool {
		st := ann.Status()
		return len(st.Peers) == 2 && st.Peers[1].PingMillis > 0
	})

	h := newHarness(t, ann)
	h.now = time.Now() // the client's turns carry real time; drawing interpolates from it
	h.frame(nil)
	h.frame(func(in *ui.Input) { in.Press(ui.KeyF3) })
	h.frame(nil)
	g := h.a.game
	if g == nil || g.sc == nil {
		t.Fatal("the game screen did not load")
	}
	st := ann.Status()
	img := h.shot("netgame")
	t.Logf("Ann's network panel: %+v", st)

	// The panel: title, the six lines of figures, and a row for each player.
	np := ui.NewLayout(1024, 768).NetPanel
	if n := count(img, ui.XYWH(np.Min.X+10, np.Min.Y+8, 80, 20), like(rgb8(colAccent), 40)); n < 30 {
		t.Errorf("network panel title: %d accent pixels", n)
	}
	textIn(t, img, "network figures", ui.R(np.Min.X+10, np.Min.Y+34, np.Max.X-10, np.Min.Y+34+6*18), 400)
	rowY := np.Min.Y + 10 + 26 + 7*18
	annRow := ui.R(np.Min.X+10, rowY, np.Max.X-10, rowY+16)
	boRow := ui.R(np.Min.X+10, rowY+18, np.Max.X-10, rowY+34)
	if n := count(img, annRow, like(rgb8(colAccent), 40)); n < 60 {
		t.Errorf("Ann's row (this player, in accent): %d accent pixels", n)
	}
	textIn(t, img, "Bo's name", ui.R(boRow.Min.X, boRow.Min.Y, boRow.Min.X+40, boRow.Max.Y), 15)
	textIn(t, img, "Bo's round trip", ui.R(boRow.Max.X-70, boRow.Min.Y, boRow.Max.X, boRow.Max.Y), 30)
	// The panel is as tall as two player rows make it: its bottom border
	// runs where the third row would be.
	bottom := np.Min.Y + 44 + 9*18
	if n := count(img, ui.R(np.Min.X, bottom-1, np.Max.X, bottom), like(rgb8(colBorder), 8)); n < int(np.W()*0.9) {
		t.Errorf("the panel's bottom border at y %.0f: %d of %.0f pixels; the panel lists other than two players", bottom-1, n, np.W())
	}
	if len(st.Peers) != 2 || st.Host != "Ann" || !st.Peers[0].Self || !st.Peers[0].Host || st.Peers[1].Name != "Bo" {
		t.Errorf("Ann's status %+v", st)
	}

	// Ann's units in her colour where the camera puts them, clear of the panel.
	col := PlayerColors[ann.Players()[0].Color]
	checked := 0
	for _, u := range g.sc.Units {
		p := g.ui.Cam.ToScreen(u.Pos)
		half := u.Size * g.ui.Cam.Zoom / 2
		r := ui.R(p.X-half, p.Y-half, p.X+half, p.Y+half)
		inMap := g.ui.Layout.Map.Inset(4)
		if !u.Own || !inMap.Contains(r.Min) || !inMap.Contains(r.Max) || r.Max.X >= np.Min.X-2 {
			continue
		}
		checked++
		min := 30
		if u.Building {
			min = 200
		}
		if n := count(img, r, like(col, 4)); n < min {
			t.Errorf("%v at %v: %d pixels of Ann's colour in %v, want %d", u.Kind, u.Pos, n, r, min)
		}
	}
	if checked < 3 {
		t.Errorf("only %d of Ann's units on screen clear of the panel", checked)
	}
}

// loopbackClient is a network client on a new libp2p host on loopback.
func loopbackClient(t *testing.T, b network.Browser) *network.Client {
	t.Helper()
	return loopbackClientOn(t, transport.Options{}, b, nil)
}

// loopbackClientOn is loopbackClient on a host built with hopt (identity,
// logger and listen addresses are the test's); use, if set, adjusts the
// client's options.
func loopbackClientOn(t *testing.T, hopt transport.Options, b network.Browser, use func(*network.Options)) *network.Client {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	hopt.Identity, hopt.Logger = k, log
	hopt.Listen = []string{"/ip4/127.0.0.1/tcp/0", "/ip4/127.0.0.1/udp/0/quic-v1"}
	h, err := transport.NewHost(t.Context(), hopt)
	if err != nil {
		t.Fatal(err)
	}
	opt := network.Options{Host: h, Browser: b, GameVersion: "render-test", Logger: log,
		Session: session.Config{CountdownTicks: 2}}
	if use != nil {
		use(&opt)
	}
	c, err := network.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		h.Close()
	})
	return c
}
