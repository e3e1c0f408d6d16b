package render

import (
	"image"
	"image/color"

	"hostfall/game"
)

// The sprites are drawn by code at start-up: small pixel art, one copy per
// player colour, so every unit is one quad with no tinting pass. The atlas
// is 512×512; unitSprite and friends say where each piece is.
const (
	atlasSize = 512
	unitPx    = 16 // a unit's sprite, one tile
	bldPx     = 48 // a building's sprite, three tiles
	unitRow0  = 16 // y of the first row of unit sprites
	bldRow0   = 64 // y of the first row of building sprites
	iconRow   = 160
)

// unitSprite returns the atlas region of unit kind k in colour c.
func unitSprite(k game.Kind, c uint8) image.Rectangle {
	row, x0 := 0, 0
	switch k {
	case game.Soldier:
		row = 1
	case game.Archer:
		row = 2
	case game.Catapult:
		x0 = 8 * unitPx // beside the workers
	}
	x, y := x0+int(c%8)*unitPx, unitRow0+row*unitPx
	return image.Rect(x, y, x+unitPx, y+unitPx)
}

// buildingSprite returns the atlas region of building kind k in colour c.
// Towers and workshops sit below the icons (row 2 is the icons' row).
func buildingSprite(k game.Kind, c uint8) image.Rectangle {
	row := 0
	switch k {
	case game.Barracks:
		row = 1
	case game.Tower:
		row = 3
	case game.Workshop:
		row = 4
	}
	x, y := int(c%8)*bldPx, bldRow0+row*bldPx
	return image.Rect(x, y, x+bldPx, y+bldPx)
}

// Single pieces.
var (
	sprRing    = image.Rect(0, iconRow, 16, iconRow+16)    // a unit's selection ring (white)
	sprRingBig = image.Rect(16, iconRow, 64, iconRow+48)   // a building's selection ring (white)
	sprCoin    = image.Rect(64, iconRow, 80, iconRow+16)   // gold
	sprSupply  = image.Rect(80, iconRow, 96, iconRow+16)   // supply
	sprFlag    = image.Rect(96, iconRow, 112, iconRow+16)  // rally point (white flag)
	sprNugget  = image.Rect(112, iconRow, 118, iconRow+6)  // carried gold
	sprMarker  = image.Rect(128, iconRow, 144, iconRow+16) // order marker (white cross ring)
	sprBar     = image.Rect(160, iconRow, 162, iconRow+1)  // a bar: a white texel, then a dark one
)

// canvas is a tiny raster toolkit over an image.RGBA.
type canvas struct {
	img  *image.RGBA
	x, y int // origin of the current cell
}

func (c *canvas) at(x, y int) color.RGBA { return c.img.RGBAAt(c.x+x, c.y+y) }

func (c *canvas) set(x, y int, col color.RGBA) { c.img.SetRGBA(c.x+x, c.y+y, col) }

func (c *canvas) rect(x0, y0, x1, y1 int, col color.RGBA) {
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			c.set(x, y, col)
		}
	}
}

// ellipse fills the ellipse centred on (cx, cy) (half-pixel centres allowed).
func (c *canvas) ellipse(cx, cy, rx, ry float64, col color.RGBA) {
	for y := int(cy - ry - 1); y <= int(cy+ry+1); y++ {
		for x := int(cx - rx - 1); x <= int(cx+rx+1); x++ {
			dx, dy := (float64(x)+0.5-cx)/rx, (float64(y)+0.5-cy)/ry
			if dx*dx+dy*dy <= 1 {
				c.set(x, y, col)
			}
		}
	}
}

// ring draws an ellipse outline about t pixels thick.
func (c *canvas) ring(cx, cy, rx, ry, t float64, col color.RGBA) {
	for y := int(cy - ry - 1); y <= int(cy+ry+1); y++ {
		for x := int(cx - rx - 1); x <= int(cx+rx+1); x++ {
			dx, dy := (float64(x)+0.5-cx)/rx, (float64(y)+0.5-cy)/ry
			d := dx*dx + dy*dy
			in := (float64(x)+0.5-cx)/(rx-t)*(float64(x)+0.5-cx)/(rx-t) + (float64(y)+0.5-cy)/(ry-t)*(float64(y)+0.5-cy)/(ry-t)
			if d <= 1 && in > 1 {
				c.set(x, y, col)
			}
		}
	}
}

func (c *canvas) line(x0, y0, x1, y1 int, col color.RGBA) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	for {
		c.set(x0, y0, col)
		if x0 == x1 && y0 == y1 {
			return
		}
		if e2 := 2 * e; e2 >= dy {
			e += dy
			x0 += sx
		} else {
			e += dx
			y0 += sy
		}
	}
}

