package render

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/client/playback"
	"hostfall/game"
	"hostfall/game/ai"
	"hostfall/render/ui"
	"hostfall/session"
	"hostfall/session/replay"
)

// The game's screens in windows of every size (shotSizes), with their text
// checked for overlaps and for leaving the window; the browser, the lobby,
// the options, the pause and the how-to have theirs beside their tests.

// overProblems lists the strings of a's last frame, each text layer
// apart, that overlap another of their layer or leave the window.
func overProblems(a *App) []string {
	var float []textBox
	for _, t := range a.floatTxt {
		float = append(float, t.boxes...)
	}
	return append(append(textProblems(a), modalProblems(a)...), boxProblems(float, a.w, a.h)...)
}

// topBarCrowding lists the top bar's strings that come closer than
// topBarGap to the clock in its middle (the clock would read as part of
// the keys' reminder).
func topBarCrowding(a *App) []string {
	var boxes []textBox
	for _, t := range a.text {
		for _, b := range t.boxes {
			if b.r.Max.Y <= ui.TopBarH {
				boxes = append(boxes, b)
			}
		}
	}
	slices.SortFunc(boxes, func(x, y textBox) int { return cmp.Compare(x.r.Min.X, y.r.Min.X) })
	var out []string
	for i := 1; i < len(boxes); i++ {
		if mid := a.w / 2; !boxes[i].r.Contains(ui.V(mid, boxes[i].r.Center().Y)) && !boxes[i-1].r.Contains(ui.V(mid, boxes[i-1].r.Center().Y)) {
			continue
		}
		if gap := boxes[i].r.Min.X - boxes[i-1].r.Max.X; gap < topBarGap-1 {
			out = append(out, fmt.Sprintf("%q and %q only %.0f px apart", boxes[i-1].s, boxes[i].s, gap))
		}
	}
	return out
}

// The end screen's table of six players, one with a long name, fits every
// window (the play-test found it cut at both sides at 800×600).
func TestShotEndSizes(t *testing.T) {
	for _, sz := range shotSizes {
		name := fmt.Sprintf("victory-%dx%d", sz.w, sz.h)
		t.Run(name, func(t *testing.T) {
			w, players, err := fake.Skirmish(11, 6, 600)
			if err != nil {
				t.Fatal(err)
			}
			players[2].Name = "Cyrillus the Magnificent"
			var out []game.Command
			for p := 1; p < 6; p++ {
				out = append(out, game.Command{Player: game.PlayerID(p), Kind: game.CmdSurrender})
			}
			w.Step(out)
			if !w.Over() {
				t.Fatal("the game did not end with the surrenders")
			}
			c := fake.New()
			l := fake.Lobby("Six", 6)
			l.State = session.StatePlaying
			c.SetLobby(l, 0)
			c.SetGame(w, t0, players, 0)
			h := newSizedHarness(t, c, sz.w, sz.h)
			h.frame(nil)
			h.frame(nil)
			h.shot(name)
			if h.a.game.end == endNone {
				t.Fatal("no end screen")
			}
			if p := modalProblems(h.a); len(p) > 0 {
				t.Errorf("end screen text problems:\n%s", strings.Join(p, "\n"))
			}
			for _, b := range h.a.game.ends {
				if b.r.Min.X < 0 || b.r.Max.X > float64(sz.w) || b.r.Max.Y > float64(sz.h) {
					t.Errorf("button %q at %v leaves the window", b.label, b.r)
				}
			}
		})
	}
}

// The battlefield with workers selected (the command card full) in every
// window size: the top bar, the selection panel, the card and the
// notices keep apart.
func TestShotGameSizes(t *testing.T) {
	for _, sz := range shotSizes {
		name := fmt.Sprintf("game-%dx%d", sz.w, sz.h)
		t.Run(name, func(t *testing.T) {
			c := gameClient(t)
			c.PushWorld(game.Event{Kind: game.EvRejected, Player: 0, Reason: game.RejNoGold})
			h := newSizedHarness(t, c, sz.w, sz.h)
			h.frame(nil)
			g := h.a.game
			var sel []game.UnitID
			for _, u := range g.sc.Units {
				if u.Own && u.Kind == game.Worker {
					sel = append(sel, u.ID)
				}
			}
			g.ui.Sel.Set(sel)
			h.frame(nil)
			h.frame(nil)
			h.shot(name)
			if p := append(overProblems(h.a), topBarCrowding(h.a)...); len(p) > 0 {
				t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
			}
		})
	}
}

