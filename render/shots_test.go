package render

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/game"
	"hostfall/internal/xvfb"
	"hostfall/render/ui"
	"hostfall/session"
)

// Screenshot tests: each draws a screen from a scripted client, saves the
// picture (testdata/shots/NAME.png with -update, and always in the test's
// artifact directory: go test -artifacts -outputdir DIR), and checks pixels
// where things must be: units of a player's colour where the camera puts
// them, minimap dots, text in its boxes.

var update = flag.Bool("update", false, "rewrite testdata/shots/*.png")

var t0 = time.Date(2025, 6, 1, 20, 0, 0, 0, time.UTC)

type harness struct {
	t   *testing.T
	a   *App
	now time.Time
}

func newHarness(t *testing.T, c Client) *harness {
	t.Helper()
	w := testWindow(t)
	a, err := NewApp(w, 1024, 768, c, Options{PlayerName: "Ann", Library: noFiles{}})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, a: a, now: t0}
}

// frame draws one frame with input prepared by set (the pointer is outside
// the window unless set moves it).
func (h *harness) frame(set func(in *ui.Input)) {
	in := ui.Input{Now: h.now, DT: 1.0 / 60, Mouse: ui.V(-100, -100)}
	if set != nil {
		set(&in)
	}
	h.a.Frame(in)
	h.now = h.now.Add(16 * time.Millisecond)
}

// shot takes the picture of the last frame, saves it and presents the frame.
func (h *harness) shot(name string) *image.RGBA {
	h.t.Helper()
	img := Screenshot(win)
	win.Update()
	if img.Bounds().Dx() != 1024 || img.Bounds().Dy() != 768 {
		h.t.Fatalf("screenshot is %v, want 1024×768", img.Bounds())
	}
	save(h.t, filepath.Join(h.t.ArtifactDir(), name+".png"), img)
	if *update {
		save(h.t, filepath.Join("testdata", "shots", name+".png"), img)
	}
	return img
}

func save(t *testing.T, path string, img image.Image) {
	t.Helper()
	if err := xvfb.WritePNG(path, img); err != nil {
		t.Fatal(err)
	}
}

// count returns how many pixels of r satisfy pred.
func count(img *image.RGBA, r ui.Rect, pred func(c color.RGBA) bool) int {
	n := 0
	for y := int(r.Min.Y); y < int(r.Max.Y); y++ {
		for x := int(r.Min.X); x < int(r.Max.X); x++ {
			if (image.Point{x, y}).In(img.Bounds()) && pred(img.RGBAAt(x, y)) {
				n++
			}
		}
	}
	return n
}

