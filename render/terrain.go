package render

import (
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/gopxl/pixel/v2"
	"github.com/gopxl/pixel/v2/backends/opengl"

	"hostfall/game"
	"hostfall/render/ui"
)

// maxTerrainTexture bounds the terrain texture's side: 16 texels a tile up
// to 128-tile maps, fewer on bigger maps.
const maxTerrainTexture = 2048

// terrainView holds the textures the map is drawn from: the terrain at
// several texels a tile, the fog (one texel a tile, drawn smoothed) and the
// minimap (one texel a tile, terrain and fog together). They are updated
// when a turn changes them, never per frame.
type terrainView struct {
	w, h     int
	texel    int // texels a tile in the terrain texture
	tiles    []game.Terrain
	img      *image.RGBA
	terrain  *opengl.Canvas
	fog      *opengl.Canvas
	mini     *opengl.Canvas
	fogPix   []uint8
	miniBase []uint8 // minimap of terrain under fog, bottom-up rows
	miniPix  []uint8 // miniBase with the units' dots
	vis      []game.Visibility
	hidden   []bool // unexplored with all its neighbours: drawn black, nothing to draw
	clear    []bool // visible with all its neighbours: no fog to draw
	turn     int
	miniTurn int
}

func newTerrainView(w, h int) *terrainView {
	t := &terrainView{w: w, h: h, turn: -1, miniTurn: -1}
	t.texel = max(1, min(16, maxTerrainTexture/max(w, h)))
	t.img = image.NewRGBA(image.Rect(0, 0, w*t.texel, h*t.texel))
	t.terrain = opengl.NewCanvas(pixel.R(0, 0, float64(w*t.texel), float64(h*t.texel)))
	t.fog = opengl.NewCanvas(pixel.R(0, 0, float64(w), float64(h)))
	t.mini = opengl.NewCanvas(pixel.R(0, 0, float64(w), float64(h)))
	t.fogPix = make([]uint8, w*h*4)
	t.miniBase = make([]uint8, w*h*4)
	t.miniPix = make([]uint8, w*h*4)
	t.vis = make([]game.Visibility, w*h)
	t.hidden = make([]bool, w*h)
	t.clear = make([]bool, w*h)
	return t
}

// update refreshes the textures from the world (under its read lock) when
// the turn changed. Observers see no fog.
func (t *terrainView) update(w *game.World, me game.PlayerID, observer bool) {
	if w.Turn() == t.turn {
		return
	}
	t.turn = w.Turn()
	if tiles := w.Terrain(); !slices.Equal(tiles, t.tiles) {
		t.paintTerrain(tiles)
	}
	fog := w.Fog(me)
	for y := range t.h {
		for x := range t.w {
			v := game.Visible
			if !observer {
				v = fog.At(x, y)
			}
			t.vis[y*t.w+x] = v
		}
	}
	t.paintFog()
	t.neighbourhoods()
}

// neighbourhoods marks the tiles whose 3×3 neighbourhood is all unexplored
// (hidden) or all visible (clear).
func (t *terrainView) neighbourhoods() {
	for y := range t.h {
		for x := range t.w {
			allHidden, allSeen := true, true
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					xx, yy := x+dx, y+dy
					if xx < 0 || yy < 0 || xx >= t.w || yy >= t.h {
						continue
					}
					switch t.vis[yy*t.w+xx] {
					case game.Unexplored:
						allSeen = false
					case game.Visible:
						allHidden = false
					default:
						allHidden, allSeen = false, false
					}
				}
			}
			t.hidden[y*t.w+x], t.clear[y*t.w+x] = allHidden, allSeen
		}
	}
}