// outline puts a dark border around the opaque pixels of the w×h cell.
func (c *canvas) outline(w, h int, col color.RGBA) {
	var edge []image.Point
	for y := range h {
		for x := range w {
			if c.at(x, y).A != 0 {
				continue
			}
			for _, d := range [4]image.Point{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nx, ny := x+d.X, y+d.Y
				if nx >= 0 && ny >= 0 && nx < w && ny < h && c.at(nx, ny).A == 255 {
					edge = append(edge, image.Pt(x, y))
					break
				}
			}
		}
	}
	for _, p := range edge {
		c.set(p.X, p.Y, col)
	}
}

// under fills where the cell is still empty (shadows go under everything).
func (c *canvas) under(fn func(c *canvas)) {
	tmp := &canvas{img: image.NewRGBA(c.img.Bounds()), x: c.x, y: c.y}
	fn(tmp)
	b := c.img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if s := tmp.img.RGBAAt(x, y); s.A != 0 && c.img.RGBAAt(x, y).A == 0 {
				c.img.SetRGBA(x, y, s)
			}
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

func shade(c color.RGBA, f float64) color.RGBA {
	ch := func(v uint8) uint8 { return uint8(min(255, max(0, float64(v)*f))) }
	return color.RGBA{ch(c.R), ch(c.G), ch(c.B), c.A}
}

var (
	inkOutline = color.RGBA{16, 18, 26, 255}
	inkShadow  = color.RGBA{0, 0, 0, 80}
	inkSkin    = color.RGBA{236, 196, 156, 255}
	inkWood    = color.RGBA{128, 86, 48, 255}
	inkWoodDk  = color.RGBA{92, 60, 34, 255}
	inkMetal   = color.RGBA{190, 196, 208, 255}
	inkMetalDk = color.RGBA{118, 124, 138, 255}
	inkStone   = color.RGBA{156, 150, 140, 255}
	inkStoneDk = color.RGBA{118, 112, 104, 255}
	inkGold    = color.RGBA{250, 204, 40, 255}
	inkGoldDk  = color.RGBA{180, 130, 20, 255}
	inkWindow  = color.RGBA{252, 226, 130, 255}
	inkDark    = color.RGBA{40, 30, 26, 255}
	inkWhite   = color.RGBA{255, 255, 255, 255}
)

// makeAtlas draws every sprite.
func makeAtlas() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, atlasSize, atlasSize))
	c := &canvas{img: img}
	c.rect(0, 0, 8, 8, inkWhite)
	for col := range uint8(8) {
		p := PlayerColors[col]
		team := color.RGBA{p[0], p[1], p[2], 255}
		for _, k := range []game.Kind{game.Worker, game.Soldier, game.Archer} {
			r := unitSprite(k, col)
			c.x, c.y = r.Min.X, r.Min.Y
			drawUnit(c, k, team)
		}
		r := unitSprite(game.Catapult, col)
		c.x, c.y = r.Min.X, r.Min.Y
		drawCatapult(c, team)
		for _, k := range []game.Kind{game.Base, game.Barracks, game.Tower, game.Workshop} {
			r := buildingSprite(k, col)
			c.x, c.y = r.Min.X, r.Min.Y
			drawBuilding(c, k, team)
		}
	}
	drawIcons(c)
	return img
}

func drawUnit(c *canvas, k game.Kind, team color.RGBA) {
	light, dark := shade(team, 1.3), shade(team, 0.68)
	legs := inkWoodDk
	if k == game.Soldier {
		legs = inkMetalDk
	}
	c.rect(5, 11, 7, 14, legs)
	c.rect(9, 11, 11, 14, legs)
	c.rect(4, 6, 12, 11, team)
	c.rect(4, 6, 5, 11, light)
	c.rect(11, 6, 12, 11, dark)
	c.rect(4, 10, 12, 11, dark)
	c.ellipse(8, 4, 2.6, 2.6, inkSkin)
	c.set(7, 4, inkDark)
	c.set(9, 4, inkDark)
	switch k {
	case game.Worker:
		c.rect(5, 1, 11, 3, inkGold) // hard hat
		c.rect(4, 3, 12, 4, inkGoldDk)
		c.line(12, 13, 14, 5, inkWood) // pickaxe
		c.line(12, 5, 15, 6, inkMetal)
		c.set(11, 4, inkMetal)
	case game.Soldier:
		c.rect(5, 1, 11, 4, inkMetal) // helmet
		c.rect(5, 1, 6, 4, inkMetalDk)
		c.set(8, 4, inkMetalDk)   // nose guard
		c.rect(1, 6, 5, 12, dark) // shield
		c.rect(2, 7, 4, 11, team)
		c.set(2, 8, inkWhite)
		c.line(13, 1, 13, 9, inkMetal) // sword
		c.rect(12, 9, 15, 10, inkWood)
		c.set(13, 10, inkWood)
	case game.Archer:
		c.rect(5, 1, 11, 3, dark) // hood
		c.rect(4, 2, 5, 6, dark)
		c.rect(11, 2, 12, 6, dark)
		c.rect(2, 5, 4, 10, inkWood) // quiver
		c.set(2, 4, inkWhite)
		c.set(3, 4, inkWhite)
		for _, p := range [][2]int{{12, 1}, {13, 2}, {14, 3}, {14, 4}, {15, 5}, {15, 6}, {15, 7}, {14, 8}, {14, 9}, {13, 10}, {12, 11}} {
			c.set(p[0], p[1], inkWood)
		}
		c.line(12, 2, 12, 10, inkMetal) // string
	}
	c.outline(unitPx, unitPx, inkOutline)
	c.under(func(c *canvas) { c.ellipse(8, 14.5, 5.5, 1.6, inkShadow) })
}