func like(want [3]uint8, tol int) func(c color.RGBA) bool {
	return func(c color.RGBA) bool {
		return absInt(int(c.R)-int(want[0])) <= tol && absInt(int(c.G)-int(want[1])) <= tol && absInt(int(c.B)-int(want[2])) <= tol
	}
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// bright matches text-like pixels: light and close to grey.
func bright(c color.RGBA) bool { return int(c.R)+int(c.G)+int(c.B) > 420 }

func rgb8(c interface{ RGBA() (r, g, b, a uint32) }) [3]uint8 {
	r, g, b, _ := c.RGBA()
	return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

// textIn fails unless r holds at least min pixels of text colour.
func textIn(t *testing.T, img *image.RGBA, what string, r ui.Rect, min int) {
	t.Helper()
	if n := count(img, r, bright); n < min {
		t.Errorf("%s: %d text pixels in %v, want at least %d", what, n, r, min)
	}
}

func twoSessions() []client.Listing {
	return []client.Listing{
		{ID: "lan-1", Name: "Friday LAN party", Host: "Ann", Players: 3, Max: 8, State: session.StateLobby, Source: client.SourceLAN},
		{ID: "relay-7", Name: "Ranked practice", Host: "Bo", Players: 2, Max: 4, State: session.StatePlaying, Locked: true, Source: client.SourceRelay},
	}
}

func TestShotBrowser(t *testing.T) {
	c := fake.New()
	c.SetSessions(twoSessions()...)
	h := newHarness(t, c)
	h.frame(nil)
	l := h.a.browser.lay
	row := func(i int) ui.Rect {
		return ui.XYWH(l.list.Min.X+1, l.list.Min.Y+float64(i)*l.rowH, l.list.W()-2, l.rowH)
	}
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, row(0).Center()) })
	h.frame(nil)
	img := h.shot("browser")

	if n := count(img, ui.R(32, 28, 220, 60), like(rgb8(colAccent), 40)); n < 150 {
		t.Errorf("title: %d accent pixels, want the word HOSTFALL", n)
	}
	for i := range 2 {
		r := row(i)
		textIn(t, img, fmt.Sprintf("row %d game name", i), ui.R(colX(l.table, 34), r.Min.Y, colX(l.table, 34)+110, r.Max.Y), 60)
		textIn(t, img, fmt.Sprintf("row %d host", i), ui.R(colX(l.table, -330), r.Min.Y, colX(l.table, -330)+40, r.Max.Y), 15)
		textIn(t, img, fmt.Sprintf("row %d players", i), ui.R(colX(l.table, -200), r.Min.Y, colX(l.table, -200)+50, r.Max.Y), 15)
	}
	lock := func(i int) int {
		r := row(i)
		return count(img, ui.XYWH(colX(l.table, 10), r.Min.Y+4, 14, 22), like(rgb8(colAccent), 40))
	}
	if lock(1) < 40 || lock(0) > 0 {
		t.Errorf("lock icons: row 0 %d, row 1 %d accent pixels; want none on the open game and a lock on the locked one", lock(0), lock(1))
	}
	// The clicked row is selected: its marker stripe shows.
	if n := count(img, ui.XYWH(row(0).Min.X, row(0).Min.Y+2, 3, l.rowH-4), like(rgb8(colAccent), 40)); n < 40 {
		t.Errorf("selected row marker: %d pixels", n)
	}
	textIn(t, img, "create panel", l.create.Inset(10), 400)

	// Joining the locked game asks for its password; a refusal is shown.
	c.RefuseJoins("The password is wrong.")
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, row(1).Center()) })
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, row(1).Center()) }) // double-click
	if h.a.browser.askPass == nil {
		t.Fatal("double-clicking a locked game did not ask for its password")
	}
	h.frame(func(in *ui.Input) { in.Typed = "secret" })
	h.frame(func(in *ui.Input) { in.Press(ui.KeyEnter) })
	h.frame(nil)
	if calls := c.Calls(); len(calls) == 0 || calls[len(calls)-1] != "join relay-7" {
		t.Fatalf("calls %v, want a join of relay-7", calls)
	}
	if h.a.browser.msg != "The password is wrong." || !h.a.browser.msgErr {
		t.Fatalf("status line %q", h.a.browser.msg)
	}
	win.Update()
}

func fourSlots() session.Lobby {
	l := fake.Lobby("Friday LAN party", 4)
	l.MapSeed, l.MapSize, l.Password = 1234, 128, true
	l.Slots[0] = session.Slot{Kind: session.SlotHuman, Peer: "ann", Name: "Ann", Color: 0, Team: 1, Ready: true}
	l.Slots[1] = session.Slot{Kind: session.SlotHuman, Peer: "bo", Name: "Bo", Color: 1, Team: 2}
	l.Slots[2] = session.Slot{Kind: session.SlotBot, Name: "Bot 3", Color: 2, Team: 2, Ready: true, BotLevel: 2}
	l.Slots[3] = session.Slot{Kind: session.SlotOpen, Color: 3}
	return l
}

