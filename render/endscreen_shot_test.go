package render

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/game"
	"hostfall/render/ui"
	"hostfall/session"
)

// duelClient is a scripted two-player network game of Ann and Bo at turn
// turns; the local player is player me, and Ann hosts.
func duelClient(t *testing.T, turns int, me game.PlayerID, limit uint64) (*fake.Client, *game.World) {
	t.Helper()
	w, players, err := fake.Skirmish(7, 2, turns)
	if err != nil {
		t.Fatal(err)
	}
	players[0].Name, players[1].Name, players[1].Bot = "Ann", "Bo", false
	c := fake.New()
	l := fake.Lobby("Friday LAN party", 2)
	l.State, l.TurnLimit = session.StatePlaying, limit
	for i, p := range players {
		l.Slots[i] = session.Slot{Kind: session.SlotHuman, Name: p.Name, Color: p.Color}
	}
	c.SetLobby(l, int(me))
	c.SetGame(w, t0.Add(-time.Second), players, me)
	c.SetStatus(client.NetStatus{Online: true, Host: "Ann", Epoch: 16, Turn: uint64(turns), TurnMillis: 50,
		Peers: []client.PeerStatus{{Name: "Ann", Slot: 0, Host: true, Self: me == 0}, {Name: "Bo", Slot: 1, PingMillis: 1.2, Self: me == 1}}})
	return c, w
}

// overStrings is the set of strings the last frame drew on the modal layer.
func overStrings(a *App) map[string]bool {
	out := map[string]bool{}
	for _, t := range a.overTxt {
		for _, b := range t.boxes {
			out[b.s] = true
		}
	}
	return out
}

// savingFake is a scripted client that saves, as a host's does.
type savingFake struct{ *fake.Client }

func (savingFake) Save() (string, error) { return "/tmp/duel.hfsave", nil }

// TestShotEndAtTurnLimit: a game that reaches the lobby's turn limit with
// nobody beaten ends on the end screen ("Time's up", who leads on score,
// each player's score), not on a frozen map; its menu then offers neither
// a pause nor a save, and leaving asks nothing.
func TestShotEndAtTurnLimit(t *testing.T) {
	c, w := duelClient(t, 300, 0, 300)
	h := newHarness(t, savingFake{c})
	h.frame(nil)
	h.frame(nil)
	g := h.a.game
	if g == nil || g.end != endTimeUp || g.overlay() != overEnd || !g.over {
		t.Fatalf("at the turn limit: end %v, overlay %v, over %v; want the end screen", g.end, g.overlay(), g.over)
	}
	img := h.shot("end-turn-limit")
	drawn := overStrings(h.a)
	want := []string{"Time's up", "Leave game"}
	for p := range 2 {
		want = append(want, fmt.Sprintf("score %d", w.Score(game.PlayerID(p))))
	}
	for _, s := range want {
		if !drawn[s] {
			t.Errorf("the end screen does not say %q; it says %v", s, drawn)
		}
	}
	sub := false
	for s := range drawn {
		sub = sub || strings.HasPrefix(s, "The game reached its limit of 300 turns;") && strings.Contains(s, "leads on score.")
	}
	if !sub {
		t.Errorf("no line says the turn limit ended the game: %v", drawn)
	}
	if h.a.askClose() {
		t.Error("the window's close button asks after the end; want it to close")
	}
	if len(g.ends) != 1 || g.ends[0].choice != endLeave {
		t.Errorf("the end screen's buttons %+v, want Leave game only", g.ends)
	}
	textIn(t, img, "Time's up", ui.XYWH(h.a.w/2-200, h.a.h*0.18, 400, 70), 300)

	h.frame(func(in *ui.Input) { in.Press(ui.KeyEscape) })
	if len(c.Proposed()) != 0 {
		t.Errorf("Escape after the end sent %+v", c.Proposed())
	}
	h.frame(nil)
	h.shot("end-turn-limit-menu")
	if !g.ui.MenuOpen || g.overlay() != overMenu {
		t.Errorf("Escape on the end screen: menu open %v, overlay %v; want the menu", g.ui.MenuOpen, g.overlay())
	}
	m := g.ui.Menu()
	for _, it := range m {
		if it.Choice == ui.MenuPause || it.Choice == ui.MenuUnpause || it.Choice == ui.MenuSave {
			t.Errorf("the menu after the end offers %q", it.Label)
		}
	}
	leave := len(m) - 2
	if m[leave].Choice != ui.MenuLeave {
		t.Fatalf("menu %+v", m)
	}
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, g.ui.Layout.MenuButton(leave).Center()) })
	if g.ui.Confirm != ui.MenuNone || !strings.Contains(strings.Join(c.Calls(), ","), "leave") {
		t.Errorf("Leave game after the end: asking %v, calls %v; want it done at once", g.ui.Confirm, c.Calls())
	}
}

