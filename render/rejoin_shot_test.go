package render

import (
	"errors"
	"image"
	"slices"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/render/ui"
	"hostfall/session"
)

// The browser of a player whose Hostfall stopped mid-game: a bar over the
// list names the game and its players, says it is on the LAN (the list shows
// it under way) and offers Rejoin; a click asks the client to rejoin, the
// status line follows the progress, and once the game took the player back
// the game screen shows "Rejoining … catching up turn N/M" until it has
// caught up, then that the slot is the player's again.
func TestShotBrowserRejoin(t *testing.T) {
	c := gameClient(t)
	lobby, _ := c.Lobby()
	w, players, err := fake.Skirmish(7, 4, 900)
	if err != nil {
		t.Fatal(err)
	}
	c.Leave() // browsing, with the game in the record only
	list := append(twoSessions(), client.Listing{ID: "lan-9", Name: "Skirmish", Host: "Bo", Players: 3, Max: 4,
		State: session.StatePlaying, Source: client.SourceLAN})
	c.SetSessions(list...)
	c.SetLastGame(&client.LastGame{Name: "Skirmish", Players: []string{"Bo", "Cy"}, Updated: t0.Add(-3 * time.Minute)}, nil)
	h := newHarness(t, c)
	h.frame(nil)
	h.frame(nil)
	img := h.shot("browser-rejoin")
	l := &h.a.browser.lay
	if !h.a.browser.last.onLAN {
		t.Error("the game to rejoin is listed on the LAN, and the bar does not say so")
	}
	if n := count(img, ui.XYWH(l.rejoinBar.Min.X+1, l.rejoinBar.Min.Y+4, 3, l.rejoinBar.H()-8), like(rgb8(colAccent), 30)); n < 60 {
		t.Errorf("the rejoin bar's stripe: %d accent pixels", n)
	}
	textIn(t, img, "what the bar says", ui.R(l.rejoinBar.Min.X+12, l.rejoinBar.Min.Y+4, l.forget.Min.X-8, l.rejoinBar.Max.Y-4), 500)
	textIn(t, img, "the Rejoin button", l.rejoin.Inset(4), 150)
	textIn(t, img, "the first row under the bar", ui.R(colX(l.table, 34), l.list.Min.Y, colX(l.table, 34)+110, l.list.Min.Y+l.rowH), 60)

	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, l.rejoin.Center()) })
	if calls := c.Calls(); !slices.Contains(calls, "rejoin") {
		t.Fatalf("calls %v, want a rejoin", calls)
	}
	c.SetRejoining(client.RejoinStatus{Game: "Skirmish", Active: true, Text: "Rejoining Skirmish… asking Bo for the game"})
	h.frame(nil)
	if msg := h.a.browser.msg; msg != "Rejoining Skirmish… asking Bo for the game" {
		t.Errorf("the status line says %q while asking", msg)
	}

	// Taken back: the game screen, with the progress over it.
	c.SetLobby(lobby, 0)
	c.SetGame(w, t0.Add(-time.Second), players, 0)
	const catching = "Rejoining Skirmish… catching up turn 880/900"
	c.SetRejoining(client.RejoinStatus{Game: "Skirmish", Active: true, Joined: true, Turn: 880, Of: 900, Text: catching})
	h.frame(nil)
	h.frame(nil)
	if h.a.screen != scrGame {
		t.Fatalf("screen %v once taken back, want the game", h.a.screen)
	}
	img = h.shot("game-rejoining")
	bannerAt(t, img, h.a, catching, 0, rgb8(colAccent))

	c.SetRejoining(client.RejoinStatus{Game: "Skirmish", Joined: true, Turn: 900, Of: 900})
	h.frame(nil)
	img = h.shot("game-rejoined")
	bannerAt(t, img, h.a, "Back in Skirmish: your units take your orders again", 0, rgb8(colGood))

	// A record that cannot be read says why, and Forget drops it.
	c.Leave()
	c.SetRejoining(client.RejoinStatus{})
	c.SetLastGame(nil, errors.New("the record of the last game is damaged (/data/lastgame/x.json: not a record); delete it"))
	h.frame(nil)
	h.frame(nil)
	img = h.shot("browser-rejoin-damaged")
	if n := count(img, ui.R(l.rejoinBar.Min.X+12, l.rejoinBar.Min.Y+4, l.forget.Min.X-8, l.rejoinBar.Max.Y-4), like(rgb8(colBad), 40)); n < 200 {
		t.Errorf("the damaged record's sentence: %d red pixels", n)
	}
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, l.forget.Center()) })
	h.frame(nil)
	if calls := c.Calls(); calls[len(calls)-1] != "forget" || h.a.browser.last.shown() {
		t.Fatalf("after Forget: calls %v, bar shown %v", calls, h.a.browser.last.shown())
	}
	if msg := h.a.browser.msg; msg != "" {
		t.Errorf("the status line still says %q after the rejoin", msg)
	}
	win.Update()
}

// bannerAt checks that the i-th banner from the top says text: its stripe
// of colour stripe, and text in its box.
func bannerAt(t *testing.T, rgba *image.RGBA, a *App, text string, i int, stripe [3]uint8) {
	t.Helper()
	w := a.text[fontBold].width(text) + 48
	r := ui.XYWH(a.w/2-w/2, ui.TopBarH+12+float64(i)*42, w, 34)
	if n := count(rgba, ui.XYWH(r.Min.X+1, r.Min.Y+4, 3, 26), like(stripe, 8)); n < 60 {
		t.Errorf("banner %q: %d stripe pixels at %v", text, n, r)
	}
	textIn(t, rgba, "banner "+text, r.Inset(6), int(w))
}