func TestShotLobby(t *testing.T) {
	c := fake.New()
	c.SetLobby(fourSlots(), 0)
	c.SetStatus(client.NetStatus{Online: true, Host: "Ann", Peers: []client.PeerStatus{{Name: "Ann", Slot: 0, Host: true, Self: true}, {Name: "Bo", Slot: 1, PingMillis: 1.4}}})
	c.Push(client.Event{Kind: client.EvChat, Name: "Bo", Text: "hi all, ready in a minute"}, client.Event{Kind: client.EvChat, Name: "Ann", Text: "glhf"})
	h := newHarness(t, c)
	h.frame(nil)
	h.frame(nil)
	img := h.shot("lobby")

	lay := h.a.lobby.lay
	l := fourSlots()
	checkSlots(t, img, &lay, l)
	textIn(t, img, "chat", ui.R(lay.chat.Min.X+10, lay.chat.Max.Y-120, lay.chat.Max.X-10, lay.chat.Max.Y-50), 80)
	textIn(t, img, "lobby title", ui.R(32, 28, 300, 60), 200)
	checkPreview(t, img, h.a.lobby, l)
	// Bo is not ready: Start is greyed and says so.
	if got := h.a.lobby.v.start; got != "Waiting for Bo to be ready." {
		t.Errorf("the start is held by %q", got)
	}
	if n := count(img, lay.reason, like(rgb8(colWaiting), 40)); n < 60 {
		t.Errorf("why Start is greyed: %d pixels of its colour in %v", n, lay.reason)
	}
	if p := textProblems(h.a); len(p) > 0 {
		t.Errorf("text overlaps: %q", p)
	}

	// The greyed Start does nothing; a bot slot cycles, a bot changes team,
	// the map grows, chat goes out, the host renames itself and kicks Bo.
	click := func(p ui.Vec) { h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, p) }) }
	click(lay.start.Center())
	click(lay.rows[3].kind.Center())
	click(lay.rows[2].team.Center())
	click(lay.size.Center())
	h.frame(func(in *ui.Input) { in.Typed = "go!" })
	h.frame(func(in *ui.Input) { in.Press(ui.KeyEnter) })
	// A click on one's own name edits it.
	click(ui.V(lay.rows[0].name.Min.X+20, lay.rows[0].row.Center().Y))
	for range 3 {
		h.frame(func(in *ui.Input) { in.Press(ui.KeyBackspace) })
	}
	h.frame(func(in *ui.Input) { in.Typed = "Annie" })
	h.frame(func(in *ui.Input) { in.Press(ui.KeyEnter) })
	click(lay.rows[1].kick.Center())
	h.frame(nil)
	if n := count(Screenshot(win), lay.rows[1].kick, like(rgb8(colBad), 10)); n < 400 {
		t.Errorf("a Kick clicked once: %d red pixels, want it to ask to be sure", n)
	}
	click(lay.rows[1].kick.Center())
	h.frame(nil)
	win.Update()
	want := []string{"set-slot 3 bot 0", "edit-bot 2 color=2 team=3", "configure seed=1234 size=192 turn=5 away=0",
		"say 0 go!", `edit "Annie" color=0 team=1 ready=true`, "kick 1"}
	if calls := c.Calls(); !slices.Equal(calls, want) {
		t.Fatalf("calls %q, want %q", calls, want)
	}
}

// checkSlots checks each slot's row of lobby l in img: its colour swatch
// (none for an open slot), its name, its ready box.
func checkSlots(t *testing.T, img *image.RGBA, lay *lobbyLayout, l session.Lobby) {
	t.Helper()
	if len(lay.rows) != len(l.Slots) {
		t.Fatalf("%d slot rows laid out for %d slots", len(lay.rows), len(l.Slots))
	}
	for i, s := range l.Slots {
		r := &lay.rows[i]
		n := count(img, r.swatch.Inset(5), like(PlayerColors[s.Color], 6))
		if s.Kind == session.SlotOpen {
			if n > 0 {
				t.Errorf("open slot %d shows a colour swatch", i)
			}
		} else if n < 150 {
			t.Errorf("slot %d: %d pixels of %s in its swatch", i, n, ColorNames[s.Color])
		}
		textIn(t, img, fmt.Sprintf("slot %d name", i), ui.R(r.name.Min.X, r.row.Min.Y, r.name.Min.X+36, r.row.Max.Y), 25)
		ready := count(img, r.ready.Inset(2), like(rgb8(colGood), 10))
		if want := s.Ready && s.Kind != session.SlotOpen; want != (ready > 40) {
			t.Errorf("slot %d: ready %v but %d green pixels in the ready box", i, s.Ready, ready)
		}
	}
}

