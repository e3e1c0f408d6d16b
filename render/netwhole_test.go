package render

import (
	"image"
	"log/slog"
	"os"
	"testing"
	"time"

	"hostfall/client/network"
	"hostfall/game"
	"hostfall/p2p/transport"
	"hostfall/render/ui"
	"hostfall/session"
)

// One window on the network client (real libp2p on loopback) plays a whole
// evening in order, by clicks and keys only, the way a player would: the
// browser, Create game; in the lobby a random map, then seed 7 typed (the
// map's picture changes each time), the fast speed, a bot on team 2; Start; the workers boxed and
// sent to the gold (the gold rises); a barracks from the command card,
// placed beside the base, built in game time; a soldier trained there;
// Escape pauses ("Paused by Ann", the clock stands still), the menu resumes
// (the countdown, then the clock moves); F10 opens the menu and Quit leaves
// the game and asks the window to close. Each step is a screenshot in the
// test's artifact directory, checked for overlapping text, and the state
// each step must produce is checked in the model.
func TestNetWholeGame(t *testing.T) {
	testWindow(t) // skip early without a display
	start := time.Now()
	transport.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4}))
	c := loopbackClientOn(t, transport.Options{}, nil, func(o *network.Options) { o.WaitScreen = true })
	f := &flow{t: t, h: newHarness(t, c), c: c}

	f.browserToLobby()
	f.lobbySetup()
	f.startGame()
	base := f.selectWorkers()
	f.mine(base)
	barracks := f.buildBarracks(base)
	f.train(barracks)
	f.pauseAndResume()
	f.quit()
	t.Logf("the whole game took %v", time.Since(start).Round(time.Millisecond))
}

// flow is one window's walk through the game, step by step.
type flow struct {
	t *testing.T
	h *harness
	c *network.Client
	g *gameScreen
}

func (f *flow) frame(set func(in *ui.Input)) { liveFrame(f.h, set) }

func (f *flow) click(b ui.Mouse, p ui.Vec) {
	f.frame(func(in *ui.Input) { in.Click(b, p) })
}

func (f *flow) press(k ui.Key) { f.frame(func(in *ui.Input) { in.Press(k) }) }

