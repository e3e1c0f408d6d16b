package game

// Map generation. Everything comes from the map seed through a PRNG of its
// own, so the same seed draws the same map. Starts sit on a circle around
// the center at equal angles (a random rotation), each cleared and given the
// same gold at the same distance; corridors join every start and expansion to
// the center, and pockets that cannot be reached are filled with rock.

// circleSteps divides a turn so that 2 to 8 players get exact equal angles.
const circleSteps = 840

var quarterSin = [17]int32{0, 100, 200, 297, 392, 483, 569, 650, 724, 792, 851, 903, 946, 980, 1004, 1019, 1024}

// sin64 returns sin(i·2π/64)·1024.
func sin64(i int) int32 {
	i &= 63
	switch {
	case i <= 16:
		return quarterSin[i]
	case i <= 32:
		return quarterSin[32-i]
	case i <= 48:
		return -quarterSin[i-32]
	}
	return -quarterSin[64-i]
}

// sinTurn returns sin(a·2π/circleSteps)·1024, interpolated from the table.
func sinTurn(a int) int32 {
	a %= circleSteps
	if a < 0 {
		a += circleSteps
	}
	n := a * 64
	i, f := n/circleSteps, int32(n%circleSteps)
	s0, s1 := sin64(i), sin64(i+1)
	return s0 + (s1-s0)*f/circleSteps
}

func cosTurn(a int) int32 { return sinTurn(a + circleSteps/4) }

func (w *World) generate() {
	r := NewRNG(w.cfg.Seed, 0x6d6170) // "map"
	W, H := w.w, w.h
	w.scatterObstacles(&r)

	cx, cy := W/2, H/2
	radius := int32(min(W, H) * 37 / 100)
	onCircle := func(a int, rad int32, margin int) (int, int) {
		x := cx + int(rad*cosTurn(a)/1024)
		y := cy + int(rad*sinTurn(a)/1024)
		return min(max(x, margin), W-1-margin), min(max(y, margin), H-1-margin)
	}
	a0 := r.Intn(circleSteps)
	n := w.np
	w.starts = make([]Point, n)
	for i := range n {
		x, y := onCircle(a0+i*circleSteps/n, radius, 10)
		w.starts[i] = TileCenter(x, y)
		w.fill(x, y, 9, Grass)
		w.carve(x, y, cx, cy)
	}
	w.fill(cx, cy, 4, Grass)
	type spot struct{ x, y int }
	var expansions []spot
	for i := range n {
		x, y := onCircle(a0+i*circleSteps/n+circleSteps/(2*n), radius*2/3, 6)
		w.fill(x, y, 3, Grass)
		w.carve(x, y, cx, cy)
		expansions = append(expansions, spot{x, y})
	}
	// Gold: eight fields behind every start, four at the center, four at
	// each expansion between two starts.
	for _, s := range w.starts {
		x, y := s.Tile()
		dx, dy := x-cx, y-cy
		if absInt(dx) >= absInt(dy) {
			gx := x + 6
			if dx < 0 {
				gx = x - 7
			}
			w.goldBlock(gx, y-2, 2, 4, FieldGold)
		} else {
			gy := y + 6
			if dy < 0 {
				gy = y - 7
			}
			w.goldBlock(x-2, gy, 4, 2, FieldGold)
		}
	}
	w.goldBlock(cx-1, cy-1, 2, 2, FieldGold*2/3)
	for _, s := range expansions {
		w.goldBlock(s.x-1, s.y-1, 2, 2, FieldGold*2/3)
	}
	sx, sy := w.starts[0].Tile()
	w.fillUnreachable(sx, sy)
}

// scatterObstacles draws random walks of rock and water.
func (w *World) scatterObstacles(r *RNG) {
	W, H := w.w, w.h
	for range W * H / 300 {
		t := Rock
		if r.Intn(10) < 3 {
			t = Water
		}
		x, y := r.Intn(W), r.Intn(H)
		for range 15 + r.Intn(40) {
			w.fill(x, y, 1, t)
			x = min(max(x+r.Intn(3)-1, 0), W-1)
			y = min(max(y+r.Intn(3)-1, 0), H-1)
		}
	}
}

// fill sets the disc of radius rad around (x, y) to t.
func (w *World) fill(x, y, rad int, t Terrain) {
	for dy := -rad; dy <= rad; dy++ {
		for dx := -rad; dx <= rad; dx++ {
			if dx*dx+dy*dy > rad*rad+rad || !w.inMap(x+dx, y+dy) {
				continue
			}
			i := (y+dy)*w.w + x + dx
			w.terrain[i] = t
			w.gold[i] = 0
		}
	}
}

// carve clears a corridor three tiles wide from (x0, y0) to (x1, y1).
func (w *World) carve(x0, y0, x1, y1 int) {
	dx, dy := absInt(x1-x0), -absInt(y1-y0)
	sx, sy := 1, 1
	if x0 > x1 {
		sx = -1
	}
	if y0 > y1 {
		sy = -1
	}
	e := dx + dy
	for {
		w.fill(x0, y0, 1, Grass)
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

func (w *World) goldBlock(x0, y0, bw, bh int, amount int) {
	for y := y0; y < y0+bh; y++ {
		for x := x0; x < x0+bw; x++ {
			if w.inMap(x, y) {
				i := y*w.w + x
				w.terrain[i] = GoldField
				w.gold[i] = uint16(amount)
			}
		}
	}
}

// fillUnreachable turns every grass or gold tile that cannot be reached from
// (x, y) into rock, so no unit or gold ever sits in a sealed pocket.
func (w *World) fillUnreachable(x, y int) {
	seen := make([]bool, len(w.terrain))
	stack := []int{y*w.w + x}
	seen[stack[0]] = true
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		tx, ty := t%w.w, t/w.w
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := tx+d[0], ty+d[1]
			if !w.inMap(nx, ny) {
				continue
			}
			n := ny*w.w + nx
			if seen[n] || (w.terrain[n] != Grass && w.terrain[n] != GoldField) {
				continue
			}
			seen[n] = true
			if w.terrain[n] == Grass {
				stack = append(stack, n)
			}
		}
	}
	for t, ok := range seen {
		if !ok && (w.terrain[t] == Grass || w.terrain[t] == GoldField) {
			w.terrain[t] = Rock
			w.gold[t] = 0
		}
	}
}