// checkPreview checks the map's picture: land in it, and each player's
// start marked in the player's colour.
func checkPreview(t *testing.T, img *image.RGBA, s *lobbyScreen, l session.Lobby) {
	t.Helper()
	r := s.lay.preview
	if n := count(img, r, like([3]uint8{70, 118, 56}, 4)); n < int(r.W()*r.H()/4) {
		t.Errorf("the map's picture: %d grass pixels in %v", n, r)
	}
	colors := startColors(&l)
	if len(s.preview.starts) != max(len(colors), 2) {
		t.Fatalf("the picture shows %d starts for %d players", len(s.preview.starts), len(colors))
	}
	for i, c := range colors {
		at := s.preview.starts[i]
		p := ui.V(r.Min.X+at.X*r.W(), r.Min.Y+at.Y*r.H())
		if n := count(img, ui.XYWH(p.X-4, p.Y-4, 8, 8), like(PlayerColors[c], 6)); n < 40 {
			t.Errorf("player %d's start at %v: %d pixels of %s", i, p, n, ColorNames[c])
		}
	}
}

// gameClient returns a scripted game: four hard bots on seed 7 at turn 900,
// seen by player 0.
func gameClient(t *testing.T) *fake.Client {
	t.Helper()
	w, players, err := fake.Skirmish(7, 4, 900)
	if err != nil {
		t.Fatal(err)
	}
	c := fake.New()
	l := fake.Lobby("Skirmish", 4)
	l.State = session.StatePlaying
	for i, p := range players {
		l.Slots[i] = session.Slot{Kind: session.SlotBot, Name: p.Name, Color: p.Color}
	}
	c.SetLobby(l, 0)
	c.SetGame(w, t0.Add(-time.Second), players, 0)
	c.SetStatus(client.NetStatus{Online: true, Host: "You", Epoch: 17, Turn: 900, InputDelay: 1, TurnMillis: 50,
		Peers:   []client.PeerStatus{{Name: "You", Slot: 0, Host: true, Self: true}, {Name: "Bo", Slot: 1, PingMillis: 1.8}, {Name: "Cy", Slot: 2, PingMillis: 23.5}},
		BytesIn: 2400, BytesOut: 1900})
	return c
}