// TestShotMenuHostAndJoiner: the host's and a joiner's menus have the same
// entries in the same places (a joiner's "Save game" greyed), so Leave game
// is where it is for everyone; Leave game in the running game asks first.
func TestShotMenuHostAndJoiner(t *testing.T) {
	var menus [2][]ui.MenuItem
	for me := range game.PlayerID(2) {
		name := []string{"host", "joiner"}[me]
		c, _ := duelClient(t, 300, me, 0)
		h := newHarness(t, savingFake{c})
		h.frame(nil)
		h.frame(nil)
		g := h.a.game
		h.frame(func(in *ui.Input) { in.Press(ui.KeyF10) })
		h.frame(nil)
		img := h.shot("menu-" + name)
		menus[me] = g.ui.Menu()
		drawn := overStrings(h.a)
		for i, it := range menus[me] {
			if !drawn[it.Label] {
				t.Errorf("%s: the menu does not show %q: %v", name, it.Label, drawn)
			}
			if !it.Off {
				textIn(t, img, name+"'s "+it.Label, g.ui.Layout.MenuButton(i), 60)
			}
		}
		leave := 4
		if menus[me][leave].Choice != ui.MenuLeave {
			t.Fatalf("%s's menu %+v", name, menus[me])
		}
		h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, g.ui.Layout.MenuButton(leave).Center()) })
		h.frame(nil)
		if g.ui.Confirm != ui.MenuLeave || strings.Contains(strings.Join(c.Calls(), ","), "leave") {
			t.Fatalf("%s's Leave game: asking %v, calls %v; want the question", name, g.ui.Confirm, c.Calls())
		}
		img = h.shot("confirm-leave-" + name)
		drawn = overStrings(h.a)
		for _, s := range []string{"Leave the game?", "The others play on without you; you cannot come back.", "Stay"} {
			if !drawn[s] {
				t.Errorf("%s: the question does not say %q: %v", name, s, drawn)
			}
		}
		textIn(t, img, "Leave game (the question's)", g.ui.Layout.ConfirmButton(0), 60)
		h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, g.ui.Layout.ConfirmButton(1).Center()) })
		if g.ui.Confirm != ui.MenuNone || !g.ui.MenuOpen || strings.Contains(strings.Join(c.Calls(), ","), "leave") {
			t.Fatalf("%s's Stay: asking %v, menu open %v, calls %v", name, g.ui.Confirm, g.ui.MenuOpen, c.Calls())
		}
	}
	if len(menus[0]) != len(menus[1]) {
		t.Fatalf("host's menu %+v, joiner's %+v", menus[0], menus[1])
	}
	for i := range menus[0] {
		if menus[0][i].Label != menus[1][i].Label && i != 2 || menus[0][i].Choice != menus[1][i].Choice {
			t.Errorf("entry %d: host's %+v, joiner's %+v", i, menus[0][i], menus[1][i])
		}
	}
	if menus[0][2].Off || !menus[1][2].Off {
		t.Errorf("Save game: host's %+v, joiner's %+v; want the host's only", menus[0][2], menus[1][2])
	}
}

// The window's close button in a running game asks as Quit Hostfall does;
// pressed again while the question shows, it closes.
func TestCloseButtonAsks(t *testing.T) {
	c, _ := duelClient(t, 300, 1, 0)
	h := newHarness(t, c)
	h.frame(nil)
	h.frame(nil)
	g := h.a.game
	if !h.a.askClose() || !g.ui.MenuOpen || g.ui.Confirm != ui.MenuQuit {
		t.Fatalf("the close button: menu open %v, asking %v; want Quit Hostfall's question", g.ui.MenuOpen, g.ui.Confirm)
	}
	h.frame(nil)
	if !overStrings(h.a)["Quit Hostfall?"] {
		t.Errorf("the question is not shown: %v", overStrings(h.a))
	}
	if h.a.askClose() {
		t.Error("the close button pressed again while asking did not close")
	}
}

