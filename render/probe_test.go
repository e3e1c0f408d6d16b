package render

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/gopxl/pixel/v2"

	"hostfall/game"
	"hostfall/render/client"
	"hostfall/render/fake"
	"hostfall/render/ui"
	"hostfall/session"
)

func TestProbeParts(t *testing.T) {
	w := testWindow(t)
	world, _ := game.NewWorld(game.FreeForAll(7, 4))
	c := fake.New()
	l := fake.Lobby("bench", 4)
	l.State = session.StatePlaying
	c.SetLobby(l, 0)
	c.SetGame(world, time.Now(), make([]client.Player, 4), 0)
	a, _ := NewApp(w, 1024, 768, c, Options{})
	in := ui.Input{Now: time.Now(), Mouse: ui.V(-100, -100)}
	a.Frame(in)
	w.Update()
	g := a.game
	N := 2000
	if v := os.Getenv("PROBE_N"); v != "" {
		fmt.Sscan(v, &N)
	}
	cam := &g.ui.Cam
	cam.LookAt(ui.V(64, 64))
	for cam.Zoom > cam.MinZoomLimit() && area(cam.Visible())*0.8 < float64(N) {
		cam.ZoomAt(cam.View.Center(), 0.9)
	}
	sc, _ := benchScene(cam.Visible(), N)
	c.View(func(wd *game.World, _ time.Time) {
		g.ui.Sel.Set([]game.UnitID{sc.Units[0].ID})
		g.ui.Update(&in, sc, wd)
		g.observer, g.tv.turn = true, -1
		g.tv.update(wd, 0, true)
	})
	g.sc = sc
	parts := map[string]func(){
		"empty":   func() {},
		"terrain": func() { g.drawTerrain(); g.terrainL.draw(a.t) },
		"units":   func() { g.drawUnits(sc); g.worldL.draw(a.t) },
		"hud":     func() { g.drawHUD(); a.hud.draw(a.t); g.miniL.draw(a.t); a.top.draw(a.t); for _, t := range a.text { t.draw(a.t) } },
		"all":     func() { g.draw(); a.flush() },
	}
	names := []string{"empty", "terrain", "units", "hud", "all"}
	sum := map[string]time.Duration{}
	const rounds, per = 8, 8
	for range rounds {
		for _, n := range names {
			fn := parts[n]
			start := time.Now()
			for range per {
				w.Clear(pixel.RGBA{A: 1})
				for _, l := range a.allLayers() {
					l.begin(a.h)
				}
				fn()
				w.Update()
			}
			sum[n] += time.Since(start)
		}
	}
	for _, n := range names {
		fmt.Printf("%-8s %6.2f ms\n", n, float64(sum[n])/rounds/per/1e6)
	}
}