func TestShotGame(t *testing.T) {
	c := gameClient(t)
	h := newHarness(t, c)
	h.frame(nil)
	g := h.a.game
	if g == nil || g.sc == nil {
		t.Fatal("the game screen did not load")
	}
	// Select the player's units around the camera, as a box drag would.
	var sel []game.UnitID
	for _, u := range g.sc.Units {
		if u.Own && !u.Building && g.ui.Cam.View.Contains(g.ui.Cam.ToScreen(u.Pos)) && len(sel) < 6 {
			sel = append(sel, u.ID)
		}
	}
	g.ui.Sel.Set(sel)
	h.frame(nil)
	h.frame(nil)
	img := h.shot("game")

	blue := PlayerColors[0]
	checked := unitsIn(t, img, g, blue, func(u *ui.Unit, _ ui.Rect) bool { return u.Own })
	for _, u := range checked {
		// The minimap dot.
		d := g.ui.Mini.ToScreen(u.Pos)
		if n := count(img, ui.XYWH(d.X-1, d.Y-1, 3, 3), like(blue, 4)); n == 0 {
			t.Errorf("no minimap dot for the %v at %v (screen %v)", u.Kind, u.Pos, d)
		}
	}
	if len(checked) < 8 {
		t.Fatalf("only %d of player 0's units on screen; the fixture should show its base", len(checked))
	}
	// Nothing blue where the map shows no unit: a corner of the view far
	// from the base is grass or fog.
	empty := ui.XYWH(g.ui.Layout.Map.Min.X+4, g.ui.Layout.Map.Min.Y+4, 60, 60)
	if !g.sceneEmpty(empty) {
		t.Log("the top-left corner holds a unit; skipping the empty-corner check")
	} else if n := count(img, empty, like(blue, 4)); n > 0 {
		t.Errorf("%d blue pixels in an empty corner", n)
	}
	// The minimap frame (white) surrounds the camera's view.
	fr := snap(g.ui.Mini.Frame(&g.ui.Cam))
	if n := count(img, ui.R(fr.Min.X, fr.Min.Y, fr.Max.X, fr.Min.Y+1), like([3]uint8{255, 255, 255}, 10)); n < int(fr.W())-2 {
		t.Errorf("minimap camera frame: %d white pixels on its top edge of %.0f", n, fr.W())
	}
	// Text: gold in the top bar, the clock, the selection's portraits.
	if n := count(img, ui.XYWH(34, 6, 50, 16), like(rgb8(colAccent), 40)); n < 20 {
		t.Errorf("gold amount: %d accent pixels", n)
	}
	textIn(t, img, "game clock", ui.XYWH(1024/2-30, 4, 60, 20), 20)
	for i := range sel {
		pr, _ := g.ui.Layout.Portrait(i)
		if n := count(img, pr, like(blue, 4)); n < 20 {
			t.Errorf("portrait %d: %d blue pixels", i, n)
		}
	}
	// Every command card button of the selection has its hotkey letter.
	for i, b := range ui.Card(g.ui.Selected(), &g.ui.Keys) {
		if b.Action == ui.ActNone {
			continue
		}
		r := g.ui.Layout.Button(i)
		if n := count(img, ui.XYWH(r.Min.X+3, r.Min.Y+2, 14, 18), like(rgb8(colAccent), 40)); n < 8 {
			t.Errorf("button %q: no hotkey letter (%d pixels)", b.Label, n)
		}
	}
}

// unitsIn checks that every unit of the scene that keep picks, drawn
// wholly on the map at screen rect r, shows colour c there; it returns the
// units it checked.
func unitsIn(t *testing.T, img *image.RGBA, g *gameScreen, c [3]uint8, keep func(u *ui.Unit, r ui.Rect) bool) []*ui.Unit {
	t.Helper()
	var checked []*ui.Unit
	inner := g.ui.Layout.Map.Inset(4)
	for i := range g.sc.Units {
		u := &g.sc.Units[i]
		p := g.ui.Cam.ToScreen(u.Pos)
		half := u.Size * g.ui.Cam.Zoom / 2
		r := ui.R(p.X-half, p.Y-half, p.X+half, p.Y+half)
		if !inner.Contains(r.Min) || !inner.Contains(r.Max) || !keep(u, r) {
			continue
		}
		checked = append(checked, u)
		want := 40
		if u.Building {
			want = 200
		}
		if n := count(img, r, like(c, 4)); n < want {
			t.Errorf("%v of player %d at %v: %d pixels of its colour in %v, want %d", u.Kind, u.Owner, u.Pos, n, r, want)
		}
	}
	return checked
}

// sceneEmpty reports whether no unit of the scene is drawn in screen rect r.
func (g *gameScreen) sceneEmpty(r ui.Rect) bool {
	for _, u := range g.sc.Units {
		p := g.ui.Cam.ToScreen(u.Pos)
		half := u.Size*g.ui.Cam.Zoom/2 + 4
		if ui.R(p.X-half, p.Y-half, p.X+half, p.Y+half).Intersects(r) {
			return false
		}
	}
	return true
}