// minimap draws the units' dots over the minimap of terrain and fog and
// uploads it, once a turn (the minimap does not need frame-rate motion).
func (t *terrainView) minimap(sc *ui.Scene, colors *[game.MaxPlayers]uint8) {
	if sc.Turn == t.miniTurn {
		return
	}
	t.miniTurn = sc.Turn
	copy(t.miniPix, t.miniBase)
	for i := range sc.Units {
		u := &sc.Units[i]
		c := PlayerColors[colors[u.Owner%game.MaxPlayers]%8]
		if !u.Building { // 2×2 tiles, so a unit shows on a small minimap
			x, y := int(u.Pos.X), int(u.Pos.Y)
			t.dot(x, y, c)
			t.dot(x+1, y, c)
			t.dot(x, y+1, c)
			t.dot(x+1, y+1, c)
			continue
		}
		h := int(u.Size) / 2
		for dy := -h; dy <= h; dy++ {
			for dx := -h; dx <= h; dx++ {
				t.dot(int(u.Pos.X)+dx, int(u.Pos.Y)+dy, c)
			}
		}
	}
	t.mini.SetPixels(t.miniPix)
}

func (t *terrainView) dot(x, y int, c [3]uint8) {
	if x < 0 || y < 0 || x >= t.w || y >= t.h {
		return
	}
	o := ((t.h-1-y)*t.w + x) * 4
	t.miniPix[o], t.miniPix[o+1], t.miniPix[o+2], t.miniPix[o+3] = c[0], c[1], c[2], 255
}

// paintTerrain draws the changed tiles into the terrain image and uploads it.
func (t *terrainView) paintTerrain(tiles []game.Terrain) {
	first := t.tiles == nil
	for i, k := range tiles {
		if !first && t.tiles[i] == k {
			continue
		}
		t.paintTile(tiles, i%t.w, i/t.w)
		if !first { // a neighbour's edges depend on this tile
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				if x, y := i%t.w+d[0], i/t.w+d[1]; x >= 0 && y >= 0 && x < t.w && y < t.h {
					t.paintTile(tiles, x, y)
				}
			}
		}
	}
	t.tiles = append(t.tiles[:0], tiles...)
	t.terrain.SetPixels(flipRows(t.img.Pix, t.img.Stride))
}

// flipRows returns the rows of an image bottom-up, as OpenGL wants them.
func flipRows(pix []uint8, stride int) []uint8 {
	out := make([]uint8, len(pix))
	rows := len(pix) / stride
	for y := range rows {
		copy(out[(rows-1-y)*stride:(rows-y)*stride], pix[y*stride:(y+1)*stride])
	}
	return out
}

var (
	minimapColors = [...]color.RGBA{
		game.Grass:     {70, 118, 56, 255},
		game.Rock:      {112, 108, 102, 255},
		game.Water:     {40, 84, 150, 255},
		game.GoldField: {226, 184, 48, 255},
	}
)

// paintFog fills the fog and minimap textures from t.vis and uploads them.
func (t *terrainView) paintFog() {
	for y := range t.h {
		row := t.h - 1 - y // bottom-up
		for x := range t.w {
			v := t.vis[y*t.w+x]
			o := (row*t.w + x) * 4
			a := uint8(0)
			switch v {
			case game.Unexplored:
				a = 255
			case game.Explored:
				a = 140
			}
			t.fogPix[o], t.fogPix[o+1], t.fogPix[o+2], t.fogPix[o+3] = 0, 0, 0, a
			c := minimapColors[min(int(t.tiles[y*t.w+x]), len(minimapColors)-1)]
			f := 1.0
			switch v {
			case game.Unexplored:
				f = 0
			case game.Explored:
				f = 0.5
			}
			t.miniBase[o], t.miniBase[o+1], t.miniBase[o+2], t.miniBase[o+3] = uint8(float64(c.R)*f), uint8(float64(c.G)*f), uint8(float64(c.B)*f), 255
		}
	}
	t.fog.SetPixels(t.fogPix)
	t.miniTurn = -1 // the minimap needs redrawing
}

