package render

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/gopxl/pixel/v2"

	"hostfall/client"
	"hostfall/client/fake"
	"hostfall/game"
	"hostfall/render/ui"
	"hostfall/session"
)

// BenchmarkRender measures whole game frames at 1024×768 (terrain, units,
// fog, HUD, minimap, text, then the buffer swap) with n units on screen,
// under whatever OpenGL the display has (Mesa llvmpipe under the test's own
// Xvfb). A game cannot be given 10,000 units on demand, so the world is a
// real 128×128 map and the scene drawn is synthetic: n units of four
// players on distinct tiles in view, moving a little every frame, a quarter
// of them hurt (health bars), 50 selected (rings, portraits), no fog (an
// observer's view; fog only ever removes work). Reported:
// fps (frames a second) and p99-ms (99th percentile frame time); at least
// 120 frames are timed whatever -benchtime says.
func BenchmarkRender(b *testing.B) {
	for _, n := range []int{200, 2000, 10000} {
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) { benchRender(b, n) })
	}
}

func benchRender(b *testing.B, n int) {
	w := testWindow(b)
	world, err := game.NewWorld(game.FreeForAll(7, 4))
	if err != nil {
		b.Fatal(err)
	}
	c := fake.New()
	l := fake.Lobby("bench", 4)
	l.State = session.StatePlaying
	c.SetLobby(l, 0)
	players := make([]client.Player, 4)
	for i := range players {
		players[i] = client.Player{Name: fmt.Sprintf("P%d", i+1), Color: uint8(i)}
	}
	c.SetGame(world, time.Now(), players, 0)
	a, err := NewApp(w, 1024, 768, c, Options{})
	if err != nil {
		b.Fatal(err)
	}
	in := ui.Input{Now: time.Now(), Mouse: ui.V(-100, -100)}
	a.Frame(in)
	w.Update()
	g := a.game
	cam := &g.ui.Cam
	// Zoom out until n units fit on distinct tiles in view.
	cam.LookAt(ui.V(64, 64))
	for cam.Zoom > cam.MinZoomLimit() && area(cam.Visible())*0.8 < float64(n) {
		cam.ZoomAt(cam.View.Center(), 0.9)
	}
	sc, base := benchScene(cam.Visible(), n)
	ids := make([]game.UnitID, 0, 50)
	for i := 0; i < n && len(ids) < 50; i += max(1, n/50) {
		ids = append(ids, sc.Units[i].ID)
	}
	g.ui.Sel.Set(ids)
	c.View(func(wd *game.World, _ time.Time) {
		g.ui.Update(&in, sc, wd)
		g.observer, g.tv.turn = true, -1 // a battle in plain sight: no fog
		g.tv.update(wd, 0, true)
	})

	frame := func(k int) time.Duration {
		start := time.Now()
		sc.Turn = k / 3 // turns at 20 a second, frames at 60
		for i := range sc.Units {
			u := &sc.Units[i]
			f := float64(k)*0.15 + float64(i)
			u.Pos = base[i].Add(ui.V(0.3*math.Sin(f), 0.3*math.Cos(f)))
		}
		w.Clear(pixel.RGBA{A: 1})
		for _, l := range a.allLayers() {
			l.begin(a.h)
		}
		g.sc = sc
		g.draw()
		a.flush()
		w.Update()
		return time.Since(start)
	}
	var times []time.Duration
	k := 0
	for b.Loop() {
		times = append(times, frame(k))
		k++
	}
	b.StopTimer()
	for len(times) < 120 {
		times = append(times, frame(k))
		k++
	}
	var total time.Duration
	for _, t := range times {
		total += t
	}
	slices.Sort(times)
	p99 := times[min(len(times)-1, int(math.Ceil(0.99*float64(len(times))))-1)]
	b.ReportMetric(float64(len(times))/total.Seconds(), "fps")
	b.ReportMetric(float64(p99)/float64(time.Millisecond), "p99-ms")
	b.ReportMetric(cam.Zoom, "px/tile")
}

func area(r ui.Rect) float64 { return math.Floor(r.W()) * math.Floor(r.H()) }

// benchScene puts n units of four players on distinct tiles of view, spread
// evenly over it.
func benchScene(view ui.Rect, n int) (*ui.Scene, []ui.Vec) {
	x0, y0 := int(math.Ceil(view.Min.X)), int(math.Ceil(view.Min.Y))
	cols, rows := int(view.W())-1, int(view.H())-1
	cells := cols * rows
	sc := &ui.Scene{MapW: 128, MapH: 128}
	base := make([]ui.Vec, 0, n)
	kinds := []game.Kind{game.Worker, game.Soldier, game.Archer}
	for i := range n {
		cell := i * cells / n
		x, y := x0+cell%cols, y0+cell/cols
		k := kinds[i%3]
		hp := k.Stats().HP
		if i%4 == 0 {
			hp = hp * 2 / 5
		}
		owner := game.PlayerID(i % 4)
		u := ui.Unit{ID: game.UnitID(1<<16 | i), Kind: k, Owner: owner, Pos: ui.V(float64(x)+0.5, float64(y)+0.5),
			HP: hp, MaxHP: k.Stats().HP, Size: 1, Built: true, Own: owner == 0, Ally: owner == 0}
		sc.Units = append(sc.Units, u)
		base = append(base, u.Pos)
	}
	sc.Index()
	return sc, base
}
