package render

import (
	"log/slog"

	"hostfall/game"
	"hostfall/render/ui"
	"hostfall/session"
)

// mapPreview is the lobby's picture of the map a lobby makes: the terrain
// at up to previewCells cells a side, and the players' starts. The game
// makes the map from the seed, the size and the number of players, so the
// picture is made again (in the update step) only when one of them changes.
type mapPreview struct {
	seed          uint64
	size, players int
	n             int            // cells a side (0: no picture)
	cells         []game.Terrain // n×n, what each cell shows
	starts        []ui.Vec       // the players' starts, as fractions of the map's side
}

// previewCells bounds the picture's cells a side: a 256-tile map shows
// 4×4 tiles a cell, drawn as runs of equal cells (a few hundred rectangles).
const previewCells = 64

// update makes the picture of the map of seed, size and players, unless
// it shows that map already.
func (p *mapPreview) update(seed uint64, size, players int) {
	if p.n > 0 && p.seed == seed && p.size == size && p.players == players {
		return
	}
	p.seed, p.size, p.players, p.n = seed, size, players, 0
	cfg := game.FreeForAll(seed, players) // the map does not depend on the teams
	cfg.Width, cfg.Height = size, size
	w, err := game.NewWorld(cfg)
	if err != nil {
		slog.Warn("lobby: no map preview", "seed", seed, "size", size, "players", players, "err", err)
		return
	}
	p.n = min(size, previewCells)
	p.cells = p.cells[:0]
	tiles := w.Terrain()
	for cy := range p.n {
		for cx := range p.n {
			p.cells = append(p.cells, cellTerrain(tiles, size, cx*size/p.n, cy*size/p.n, (cx+1)*size/p.n, (cy+1)*size/p.n))
		}
	}
	p.starts = p.starts[:0]
	for _, s := range w.Starts() {
		x, y := s.Tile()
		p.starts = append(p.starts, ui.V((float64(x)+0.5)/float64(size), (float64(y)+0.5)/float64(size)))
	}
}

// cellTerrain is what a cell of tiles [x0, x1)×[y0, y1) of a size-wide map
// shows: gold if it has any (fields are small and matter), else the
// terrain most of its tiles have.
func cellTerrain(tiles []game.Terrain, size, x0, y0, x1, y1 int) game.Terrain {
	var n [game.GoldField + 1]int
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			if k := tiles[y*size+x]; int(k) < len(n) {
				n[k]++
			}
		}
	}
	if n[game.GoldField] > 0 {
		return game.GoldField
	}
	best := game.Grass
	for k := range n {
		if n[k] > n[best] {
			best = game.Terrain(k)
		}
	}
	return best
}

// draw draws the picture into r: runs of equal cells as one rectangle, a
// marker in the player's colour on each start (players in slot order, as
// the game numbers them; a start nobody takes yet is grey).
func (p *mapPreview) draw(l *layer, r ui.Rect, lobby *session.Lobby) {
	l.rect(r, colBg)
	if p.n > 0 {
		c := r.W() / float64(p.n)
		for y := range p.n {
			row := p.cells[y*p.n : (y+1)*p.n]
			for x := 0; x < p.n; {
				end := x + 1
				for end < p.n && row[end] == row[x] {
					end++
				}
				mc := minimapColors[min(int(row[x]), len(minimapColors)-1)]
				l.rect(ui.R(r.Min.X+float64(x)*c, r.Min.Y+float64(y)*c, r.Min.X+float64(end)*c, r.Min.Y+float64(y+1)*c), rgb(mc.R, mc.G, mc.B))
				x = end
			}
		}
		colors := startColors(lobby)
		for i, s := range p.starts {
			at := ui.V(r.Min.X+s.X*r.W(), r.Min.Y+s.Y*r.H())
			m := ui.XYWH(at.X-4, at.Y-4, 8, 8)
			l.rect(m.Inset(-1), rgb(10, 10, 14))
			if i < len(colors) {
				l.rect(m, playerRGBA(colors[i]))
			} else {
				l.rect(m, colDim)
			}
		}
	}
	l.outline(r, 1, colBorder)
}

// startColors are the colours of lobby's players in slot order.
func startColors(l *session.Lobby) []uint8 {
	var cs []uint8
	for _, s := range l.Slots {
		if s.HoldsPlayer() {
			cs = append(cs, s.Color)
		}
	}
	return cs
}