// drawCatapult draws a wooden frame on two wheels with its throwing arm
// cocked back and a stone in the cup.
func drawCatapult(c *canvas, team color.RGBA) {
	dark := shade(team, 0.68)
	c.rect(2, 9, 14, 12, inkWood) // frame
	c.rect(2, 11, 14, 12, inkWoodDk)
	c.rect(3, 7, 6, 9, team) // the owner's colours on the frame
	c.rect(3, 8, 6, 9, dark)
	c.line(9, 9, 12, 2, inkWoodDk) // arm
	c.line(10, 9, 13, 2, inkWood)
	c.rect(11, 1, 15, 3, inkMetalDk) // cup
	c.set(13, 0, inkStone)
	c.set(12, 0, inkStone)
	c.ellipse(4.5, 12.5, 2.2, 2.2, inkWoodDk) // wheels
	c.ellipse(11.5, 12.5, 2.2, 2.2, inkWoodDk)
	c.set(4, 12, inkMetal)
	c.set(11, 12, inkMetal)
	c.outline(unitPx, unitPx, inkOutline)
	c.under(func(c *canvas) { c.ellipse(8, 14.5, 6.5, 1.6, inkShadow) })
}

// drawTower draws a round stone tower with battlements and a banner.
func drawTower(c *canvas, team, light, dark color.RGBA) {
	c.rect(14, 14, 34, 45, inkStone)
	c.rect(14, 14, 17, 45, shade(inkStone, 1.15))
	for y := 18; y < 45; y += 5 {
		c.rect(14, y, 34, y+1, inkStoneDk)
	}
	c.rect(10, 8, 38, 15, inkStoneDk) // battlements
	for x := 10; x < 38; x += 6 {
		c.rect(x, 4, x+3, 9, inkStone)
	}
	c.rect(22, 22, 26, 30, inkDark) // arrow slit
	c.line(24, 0, 24, 6, inkMetalDk)
	c.rect(25, 0, 33, 4, team)
	c.rect(25, 3, 33, 4, dark)
	c.rect(14, 36, 34, 38, light)
}

// drawWorkshop draws a low timber shed with a big cog on its wall.
func drawWorkshop(c *canvas, team, light, dark color.RGBA) {
	c.rect(4, 22, 44, 45, inkWood)
	for x := 4; x < 44; x += 5 {
		c.rect(x, 22, x+1, 45, inkWoodDk)
	}
	for y := 12; y < 23; y++ { // a flat roof in the owner's colours
		c.rect(2, y, 46, y+1, team)
	}
	c.rect(2, 12, 46, 13, light)
	c.rect(2, 21, 46, 23, dark)
	c.ring(15, 33, 6, 6, 2, inkMetal) // cog
	c.ellipse(15, 33, 2, 2, inkMetalDk)
	c.rect(27, 29, 40, 45, inkDark) // wide door
	c.rect(33, 29, 34, 45, inkWoodDk)
}

