package render

import (
	"bytes"
	"image/color"
	"log/slog"
	"testing"
	"time"

	"hostfall/client/fake"
	"hostfall/client/playback"
	"hostfall/game"
	"hostfall/render/ui"
	"hostfall/session/replay"
)

// replayTurns is the length of the recorded test game; the shots look at
// turn replayAt of it.
const (
	replayTurns = 1200
	replayAt    = 900
)

// replayHarness records a bot game of four players on seed 7, opens it in
// the replay viewer paused at turn replayAt, following game player follow
// (-1: everyone).
func replayHarness(t *testing.T, follow int, damage func(r *replay.Replay)) (*harness, *playback.Client) {
	t.Helper()
	data, err := fake.Replay(7, 4, 96, replayTurns)
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if damage != nil {
		damage(r)
	}
	c, err := playback.New(r, playback.Options{Paused: true, Follow: follow + 1, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.Seek(float64(replayAt) / replayTurns)
	a, err := NewApp(testWindow(t), 1024, 768, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, a: a, now: t0}, c
}

// dark matches unexplored land and fog: nearly black.
func dark(c color.RGBA) bool { return int(c.R)+int(c.G)+int(c.B) < 60 }

func TestShotReplay(t *testing.T) {
	const follow = 2 // green
	h, c := replayHarness(t, follow, nil)
	h.frame(nil)
	g := h.a.game
	if g == nil || g.rp == nil || !g.ui.Spectator {
		t.Fatal("the replay did not open as a spectator's game screen")
	}
	h.frame(func(in *ui.Input) { in.Press(ui.KeyPlus) })
	h.frame(func(in *ui.Input) { in.Press(ui.KeyPlus) })
	for range 150 { // the camera glides to the army
		h.frame(nil)
	}
	img := h.shot("replay")

	st := c.Replay()
	if st.Turn != replayAt || st.Speed != 4 || !st.Paused || st.Problem != "" {
		t.Fatalf("replay status %+v: want paused at turn %d, speed 4", st, replayAt)
	}
	if me, ok := g.rp.ctl.Me(); !ok || me != follow || g.observer {
		t.Fatalf("the screen shows player %d (%v, observer %v), want %d with fog", me, ok, g.observer, follow)
	}
	// The camera is on the followed army.
	army, _ := ui.ArmyCenter(g.sc, follow)
	if !g.ui.Cam.Visible().Inset(2).Contains(army) {
		t.Errorf("camera at %v, the army at %v", g.ui.Cam.Center, army)
	}

	// Units of the followed player's colour where the camera puts them.
	green := PlayerColors[follow]
	checked := len(unitsIn(t, img, g, green, func(u *ui.Unit, r ui.Rect) bool {
		return u.Owner == follow && !r.Intersects(g.rp.ctl.Layout.Players)
	}))
	if checked < 5 {
		t.Fatalf("only %d units of the followed player on screen", checked)
	}

	// The controls: REPLAY, the state and the speed, the progress bar three
	// quarters full, the turn line, the buttons' labels.
	l := g.rp.ctl.Layout
	if n := count(img, ui.XYWH(l.Bar.Min.X, l.Bar.Min.Y, 70, 20), like(rgb8(colAccent), 40)); n < 60 {
		t.Errorf("REPLAY title: %d accent pixels", n)
	}
	textIn(t, img, "speed 4×", ui.XYWH(l.Bar.Min.X+40, l.Bar.Min.Y+24, 40, 22), 25)
	fill := count(img, l.Progress.Inset(2), like(rgb8(colAccent), 30))
	if full := int((l.Progress.W() - 4) * (l.Progress.H() - 4)); fill < full*70/100 || fill > full*80/100 {
		t.Errorf("progress bar: %d of %d pixels filled, want three quarters", fill, full)
	}
	textIn(t, img, "turn line", ui.XYWH(l.Bar.Min.X, l.Progress.Max.Y+4, l.Bar.W(), 16), 120)
	for _, b := range []ui.Rect{l.Slower, l.Pause, l.Faster} {
		textIn(t, img, "button label", ui.R(b.Min.X, b.Max.Y-20, b.Max.X, b.Max.Y-2), 30)
	}
	// The player list marks the followed player.
	row := l.PlayerRow(follow + 1)
	if n := count(img, ui.R(row.Min.X, row.Min.Y, row.Max.X, row.Min.Y+1), like(rgb8(colAccent), 30)); n < int(row.W())-4 {
		t.Errorf("followed row: %d accent pixels on its top edge", n)
	}
	if n := count(img, ui.XYWH(row.Min.X+22, row.Min.Y+5, 14, 14), like(green, 6)); n < 100 {
		t.Errorf("followed row swatch: %d green pixels", n)
	}

	// Fog: with the followed player's eyes much of the minimap is dark;
	// with everyone's (0), none is, and the other players' units show.
	mini := g.ui.Mini.Area()
	fogged := count(img, mini, dark)
	h.frame(func(in *ui.Input) { in.Press(ui.Key0) })
	h.frame(nil)
	all := h.shot("replay-all")
	clear := count(all, mini, dark)
	if fogged < int(mini.W()*mini.H())/10 || clear > fogged/10 {
		t.Errorf("minimap dark pixels: %d following a player, %d seeing everyone; want fog only in the first", fogged, clear)
	}
	if !g.observer || g.rp.ctl.Follow != -1 {
		t.Errorf("0 did not show every player (observer %v, follow %d)", g.observer, g.rp.ctl.Follow)
	}
	owners := map[game.PlayerID]bool{}
	for _, u := range g.sc.Units {
		owners[u.Owner] = true
	}
	if len(owners) != 4 {
		t.Errorf("seeing everyone, the scene holds units of %d players, want 4", len(owners))
	}
	win.Update()
}

func TestShotReplayEndAndProblem(t *testing.T) {
	h, c := replayHarness(t, -1, func(r *replay.Replay) { r.Hashes[3].Hash ^= 1 })
	h.frame(nil)
	h.frame(nil)
	img := h.shot("replay-problem")
	g := h.a.game
	lay := g.ui.Layout
	box := ui.XYWH(lay.Map.Min.X+8, lay.Map.Min.Y+8, 200, 24)
	if n := count(img, box, like(rgb8(colBad), 30)); n < 100 {
		t.Errorf("problem box: %d red pixels in %v", n, box)
	}
	textIn(t, img, "problem text", ui.XYWH(lay.Map.Min.X+16, lay.Map.Min.Y+36, 400, 30), 300)

	c.Seek(1)
	h.frame(nil)
	h.frame(nil)
	img = h.shot("replay-end")
	if st := c.Replay(); !st.Over || st.Turn != replayTurns {
		t.Fatalf("status %+v, want the end", st)
	}
	if n := count(img, ui.R(1024/2-220, 768*0.18, 1024/2+220, 768*0.18+70), like(rgb8(colAccent), 30)); n < 500 {
		t.Errorf("Replay over title: %d pixels of its colour", n)
	}
	textIn(t, img, "outcome line", ui.R(1024/2-300, 768*0.18+84, 1024/2+300, 768*0.18+110), 200)
	// Close the replay: the window quits.
	y := 768*0.18 + 130 + 30 + 4*30 + 30 // under the table of four players
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, ui.V(1024/2+95+20+95, y+20)) })
	if !h.a.Quit() {
		t.Error("Close the replay did not quit")
	}
	win.Update()
}