// contentClient is a duel of hard bots at turn 6,300 on seed 7, when
// player 0 has built towers and a workshop that researches an upgrade,
// with weapons level 1 done.
func contentClient(t *testing.T) (*fake.Client, *game.World) {
	t.Helper()
	m, err := ai.NewMatch(game.FreeForAll(7, 2), []ai.Level{ai.Hard}, 7)
	if err != nil {
		t.Fatal(err)
	}
	for m.World.Turn() < 6300 && !m.World.Over() {
		if _, err := m.Turn(); err != nil {
			t.Fatal(err)
		}
	}
	c := fake.New()
	l := fake.Lobby("Duel", 2)
	l.State = session.StatePlaying
	c.SetLobby(l, 0)
	players := []client.Player{{Name: "Ann", Slot: 0, Color: 0}, {Name: "Bo", Slot: 1, Color: 1, Bot: true}}
	c.SetGame(m.World, t0, players, 0)
	return c, m.World
}

// The tower and the upgrades: the camera on player 0's towers and
// workshop, the workshop selected (its card trains catapults and
// researches weapons and armor; its panel shows the research under way).
func TestShotTowerAndUpgrades(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{800, 600}, {1024, 768}} {
		name := fmt.Sprintf("tower-upgrades-%dx%d", sz.w, sz.h)
		t.Run(name, func(t *testing.T) {
			c, w := contentClient(t)
			h := newSizedHarness(t, c, sz.w, sz.h)
			// What the panels must say follows from what the hard bot
			// researched by then (the bots change; the rule does not).
			weapons, armor := w.Level(0, game.UpWeapons), w.Level(0, game.UpArmor)
			h.frame(nil)
			g := h.a.game
			var tower, shop *ui.Unit
			for i := range g.sc.Units {
				u := &g.sc.Units[i]
				switch {
				case u.Own && u.Kind == game.Tower && tower == nil:
					tower = u
				case u.Own && u.Kind == game.Workshop:
					shop = u
				}
			}
			if tower == nil || shop == nil {
				t.Fatalf("tower %v, workshop %v: the fixture should have both", tower, shop)
			}
			mid := tower.Pos.Add(shop.Pos)
			g.ui.Cam.LookAt(ui.V(mid.X/2, mid.Y/2))
			g.ui.Sel.Set([]game.UnitID{shop.ID})
			h.frame(nil)
			h.frame(nil)
			h.shot(name)
			if p := overProblems(h.a); len(p) > 0 {
				t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
			}
			drawn := drawnStrings(h.a)
			for _, s := range []string{"Weapons", "Armor"} {
				if !drawn[s] {
					t.Errorf("the workshop shows no %q: %v", s, drawn)
				}
			}
			researching := false
			for _, lv := range []string{fmt.Sprintf("Researching armor level %d", armor+1), fmt.Sprintf("Researching weapons level %d", weapons+1)} {
				researching = researching || drawn[lv]
			}
			if !researching {
				t.Errorf("the workshop shows no research under way (weapons %d, armor %d researched): %v", weapons, armor, drawn)
			}
			if next := game.UpWeapons.Cost(weapons + 1); weapons < game.MaxUpgradeLevel && !drawn[fmt.Sprint(next)] {
				t.Errorf("the weapons button shows no cost of level %d (%d): %v", weapons+1, next, drawn)
			}
			g.ui.Sel.Set([]game.UnitID{tower.ID})
			h.frame(nil)
			// A tower: 12 damage, +1 a weapons level; its armor is a building's (3), no upgrade.
			if want := fmt.Sprintf("damage %d · armor 3 · range 6.0", 12+game.WeaponsBonus*weapons); !drawnStrings(h.a)["Guarding"] || !drawnStrings(h.a)[want] {
				t.Errorf("the tower's panel: %v, want Guarding, %q", drawnStrings(h.a), want)
			}
			for _, u := range []*ui.Unit{tower, shop} {
				p := g.ui.Cam.ToScreen(u.Pos)
				if !g.ui.Layout.Map.Contains(p) {
					t.Errorf("the %v at %v is not on the map view", u.Kind, p)
				}
			}
		})
	}
}