func drawBuilding(c *canvas, k game.Kind, team color.RGBA) {
	light, dark := shade(team, 1.25), shade(team, 0.65)
	switch k {
	case game.Tower:
		drawTower(c, team, light, dark)
		c.outline(bldPx, bldPx, inkOutline)
		c.under(func(c *canvas) { c.ellipse(24, 45, 14, 3, inkShadow) })
		return
	case game.Workshop:
		drawWorkshop(c, team, light, dark)
		c.outline(bldPx, bldPx, inkOutline)
		c.under(func(c *canvas) { c.ellipse(24, 45, 22, 3, inkShadow) })
		return
	}
	if k == game.Base {
		c.rect(6, 18, 42, 45, inkStone) // walls, coursed stone
		for y := 21; y < 45; y += 4 {
			c.rect(6, y, 42, y+1, inkStoneDk)
			off := (y / 4 % 2) * 4
			for x := 8 + off; x < 42; x += 8 {
				c.rect(x, y-3, x+1, y, inkStoneDk)
			}
		}
		c.rect(6, 18, 8, 45, shade(inkStone, 1.15))
		for y := 4; y < 19; y++ { // roof
			half := (y - 4) * 22 / 14
			c.rect(24-half, y, 24+half, y+1, team)
			c.rect(24-half, y, 24, y+1, light)
		}
		c.rect(2, 17, 46, 19, dark)
		c.rect(20, 32, 28, 45, inkDark) // door
		c.rect(21, 31, 27, 32, inkDark)
		c.rect(23, 33, 25, 45, inkWoodDk)
		c.rect(10, 24, 16, 29, inkWindow)
		c.rect(32, 24, 38, 29, inkWindow)
		c.rect(12, 24, 13, 29, inkWoodDk)
		c.rect(35, 24, 36, 29, inkWoodDk)
		c.line(24, 0, 24, 6, inkMetalDk) // flag
		c.rect(25, 0, 32, 4, team)
		c.rect(25, 3, 32, 4, dark)
	} else {
		c.rect(5, 20, 43, 45, inkWood) // plank walls
		for x := 5; x < 43; x += 4 {
			c.rect(x, 20, x+1, 45, inkWoodDk)
		}
		c.rect(5, 20, 43, 22, inkWoodDk)
		for y := 9; y < 21; y++ { // roof
			inset := (20 - y) / 2
			c.rect(2+inset, y, 46-inset, y+1, team)
			if y%3 == 0 {
				c.rect(2+inset, y, 46-inset, y+1, dark)
			}
		}
		c.rect(2, 9, 46, 10, light)
		c.rect(17, 30, 31, 45, inkDark) // gate
		c.rect(23, 30, 25, 45, inkWoodDk)
		c.line(19, 23, 29, 29, inkMetal) // crossed swords
		c.line(29, 23, 19, 29, inkMetal)
		c.rect(8, 24, 12, 36, team) // banners
		c.rect(36, 24, 40, 36, team)
		c.rect(9, 35, 11, 38, dark)
		c.rect(37, 35, 39, 38, dark)
	}
	c.outline(bldPx, bldPx, inkOutline)
	c.under(func(c *canvas) { c.ellipse(24, 45, 22, 3, inkShadow) })
}

func drawIcons(c *canvas) {
	c.x, c.y = sprRing.Min.X, sprRing.Min.Y
	c.ring(8, 10, 7.5, 5, 1.3, inkWhite)
	c.x, c.y = sprRingBig.Min.X, sprRingBig.Min.Y
	c.ring(24, 26, 23.5, 21, 1.5, inkWhite)
	c.x, c.y = sprCoin.Min.X, sprCoin.Min.Y
	c.ellipse(8, 8, 6.5, 6.5, inkGoldDk)
	c.ellipse(7.5, 7.5, 5.5, 5.5, inkGold)
	c.rect(6, 5, 8, 6, inkWindow)
	c.x, c.y = sprSupply.Min.X, sprSupply.Min.Y
	for y := 2; y < 8; y++ {
		h := y - 1
		c.rect(8-h, y, 8+h, y+1, color.RGBA{200, 90, 60, 255})
	}
	c.rect(3, 8, 13, 14, inkStone)
	c.rect(7, 10, 9, 14, inkDark)
	c.outline(16, 16, inkOutline)
	c.x, c.y = sprFlag.Min.X, sprFlag.Min.Y
	c.line(4, 1, 4, 15, inkMetalDk)
	for y := 1; y < 8; y++ {
		w := 8 - abs(y-4)*2
		c.rect(5, y, 5+w, y+1, inkWhite)
	}
	c.x, c.y = sprNugget.Min.X, sprNugget.Min.Y
	c.ellipse(3, 3, 2.6, 2.2, inkGold)
	c.set(2, 2, inkWindow)
	c.outline(6, 6, inkOutline)
	c.x, c.y = sprBar.Min.X, sprBar.Min.Y
	c.set(0, 0, inkWhite)
	c.set(1, 0, color.RGBA{0, 0, 0, 190})
	c.x, c.y = sprMarker.Min.X, sprMarker.Min.Y
	c.ring(8, 8, 7.5, 7.5, 1.5, inkWhite)
	c.ring(8, 8, 3.5, 3.5, 1.2, inkWhite)
}