// TestShotEndOthersLeft: in a 1v1 the other player left (a departure,
// which takes their side out of the game): the end screen is a victory
// that says so, and the table says when they left rather than "out at".
func TestShotEndOthersLeft(t *testing.T) {
	c, w := duelClient(t, 300, 0, 0)
	w.Step([]game.Command{{Player: 1, Kind: game.CmdSurrender}})
	if !w.Over() {
		t.Fatal("the game did not end with Bo's departure")
	}
	c.Push(client.Event{Kind: client.EvPlayerLeft, Name: "Bo"})
	c.PushWorld(w.Events()...) // "Bo is out of the game." comes with it
	h := newHarness(t, c)
	h.frame(nil)
	h.frame(nil)
	g := h.a.game
	if g == nil || g.end != endVictory || g.overlay() != overEnd {
		t.Fatalf("after Bo left: end %v; want the victory screen", g.end)
	}
	img := h.shot("end-others-left")
	drawn := overStrings(h.a)
	for _, s := range []string{"Victory!", "Everybody else left the game. Game time 0:15.", "left at 0:15", "won"} {
		if !drawn[s] {
			t.Errorf("the end screen does not say %q; it says %v", s, drawn)
		}
	}
	// The end screen says what ended: the notice of the same event is not
	// drawn under its shade (play-test: "Bo is out of the game." peeked out
	// below the Leave game button).
	if !slices.ContainsFunc(g.notices, func(n notice) bool { return n.text == "Bo is out of the game." }) {
		t.Errorf("no notice of Bo's departure to hide: %+v", g.notices)
	}
	for _, b := range h.a.text[fontBold].boxes {
		if b.s == "Bo is out of the game." {
			t.Errorf("the notice %q is drawn under the end screen", b.s)
		}
	}
	// The "Bo left the game" banner is drawn over the end screen's shade,
	// not dimmed by it: its stripe keeps its colour.
	if len(h.a.banners.drawn) != 1 {
		t.Fatalf("%d banners drawn, want Bo's departure", len(h.a.banners.drawn))
	}
	r := h.a.banners.drawn[0]
	stripe := ui.XYWH(r.Min.X+1, r.Min.Y+4, 3, r.H()-8)
	if n, all := count(img, stripe, like([3]uint8{150, 160, 178}, 12)), int(stripe.W()*stripe.H()); n < all*9/10 {
		t.Errorf("%d of the banner stripe's %d pixels have its colour: the end screen's shade covers the banner", n, all)
	}
}

// TestShotEndOnScore: a game nobody won by ScoreTurn (40 minutes of game
// time; here two players who gave no orders) ends on the score rule, on
// the end screen of each side: a victory or a defeat that says time ran
// out, and the menu after it offers neither a pause nor a save.
func TestShotEndOnScore(t *testing.T) {
	w, err := game.NewWorld(game.FreeForAll(7, 2))
	if err != nil {
		t.Fatal(err)
	}
	for !w.Over() && w.Turn() < game.ScoreTurn {
		w.Step(nil)
	}
	team, won := w.Winner()
	if !w.Over() || !w.ByScore() || !won {
		t.Fatalf("at turn %d: over %v, by score %v, winner %d (%v)", w.Turn(), w.Over(), w.ByScore(), team, won)
	}
	players := []client.Player{{Name: "Ann", Slot: 0, Color: 0}, {Name: "Bo", Slot: 1, Color: 1}}
	for me := range game.PlayerID(2) {
		c := fake.New()
		l := fake.Lobby("Forty minutes", 2)
		l.State = session.StatePlaying
		c.SetLobby(l, int(me))
		c.SetGame(w, t0, players, me)
		h := newHarness(t, c)
		h.frame(nil)
		h.frame(nil)
		g := h.a.game
		title, sub, name := "Victory!", "Time ran out and your side scored highest.", "end-score-victory"
		if w.Player(me).Team != team {
			title, sub, name = "Defeat", "Time ran out and the other side scored higher.", "end-score-defeat"
		}
		if g == nil || g.overlay() != overEnd {
			t.Fatalf("player %d at ScoreTurn: no end screen", me)
		}
		h.shot(name)
		drawn := overStrings(h.a)
		for _, s := range []string{title, sub + " Game time 40:00.", "won on score", "lost on score", "Leave game"} {
			if !drawn[s] {
				t.Errorf("player %d: the end screen does not say %q; it says %v", me, s, drawn)
			}
		}
		h.frame(func(in *ui.Input) { in.Press(ui.KeyEscape) })
		for _, it := range g.ui.Menu() {
			if it.Choice == ui.MenuPause || it.Choice == ui.MenuUnpause || it.Choice == ui.MenuSave {
				t.Errorf("player %d: the menu after the end offers %q", me, it.Label)
			}
		}
	}
}