// The window plays a running replay: turns go on while frames are drawn,
// Space pauses and the menu's "Watch from the start" starts over.
func TestReplayPlaysInTheWindow(t *testing.T) {
	data, err := fake.Replay(3, 2, 64, 400)
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c, err := playback.New(r, playback.Options{Follow: 1, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetSpeed(playback.MaxSpeed)
	a, err := NewApp(testWindow(t), 1024, 768, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, a: a, now: t0}
	h.frame(nil)
	for i := 0; i < 2000 && c.Replay().Turn < 40; i++ {
		h.frame(nil)
		win.Update()
		time.Sleep(time.Millisecond)
	}
	if c.Replay().Turn < 40 {
		t.Fatalf("the replay is at turn %d after 2,000 frames", c.Replay().Turn)
	}
	if a.game.rp.ctl.SpeedFactor() != playback.MaxSpeed || c.Replay().Speed != playback.MaxSpeed {
		t.Errorf("speed: controls %v, client %v; want the client's %v kept", a.game.rp.ctl.SpeedFactor(), c.Replay().Speed, playback.MaxSpeed)
	}
	h.frame(func(in *ui.Input) { in.Press(ui.KeySpace) })
	if !c.Replay().Paused {
		t.Fatal("Space did not pause the replay")
	}
	h.frame(func(in *ui.Input) { in.Press(ui.KeyEscape) })
	h.frame(func(in *ui.Input) { in.Click(ui.MouseLeft, a.game.ui.Layout.MenuButton(1).Center()) })
	if st := c.Replay(); st.Turn != 0 || !st.Paused || a.game.ui.MenuOpen {
		t.Fatalf("after Watch from the start: %+v, menu open %v", st, a.game.ui.MenuOpen)
	}
	win.Update()
}

// The replay opens on a base when it shows everyone (play-test: on the
// empty map centre), and the wheel zooms toward the pointer even while the
// camera follows an army: the point under the pointer stays under it.
func TestReplayCamera(t *testing.T) {
	h, _ := replayHarness(t, -1, nil)
	h.frame(nil)
	g := h.a.game
	var start ui.Vec
	h.a.cl.View(func(w *game.World, _ time.Time) { start = ui.WorldPos(w.Starts()[0]) })
	if d := g.ui.Cam.Center.Sub(start).Len(); d > 12 {
		t.Fatalf("everyone's replay opened at %v, %.1f tiles from player 1's base at %v", g.ui.Cam.Center, d, start)
	}

	h, _ = replayHarness(t, 1, nil)
	h.frame(nil)
	for range 30 {
		h.frame(nil)
	}
	g = h.a.game
	p := g.ui.Layout.Map.Min.Add(ui.V(120, 100))
	under := g.ui.Cam.ToWorld(p)
	h.frame(func(in *ui.Input) { in.Mouse, in.Scroll = p, 2 })
	for range 30 {
		h.frame(func(in *ui.Input) { in.Mouse = p })
	}
	if d := g.ui.Cam.ToWorld(p).Sub(under).Len(); d > 0.5 {
		t.Fatalf("after the wheel, %v is under the pointer, %.2f tiles from %v", g.ui.Cam.ToWorld(p), d, under)
	}
}