// until draws frames until cond holds, for d of real time at most.
func (f *flow) until(what string, d time.Duration, cond func() bool) {
	f.t.Helper()
	for end := time.Now().Add(d); !cond(); {
		if time.Now().After(end) {
			liveShot(f.t, f.h, "netwhole-timeout")
			f.t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		f.frame(nil)
	}
}

// shot saves the screen as netwhole-NAME and checks its text for overlaps.
func (f *flow) shot(name string) *image.RGBA {
	f.t.Helper()
	img := liveShot(f.t, f.h, "netwhole-"+name)
	if p := textProblems(f.h.a); len(p) > 0 {
		f.t.Errorf("%s: text overlaps: %q", name, p)
	}
	return img
}

func (f *flow) lobby() session.Lobby { l, _ := f.c.Lobby(); return l }

// view runs fn on the world the client shows.
func (f *flow) view(fn func(w *game.World)) { f.c.View(func(w *game.World, _ time.Time) { fn(w) }) }

func (f *flow) gold() (g int32) { f.view(func(w *game.World) { g = w.Player(f.g.me).Gold }); return }

func (f *flow) clock() (n int) { f.view(func(w *game.World) { n = w.Time() }); return }

// own returns the local player's living units of kind k.
func (f *flow) own(k game.Kind) []game.UnitInfo {
	var out []game.UnitInfo
	f.view(func(w *game.World) {
		us := w.Units()
		for i := range us.Len() {
			if us.Alive(i) && us.Owner(i) == f.g.me && us.Kind(i) == k {
				u, _ := w.Unit(us.ID(i))
				out = append(out, u)
			}
		}
	})
	return out
}

// browserToLobby names a game in the browser and creates it.
func (f *flow) browserToLobby() {
	t, a := f.t, f.h.a
	f.frame(nil)
	if a.screen != scrBrowser {
		t.Fatalf("the window opened on screen %v, want the browser", a.screen)
	}
	lay := &a.browser.lay
	f.click(ui.MouseLeft, lay.gameName.Center())
	f.frame(func(in *ui.Input) { in.Typed = "Whole evening" })
	f.shot("browser")
	f.click(ui.MouseLeft, lay.createBtn.Center())
	f.until("the lobby", 10*time.Second, func() bool { return a.screen == scrLobby })
	if l := f.lobby(); l.Name != "Whole evening" {
		t.Errorf("the game is called %q, want the name typed", l.Name)
	}
}

// lobbySetup picks a new random map, then types seed 7 (the map's picture
// must change each time), the fast speed, and a bot on team 2. The host has no Ready of its own (its Start
// is that): Start is greyed while the host is alone, and free once the bot
// (always ready) is in.
func (f *flow) lobbySetup() {
	t, s := f.t, f.h.a.lobby
	lay := &s.lay
	f.frame(nil)
	before := liveShot(t, f.h, "netwhole-lobby-before")
	if s.v.start == "" {
		t.Error("Start is free with nobody to play against")
	}
	seed := f.lobby().MapSeed
	f.click(ui.MouseLeft, lay.random.Center())
	f.until("a new seed", 5*time.Second, func() bool { return f.lobby().MapSeed != seed })
	f.frame(nil)
	random := liveShot(t, f.h, "netwhole-lobby-random")
	f.pictureChanged("Random map", before, random)
	// Then the seed typed in its field (a known map for the game's steps).
	f.click(ui.MouseLeft, lay.seed.Center())
	for range 24 {
		f.press(ui.KeyBackspace)
	}
	f.frame(func(in *ui.Input) { in.Typed = "7" })
	f.press(ui.KeyEnter)
	f.until("seed 7", 5*time.Second, func() bool { return f.lobby().MapSeed == 7 })
	f.frame(nil)
	f.pictureChanged("the seed typed", random, liveShot(t, f.h, "netwhole-lobby-seed"))
	f.click(ui.MouseLeft, lay.speed.Center())
	f.until("the fast speed", 5*time.Second, func() bool { return f.lobby().TurnTicks == 3 })
	f.click(ui.MouseLeft, lay.rows[1].kind.Center())
	f.until("a bot in slot 2", 5*time.Second, func() bool { return f.lobby().Slots[1].Kind == session.SlotBot })
	for team := uint8(1); team <= 2; team++ { // each click takes the next team of the one shown
		f.click(ui.MouseLeft, lay.rows[1].team.Center())
		f.until("the bot on the next team", 5*time.Second, func() bool { return f.lobby().Slots[1].Team == team })
		f.frame(nil)
	}
	f.frame(nil)
	img := f.shot("lobby")
	l := f.lobby()
	shown := l.Clone()
	shown.Slots[0].Ready = true // the host's box is ticked: the host is always ready
	checkSlots(t, img, lay, shown)
	checkPreview(t, img, s, l)
	if s.v.start != "" {
		t.Errorf("Start is held: %q", s.v.start)
	}
}

// pictureChanged fails unless the lobby's picture of the map differs
// between a and b in a twentieth of its pixels at least.
func (f *flow) pictureChanged(what string, a, b *image.RGBA) {
	f.t.Helper()
	r := f.h.a.lobby.lay.preview
	if d := differing(a, b, r); d < int(r.W()*r.H()/20) {
		f.t.Errorf("after %s: %d pixels of the map's picture changed", what, d)
	}
}

// differing counts the pixels of r that differ between a and b.
func differing(a, b *image.RGBA, r ui.Rect) int {
	n := 0
	for y := int(r.Min.Y); y < int(r.Max.Y); y++ {
		for x := int(r.Min.X); x < int(r.Max.X); x++ {
			if a.RGBAAt(x, y) != b.RGBAAt(x, y) {
				n++
			}
		}
	}
	return n
}

// startGame clicks Start and waits for the game on the map chosen.
func (f *flow) startGame() {
	t, a := f.t, f.h.a
	seed := f.lobby().MapSeed
	f.click(ui.MouseLeft, a.lobby.lay.start.Center())
	f.until("the game under way", 15*time.Second, func() bool {
		return a.screen == scrGame && a.game != nil && a.game.sc != nil && f.c.Status().Turn > 0
	})
	f.g = a.game
	var cfg game.Config
	var enemies bool
	f.view(func(w *game.World) { cfg, enemies = w.Config(), !w.Allied(0, 1) })
	if cfg.Seed != seed || len(cfg.Players) != 2 || !enemies {
		t.Errorf("a game of seed %d, %d players (enemies %v); want seed %d, 2 enemies", cfg.Seed, len(cfg.Players), enemies, seed)
	}
	if ms := f.c.Status().TurnMillis; ms != 30 {
		t.Errorf("turns of %d ms, want 30 (fast)", ms)
	}
	f.shot("game")
}

// onScreen returns where world point p is on the screen, first moving the
// camera there by a click on the minimap if it is not well inside the map.
func (f *flow) onScreen(p ui.Vec) ui.Vec {
	g := f.g.ui
	if !g.Layout.Map.Inset(60).Contains(g.Cam.ToScreen(p)) {
		f.click(ui.MouseLeft, g.Mini.ToScreen(p))
		f.frame(nil)
	}
	s := g.Cam.ToScreen(p)
	if !g.Layout.Map.Inset(20).Contains(s) {
		f.t.Fatalf("world point %v is at %v, off the map view %v", p, s, g.Layout.Map)
	}
	return s
}

func tileVec(p game.Point) ui.Vec {
	x, y := p.Tile()
	return ui.V(float64(x)+0.5, float64(y)+0.5)
}

// selectWorkers boxes the workers around the base.
func (f *flow) selectWorkers() game.UnitInfo {
	t, g := f.t, f.g
	bases := f.own(game.Base)
	if len(bases) != 1 {
		t.Fatalf("%d own bases", len(bases))
	}
	base, workers := bases[0], f.own(game.Worker)
	center := f.onScreen(tileVec(base.Pos))
	a, b := center.Add(ui.V(-150, -150)), center.Add(ui.V(150, 150))
	f.frame(func(in *ui.Input) { in.Mouse, in.Pressed[ui.MouseLeft], in.Down[ui.MouseLeft] = a, true, true })
	f.frame(func(in *ui.Input) { in.Mouse, in.Down[ui.MouseLeft] = a.Lerp(b, 0.5), true })
	f.frame(func(in *ui.Input) { in.Mouse, in.Released[ui.MouseLeft] = b, true })
	if got := len(g.ui.Sel.IDs); got != len(workers) || len(workers) == 0 {
		t.Fatalf("the box selected %d units, want the %d workers", got, len(workers))
	}
	f.shot("selected")
	return base
}

// mine right-clicks the gold nearest the base; the gold must rise.
func (f *flow) mine(base game.UnitInfo) {
	t := f.t
	bx, by := base.Pos.Tile()
	gx, gy, best := -1, -1, 1<<30
	f.view(func(w *game.World) {
		width, _ := w.Size()
		for i, g := range w.Gold() {
			x, y := i%width, i/width
			if d := (x-bx)*(x-bx) + (y-by)*(y-by); g > 0 && d < best {
				gx, gy, best = x, y, d
			}
		}
	})
	if gx < 0 {
		t.Fatal("no gold on the map")
	}
	before := f.gold()
	f.click(ui.MouseRight, f.onScreen(ui.V(float64(gx)+0.5, float64(gy)+0.5)))
	f.until("the gold to rise", 20*time.Second, func() bool { return f.gold() > before })
	img := f.shot("mining")
	textIn(t, img, "the top bar's gold", ui.R(0, 0, 400, ui.TopBarH), 100)
}

// buildBarracks presses the command card's Barracks button and places it
// on the free site nearest the base; it must be built in game time.
func (f *flow) buildBarracks(base game.UnitInfo) game.UnitInfo {
	t, g := f.t, f.g
	f.until("gold for a barracks", 20*time.Second, func() bool { return f.gold() >= game.Barracks.Stats().Cost })
	f.frame(nil)
	card := ui.Card(g.ui.Selected(), &g.ui.Keys)
	btn := -1
	for i, b := range card {
		if b.Action == ui.ActBuild && b.Kind == game.Barracks {
			btn = i
		}
	}
	if btn < 0 {
		t.Fatalf("the workers' card %+v has no barracks", card)
	}
	f.click(ui.MouseLeft, g.ui.Layout.Button(btn).Center())
	if g.ui.Mode != ui.ModePlace || g.ui.Place != game.Barracks {
		t.Fatalf("the Barracks button left the mode %v placing %v", g.ui.Mode, g.ui.Place)
	}
	x0, y0 := f.site(base)
	f.frame(nil)
	f.click(ui.MouseLeft, f.onScreen(ui.V(float64(x0)+1.5, float64(y0)+1.5)))
	f.until("the barracks placed", 20*time.Second, func() bool { return len(f.own(game.Barracks)) == 1 })
	f.shot("barracks-building")
	startedAt, done := f.clock(), f.own(game.Barracks)[0].Progress
	f.until("the barracks built", 40*time.Second, func() bool {
		b := f.own(game.Barracks)
		return len(b) == 1 && b[0].Built
	})
	if took, want := f.clock()-startedAt, int(game.Barracks.Stats().Time-done); took < want {
		t.Errorf("the barracks was built in %d ticks of game time, want %d", took, want)
	}
	b := f.own(game.Barracks)[0]
	if x, y := b.Pos.Tile(); x != x0+1 || y != y0+1 {
		t.Errorf("the barracks stands at tile %d,%d, placed at %d,%d", x, y, x0+1, y0+1)
	}
	f.shot("barracks-built")
	return b
}

// site is a free barracks site near the base, left clear around it.
func (f *flow) site(base game.UnitInfo) (x0, y0 int) {
	bx, by := base.Pos.Tile()
	found := false
	f.view(func(w *game.World) {
		for d := 5; d < 12 && !found; d++ {
			for _, c := range [][2]int{{bx - d, by - 1}, {bx + d - 2, by - 1}, {bx - 1, by + d - 2}, {bx - 1, by - d}} {
				if w.CanBuild(f.g.me, game.Barracks, c[0], c[1]) == game.ReasonNone {
					x0, y0, found = c[0], c[1], true
					break
				}
			}
		}
	})
	if !found {
		f.t.Fatal("no free barracks site near the base")
	}
	return x0, y0
}

// train clicks the barracks, then its Soldier button; a soldier must come out.
func (f *flow) train(b game.UnitInfo) {
	t, g := f.t, f.g
	f.click(ui.MouseLeft, f.onScreen(tileVec(b.Pos)))
	if ids := g.ui.Sel.IDs; len(ids) != 1 || ids[0] != b.ID {
		t.Fatalf("a click on the barracks selected %v, want %v", ids, b.ID)
	}
	f.until("gold for a soldier", 20*time.Second, func() bool { return f.gold() >= game.Soldier.Stats().Cost })
	f.frame(nil) // the card shows the selection of the last frame
	card := ui.Card(g.ui.Selected(), &g.ui.Keys)
	if card[0].Action != ui.ActTrain || card[0].Kind != game.Soldier {
		t.Fatalf("the barracks' first button is %+v, want Soldier", card[0])
	}
	before := f.gold()
	f.click(ui.MouseLeft, g.ui.Layout.Button(0).Center())
	f.until("the soldier queued", 5*time.Second, func() bool {
		q := f.own(game.Barracks)[0].Queue
		return len(q) == 1 && q[0] == game.Soldier
	})
	if f.gold() > before-game.Soldier.Stats().Cost+2*game.CarryGold {
		t.Errorf("gold %d → %d: the soldier was not paid for", before, f.gold())
	}
	f.shot("training")
	f.until("the soldier", 20*time.Second, func() bool { return len(f.own(game.Soldier)) == 1 })
	f.shot("trained")
}

// pauseAndResume: Escape pauses and opens the menu; Escape closes it and
// the overlay says who paused while the clock stands still. The menu's
// "Resume the game" counts down, then the clock moves.
func (f *flow) pauseAndResume() {
	t, g := f.t, f.g
	f.press(ui.KeyEscape)
	if !g.ui.MenuOpen {
		t.Fatal("Escape did not open the menu")
	}
	f.until("the pause", 5*time.Second, func() bool { return g.pause.Paused && g.pause.By == g.me && g.pause.Countdown == 0 })
	f.press(ui.KeyEscape)
	if g.ui.MenuOpen {
		t.Fatal("a second Escape did not close the menu")
	}
	at, turn := f.clock(), f.c.Status().Turn
	for range 20 {
		f.frame(nil)
	}
	if f.c.Status().Turn == turn || f.clock() != at {
		t.Errorf("paused: turn %d → %d (the turns go on), game time %d → %d (it must stand)", turn, f.c.Status().Turn, at, f.clock())
	}
	img := f.shot("paused")
	if got := g.pauseTitle(); got != "Paused by Ann" {
		t.Errorf("the pause title %q", got)
	}
	c0 := g.ui.Layout.Map.Center()
	if n := count(img, ui.XYWH(c0.X-80, c0.Y-92, 160, 30), like(rgb8(colAccent), 40)); n < 150 {
		t.Errorf("the pause title: %d accent pixels", n)
	}
	textIn(t, img, "who may resume", ui.XYWH(c0.X-120, c0.Y-50, 240, 22), 100)

	f.press(ui.KeyEscape)
	m := g.ui.Menu()
	if len(m) < 2 || m[1].Choice != ui.MenuUnpause {
		t.Fatalf("the menu while paused: %+v", m)
	}
	f.frame(nil)
	f.shot("paused-menu")
	f.click(ui.MouseLeft, g.ui.Layout.MenuButton(1).Center())
	f.until("the countdown", 5*time.Second, func() bool { return g.pause.Paused && g.pause.Countdown > 0 })
	img = f.shot("resuming")
	if n := count(img, ui.XYWH(c0.X-80, c0.Y-92, 160, 30), like(rgb8(colAccent), 40)); n < 150 {
		t.Errorf("the countdown title %q: %d accent pixels", g.pauseTitle(), n)
	}
	f.until("the clock to move again", 10*time.Second, func() bool { return !g.pause.Paused && f.clock() > at+10 })
	f.shot("resumed")
}

// quit opens the menu with F10 and picks Quit: the game is left and the
// window asked to close.
func (f *flow) quit() {
	t, g, a := f.t, f.g, f.h.a
	f.press(ui.KeyF10)
	if !g.ui.MenuOpen || g.pause.Paused {
		t.Fatalf("F10: menu open %v, paused %v; want the menu over the running game", g.ui.MenuOpen, g.pause.Paused)
	}
	f.frame(nil)
	img := f.shot("menu")
	quit := -1
	for i, it := range g.ui.Menu() {
		if it.Choice == ui.MenuQuit {
			quit = i
		}
	}
	if quit < 0 {
		t.Fatalf("the menu %+v has no Quit", g.ui.Menu())
	}
	textIn(t, img, "Quit", g.ui.Layout.MenuButton(quit), 100)
	f.click(ui.MouseLeft, g.ui.Layout.MenuButton(quit).Center())
	if a.Quit() || g.ui.Confirm != ui.MenuQuit {
		t.Fatalf("Quit in a running game: quit %v, asking %v; want the question first", a.Quit(), g.ui.Confirm)
	}
	f.frame(nil)
	img = f.shot("confirm-quit")
	box := g.ui.Layout.ConfirmBox()
	textIn(t, img, "Quit Hostfall?", ui.R(box.Min.X, box.Min.Y, box.Max.X, box.Min.Y+50), 100)
	f.click(ui.MouseLeft, g.ui.Layout.ConfirmButton(0).Center())
	if !a.Quit() { // what the window's loop (Run) stops on
		t.Fatal("Quit did not ask the window to close")
	}
	f.until("the game left", 5*time.Second, func() bool { _, in := f.c.Lobby(); return !in })
}
