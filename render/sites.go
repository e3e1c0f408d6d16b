package render

import (
	"github.com/gopxl/pixel/v2"

	"hostfall/game"
	"hostfall/render/ui"
)

// site is a building the player's worker walks to put up: the game has
// taken its gold but nothing stands there yet, so the screen marks it.
type site struct {
	kind   game.Kind
	x0, y0 int // top-left tile
}

// maxSites bounds the marks (and the world reads) of one frame.
const maxSites = 32

// readSites takes the sites of the player's workers on their way to build
// (under the world's lock, like readSelection).
func (g *gameScreen) readSites(w *game.World) {
	g.sites = g.sites[:0]
	for i := range g.sc.Units {
		u := &g.sc.Units[i]
		if !u.Own || u.Building || u.Order != game.OrderBuild || len(g.sites) == maxSites {
			continue
		}
		if info, ok := w.Unit(u.ID); ok && info.Building != game.KindNone {
			g.sites = append(g.sites, site{kind: info.Building, x0: info.Goal[0], y0: info.Goal[1]})
		}
	}
}

// drawSites draws each site as a faint outline of its building.
func (g *gameScreen) drawSites(l *layer) {
	cam := &g.ui.Cam
	for _, s := range g.sites {
		size := float64(s.kind.Stats().Size)
		r := ui.Rect{Min: cam.ToScreen(ui.V(float64(s.x0), float64(s.y0))),
			Max: cam.ToScreen(ui.V(float64(s.x0)+size, float64(s.y0)+size))}
		l.sprite(r, buildingSprite(s.kind, g.colors[g.me%game.MaxPlayers]), pixel.Alpha(0.35))
		l.outline(r, 1, rgba(255, 255, 255, 0.5))
	}
}