func TestShotMigration(t *testing.T) {
	c := gameClient(t)
	h := newHarness(t, c)
	h.frame(nil)
	c.Push(client.Event{Kind: client.EvHostChanged, Name: "Bo", Millis: 140},
		client.Event{Kind: client.EvWaiting, Name: "Cy", Seconds: 3},
		client.Event{Kind: client.EvWaiting, Name: client.OtherPlayers, Seconds: 3},
		client.Event{Kind: client.EvDesync, Turn: 880}, client.Event{Kind: client.EvDesyncRepaired, Turn: 880})
	h.frame(func(in *ui.Input) { in.Press(ui.KeyF3) })
	h.frame(nil)
	img := h.shot("migration")

	bold := h.a.text[fontBold]
	texts := []struct {
		text   string
		stripe color.RGBA
	}{
		{"Host left — Bo is now hosting (hand-over took 140 ms)", toRGBA(colAccent)},
		{"Desync detected — repaired", toRGBA(colGood)},
		{"Waiting for Cy… away in 3 s", color.RGBA{251, 146, 60, 255}},
		{"Waiting for the other players… playing on without them in 3 s", color.RGBA{251, 146, 60, 255}},
	}
	y := ui.TopBarH + 12
	np := ui.NewLayout(1024, 768).NetPanel
	for _, b := range texts {
		w := bold.width(b.text) + 48
		r := ui.XYWH(np.Min.X/2-w/2, y, w, 34) // left of the network panel
		if r.Max.X > np.Min.X {
			t.Errorf("banner %q overlaps the network panel", b.text)
		}
		if n := count(img, ui.XYWH(r.Min.X+1, r.Min.Y+4, 3, 26), like([3]uint8{b.stripe.R, b.stripe.G, b.stripe.B}, 8)); n < 60 {
			t.Errorf("banner %q: %d stripe pixels at %v", b.text, n, r)
		}
		textIn(t, img, "banner "+b.text, r.Inset(6), int(w))
		y += 42
	}
	textIn(t, img, "network panel", ui.R(np.Min.X+10, np.Min.Y+30, np.Max.X-10, np.Min.Y+180), 400)
	if n := count(img, ui.XYWH(np.Min.X+10, np.Min.Y+8, 80, 20), like(rgb8(colAccent), 40)); n < 30 {
		t.Errorf("network panel title: %d accent pixels", n)
	}
}

func toRGBA(c interface{ RGBA() (r, g, b, a uint32) }) color.RGBA {
	v := rgb8(c)
	return color.RGBA{v[0], v[1], v[2], 255}
}

// TestShotEnd draws the end of a two-player game: one side surrenders, the
// other sees its victory and the table of the game.
func TestShotEnd(t *testing.T) {
	for _, tt := range []struct {
		name  string
		me    game.PlayerID
		title [3]uint8
	}{{"victory", 0, rgb8(colAccent)}, {"defeat", 1, rgb8(colBad)}} {
		t.Run(tt.name, func(t *testing.T) {
			w, players, err := fake.Skirmish(11, 2, 600)
			if err != nil {
				t.Fatal(err)
			}
			w.Step([]game.Command{{Player: 1, Kind: game.CmdSurrender}})
			if !w.Over() {
				t.Fatal("the game did not end with a surrender")
			}
			c := fake.New()
			l := fake.Lobby("Duel", 2)
			l.State = session.StatePlaying
			c.SetLobby(l, int(tt.me))
			c.SetGame(w, t0, players, tt.me)
			h := newHarness(t, c)
			h.frame(nil)
			h.frame(nil)
			img := h.shot(tt.name)
			if h.a.game.end == endNone {
				t.Fatal("no end screen")
			}
			if n := count(img, ui.R(1024/2-200, 768*0.18, 1024/2+200, 768*0.18+70), like(tt.title, 30)); n < 500 {
				t.Errorf("title: %d pixels of its colour", n)
			}
			textIn(t, img, "score table", ui.R(1024/2-410, 768*0.18+160, 1024/2+410, 768*0.18+230), 300)
		})
	}
}