// The replay viewer in every window size: the controls where the command
// card is, the list of players to follow, the top bar's keys.
func TestShotReplaySizes(t *testing.T) {
	data, err := fake.Replay(7, 4, 96, replayTurns)
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range shotSizes {
		name := fmt.Sprintf("replay-%dx%d", sz.w, sz.h)
		t.Run(name, func(t *testing.T) {
			r, err := replay.Read(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			c, err := playback.New(r, playback.Options{Paused: true, Follow: 3, Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.Seek(float64(replayAt) / replayTurns)
			h := newSizedHarness(t, c, sz.w, sz.h)
			h.frame(nil)
			h.frame(nil)
			h.shot(name)
			if p := append(overProblems(h.a), topBarCrowding(h.a)...); len(p) > 0 {
				t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
			}
			drawn := drawnStrings(h.a)
			for _, s := range []string{"REPLAY", "Follow", "Bot 4", "Turn 900 / 1200 · 0:45 / 1:00"} {
				if !drawn[s] {
					t.Errorf("%q is not drawn whole", s)
				}
			}
		})
	}
}

// The menu of a paused network game in every window size.
func TestShotMenuSizes(t *testing.T) {
	for _, sz := range shotSizes {
		name := fmt.Sprintf("paused-menu-%dx%d", sz.w, sz.h)
		t.Run(name, func(t *testing.T) {
			c, _ := pausedClient(t)
			h := newSizedHarness(t, c, sz.w, sz.h)
			h.frame(nil)
			h.frame(func(in *ui.Input) { in.Press(ui.KeyEscape) })
			h.frame(nil)
			g := h.a.game
			if !g.ui.MenuOpen {
				t.Fatal("Escape did not open the menu")
			}
			h.shot(name)
			if p := modalProblems(h.a); len(p) > 0 {
				t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
			}
			items := g.ui.Menu()
			if last := g.ui.Layout.MenuButton(len(items) - 1); last.Max.Y > float64(sz.h) {
				t.Errorf("the menu's last entry %v leaves the window", last)
			}
		})
	}
}

// A relay lobby's long invite code at the smallest and a wide size: its
// lines, the eight slots and the settings keep apart.
func TestShotLobbyInviteSizes(t *testing.T) {
	const code = "HF1-040MX-BQ1H0-3YMDB-CYY3C-FX69C-826C7-NBDX5-DCHXG-NH04G-35J33-98GZ8-80HZG-00010-TQ8A0-9YZPV-4BPJZ-WJSAK-Y18RY-B8G88-M4S2H-J7SV5-3XYV8-R7P9Z-FKQBZ-GC0FB-KCS58"
	for _, sz := range []struct{ w, h int }{{800, 600}, {1280, 800}} {
		name := fmt.Sprintf("lobby-invite-%dx%d", sz.w, sz.h)
		t.Run(name, func(t *testing.T) {
			c := fake.New()
			l := eightSlots()
			c.SetLobby(l, 0)
			c.SetStatus(client.NetStatus{Online: true, Host: "Ann", Invite: code, Peers: []client.PeerStatus{{Name: "Ann", Slot: 0, Host: true, Self: true}}})
			h := newSizedHarness(t, c, sz.w, sz.h)
			h.frame(nil)
			h.frame(nil)
			img := h.shot(name)
			ls := h.a.lobby
			checkSlots(t, img, &ls.lay, l)
			if p := textProblems(h.a); len(p) > 0 {
				t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
			}
			if len(ls.v.invite) < 2 {
				t.Errorf("the invite code in %d lines, want it wrapped", len(ls.v.invite))
			}
		})
	}
}

// The network notices (banners) and the network panel (F3) together in
// every window size: the banners stay left of the panel and in the window.
func TestShotMigrationSizes(t *testing.T) {
	for _, sz := range shotSizes {
		name := fmt.Sprintf("migration-%dx%d", sz.w, sz.h)
		t.Run(name, func(t *testing.T) {
			c := gameClient(t)
			h := newSizedHarness(t, c, sz.w, sz.h)
			h.frame(nil)
			c.Push(client.Event{Kind: client.EvHostChanged, Name: "Bo", Millis: 140},
				client.Event{Kind: client.EvWaiting, Name: "Cy", Seconds: 3},
				client.Event{Kind: client.EvWaiting, Name: client.OtherPlayers, Seconds: 3},
				client.Event{Kind: client.EvDesync, Turn: 880}, client.Event{Kind: client.EvDesyncRepaired, Turn: 880})
			h.frame(func(in *ui.Input) { in.Press(ui.KeyF3) })
			h.frame(nil)
			h.shot(name)
			if p := overProblems(h.a); len(p) > 0 {
				t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
			}
			np := ui.NewLayout(float64(sz.w), float64(sz.h)).NetPanel
			if n := len(h.a.banners.drawn); n != 4 {
				t.Fatalf("%d banners drawn, want 4", n)
			}
			for i, r := range h.a.banners.drawn {
				if r.Min.X < 0 || r.Max.X > np.Min.X {
					t.Errorf("banner %d at %v leaves the window or runs into the network panel at %v", i, r, np)
				}
				if i > 0 && r.Min.Y < h.a.banners.drawn[i-1].Max.Y {
					t.Errorf("banner %d at %v overlaps the one above", i, r)
				}
			}
		})
	}
}

// The browser's bar for the game to rejoin, a readable record and a
// damaged one, in every window size: at 800×600 it said "You were pla…"
// beside a Rejoin button of 200 px.
func TestShotBrowserRejoinSizes(t *testing.T) {
	for _, sz := range shotSizes {
		for _, damaged := range []bool{false, true} {
			name := fmt.Sprintf("browser-rejoin-%dx%d", sz.w, sz.h)
			if damaged {
				name = fmt.Sprintf("browser-rejoin-damaged-%dx%d", sz.w, sz.h)
			}
			t.Run(name, func(t *testing.T) {
				c := fake.New()
				c.SetSessions(append(twoSessions(), client.Listing{ID: "lan-9", Name: "Skirmish", Host: "Bo", Players: 3, Max: 4,
					State: session.StatePlaying, Source: client.SourceLAN})...)
				if damaged {
					c.SetLastGame(nil, errors.New("the record of the last game is damaged (/data/lastgame/x.json: not a record); delete it"))
				} else {
					c.SetLastGame(&client.LastGame{Name: "Skirmish", Players: []string{"Bo", "Cy"}, Updated: t0.Add(-3 * time.Minute)}, nil)
				}
				h := newSizedHarness(t, c, sz.w, sz.h)
				h.frame(nil)
				h.frame(nil)
				h.shot(name)
				if p := textProblems(h.a); len(p) > 0 {
					t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
				}
				if drawn := drawnStrings(h.a); !damaged && !drawn["You were playing Skirmish."] {
					t.Errorf("the bar does not say whole which game it rejoins: %v", drawn)
				}
			})
		}
	}
}

// The network panel (F3) over a lobby at 800×600 hides the lobby's text
// under it: that text showed through the panel, mixed with the panel's own
// lines (the lobby's text layer was drawn over the panel).
func TestNetPanelCoversTheScreen(t *testing.T) {
	c := fake.New()
	c.SetLobby(eightSlots(), 0)
	c.SetStatus(client.NetStatus{Online: true, Host: "Ann", Invite: "K7Q2-9XPM",
		Internet: client.InternetStatus{Failed: true, Text: "Could not reach the public libp2p network"},
		Peers:    []client.PeerStatus{{Name: "Ann", Slot: 0, Host: true, Self: true}}})
	h := newSizedHarness(t, c, 800, 600)
	h.frame(nil)
	h.frame(nil)
	under := canvasImage(h.cv)
	h.frame(func(in *ui.Input) { in.Press(ui.KeyF3) })
	h.frame(nil)
	img := h.shot("lobby-net-800x600")
	np := h.a.netRect
	if np.W() == 0 {
		t.Fatal("F3 showed no network panel")
	}
	own := func(x, y int) bool {
		for _, tl := range h.a.floatTxt {
			for _, b := range tl.boxes {
				if b.r.Inset(-2).Contains(ui.V(float64(x)+0.5, float64(y)+0.5)) {
					return true
				}
			}
		}
		return false
	}
	through := 0
	for y := int(np.Min.Y) + 2; y < int(np.Max.Y)-2; y++ {
		for x := int(np.Min.X) + 2; x < int(np.Max.X)-2; x++ {
			if bright(under.RGBAAt(x, y)) && !own(x, y) && bright(img.RGBAAt(x, y)) {
				through++
			}
		}
	}
	if through > 0 {
		t.Errorf("%d pixels of the lobby's text show through the network panel at %v", through, np)
	}
	if p := overProblems(h.a); len(p) > 0 {
		t.Errorf("text problems:\n%s", strings.Join(p, "\n"))
	}
}