// paintTile draws tile (x, y) into the terrain image: per-texel noise from
// a hash of its world position (so no two tiles repeat), darker edges where
// an obstacle meets open ground, a sandy rim on shores.
func (t *terrainView) paintTile(tiles []game.Terrain, x, y int) {
	n := t.texel
	k := tiles[y*t.w+x]
	at := func(dx, dy int) game.Terrain {
		xx, yy := x+dx, y+dy
		if xx < 0 || yy < 0 || xx >= t.w || yy >= t.h {
			return k
		}
		return tiles[yy*t.w+xx]
	}
	left, right, up, down := at(-1, 0) != k, at(1, 0) != k, at(0, -1) != k, at(0, 1) != k
	edge := max(1, n/8)
	for j := range n {
		for i := range n {
			gx, gy := x*n+i, y*n+j
			c := texel(k, gx, gy, n)
			near := func(b bool, d int) bool { return b && d < edge }
			switch k {
			case game.Rock, game.GoldField:
				switch {
				case near(down, n-1-j), near(right, n-1-i):
					c = shade(c, 0.62)
				case near(up, j), near(left, i):
					c = shade(c, 1.22)
				}
			case game.Water:
				if near(up, j) || near(down, n-1-j) || near(left, i) || near(right, n-1-i) {
					c = color.RGBA{196, 182, 132, 255}
				}
			}
			t.img.SetRGBA(gx, gy, c)
		}
	}
}

// texel is the colour of terrain k at texel (gx, gy) of the whole map.
func texel(k game.Terrain, gx, gy, n int) color.RGBA {
	h := hash2(gx, gy)
	patch := valueNoise(float64(gx)/float64(n*3), float64(gy)/float64(n*3))
	switch k {
	case game.Rock:
		v := 0.82 + 0.3*valueNoise(float64(gx)/4, float64(gy)/4) + 0.06*h
		return shade(color.RGBA{118, 112, 106, 255}, v)
	case game.Water:
		wave := math.Sin(float64(gx)*0.35+float64(gy)*0.9+3*patch) > 0.93
		if wave {
			return color.RGBA{92, 150, 210, 255}
		}
		return shade(color.RGBA{40, 90, 158, 255}, 0.92+0.16*patch)
	case game.GoldField:
		if valueNoise(float64(gx)/2.5+7, float64(gy)/2.5+3) > 0.62 {
			if h > 0.75 {
				return color.RGBA{255, 240, 150, 255}
			}
			return shade(color.RGBA{232, 184, 40, 255}, 0.85+0.25*h)
		}
		return shade(color.RGBA{104, 88, 62, 255}, 0.85+0.3*h)
	}
	// Grass: broad patches, a little grain, sparse blades and specks.
	fine := valueNoise(float64(gx)/2, float64(gy)/2)
	v := 0.86 + 0.22*patch + 0.05*fine
	c := shade(color.RGBA{74, 126, 58, 255}, v)
	switch {
	case h > 0.985:
		c = shade(color.RGBA{118, 170, 82, 255}, v)
	case h < 0.012:
		c = shade(color.RGBA{56, 96, 44, 255}, v)
	}
	return c
}

// hash2 is a fixed integer hash of a texel position, in [0, 1).
func hash2(x, y int) float64 {
	h := uint32(x)*0x9E3779B1 ^ uint32(y)*0x85EBCA77
	h ^= h >> 15
	h *= 0x2C1B3C6D
	h ^= h >> 12
	h *= 0x297A2D39
	h ^= h >> 15
	return float64(h) / (1 << 32)
}

// valueNoise is smooth noise in [0, 1): hashes on a grid, blended.
func valueNoise(x, y float64) float64 {
	x0, y0 := math.Floor(x), math.Floor(y)
	fx, fy := x-x0, y-y0
	fx, fy = fx*fx*(3-2*fx), fy*fy*(3-2*fy)
	ix, iy := int(x0), int(y0)
	a, b := hash2(ix, iy), hash2(ix+1, iy)
	c, d := hash2(ix, iy+1), hash2(ix+1, iy+1)
	return (a*(1-fx)+b*fx)*(1-fy) + (c*(1-fx)+d*fx)*fy
}
