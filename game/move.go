package game

// Movement. Every unit stands on exactly one tile and no two units share a
// tile: occ holds who stands where, and a unit crosses into a tile only if
// it is free and not solid. Positions are fixed point inside the tile, so
// motion is smooth while the grid keeps units apart.

type moveResult uint8

const (
	moving  moveResult = iota
	arrived            // on a goal tile
	stuck              // waiting for a tile; blocked counts the ticks
	noPath             // the goal cannot be reached
)

// followField moves unit i one tick down the flow field of key. It returns
// the result, the unit's distance to the goal, and the unit that holds the
// tile it wanted (-1 if none).
func (w *World) followField(i int, key uint64) (moveResult, int, int) {
	e := &w.e
	f := w.field(i, key)
	t := w.tileOf(i)
	d0 := int(f.dist[t])
	if d0 == unreachable {
		return noPath, d0, -1
	}
	if d0 == 0 {
		return arrived, 0, -1
	}
	W := w.w
	tx, ty := t%W, t/W
	limit := d0 // strictly downhill, or sideways once stuck for a while
	if e.blocked[i] >= 3 {
		limit = d0 + 3
	}
	best, bd, blocker, blockerD := -1, unreachable, -1, unreachable
	for k := range 8 {
		nx, ny := tx+dirX[k], ty+dirY[k]
		if nx < 0 || ny < 0 || nx >= W || ny >= w.h {
			continue
		}
		n := ny*W + nx
		dn := int(f.dist[n])
		if w.solid[n] || dn == unreachable || dn >= limit {
			continue
		}
		if k&1 == 1 && (w.solid[ty*W+nx] || w.solid[ny*W+tx]) {
			continue
		}
		if o := w.occ[n]; o != 0 {
			if dn < blockerD {
				blocker, blockerD = int(o-1), dn
			}
			continue
		}
		if dn < bd {
			best, bd = n, dn
		}
	}
	if best >= 0 {
		c := TileCenter(best%W, best/W)
		if w.advance(i, c.X, c.Y) {
			if bd < d0 {
				e.blocked[i] = 0
			} else if e.blocked[i] < 255 {
				e.blocked[i]++ // a step aside does not end the wait
			}
			return moving, d0, blocker
		}
	}
	if e.blocked[i] < 255 {
		e.blocked[i]++
	}
	return stuck, d0, blocker
}

// advance moves unit i up to its speed toward (px, py); if the straight move
// is blocked it slides along one axis. It reports whether the unit moved.
func (w *World) advance(i int, px, py int32) bool {
	e := &w.e
	x, y := e.x[i], e.y[i]
	dx, dy := px-x, py-y
	if dx == 0 && dy == 0 {
		return true
	}
	sp := stats[e.kind[i]].Speed
	if d2 := dist2(dx, dy); d2 > int64(sp)*int64(sp) {
		d := isqrt(d2)
		dx = int32(int64(dx) * int64(sp) / d)
		dy = int32(int64(dy) * int64(sp) / d)
	}
	if w.tryPos(i, x+dx, y+dy) {
		return true
	}
	if dx != 0 && w.tryPos(i, x+clamp32(px-x, sp), y) {
		return true
	}
	return dy != 0 && w.tryPos(i, x, y+clamp32(py-y, sp))
}

func clamp32(v, lim int32) int32 { return min(max(v, -lim), lim) }

// tryPos puts unit i at (nx, ny) if the tile there may be entered.
func (w *World) tryPos(i int, nx, ny int32) bool {
	if nx < 0 || ny < 0 || nx >= int32(w.w)<<TileShift || ny >= int32(w.h)<<TileShift {
		return false
	}
	e := &w.e
	ox, oy := int(e.x[i]>>TileShift), int(e.y[i]>>TileShift)
	tx, ty := int(nx>>TileShift), int(ny>>TileShift)
	if tx != ox || ty != oy {
		n := ty*w.w + tx
		if w.solid[n] || w.occ[n] != 0 {
			return false
		}
		if tx != ox && ty != oy && (w.solid[oy*w.w+tx] || w.solid[ty*w.w+ox]) {
			return false // no squeezing between two solid corners
		}
		w.occ[oy*w.w+ox] = 0
		w.occ[n] = int32(i + 1)
		if oc, nc := w.cells.of(ox, oy), w.cells.of(tx, ty); oc != nc {
			team := w.tidx[e.owner[i]]
			w.cells.remove(oc, team)
			w.cells.add(nc, team)
		}
	}
	e.x[i], e.y[i] = nx, ny
	return true
}

// teleport puts unit i on the center of the free tile (x, y).
func (w *World) teleport(i, x, y int) {
	e := &w.e
	ot := w.tileOf(i)
	team := w.tidx[e.owner[i]]
	w.cells.remove(w.cellOfSlot(i), team)
	w.occ[ot] = 0
	c := TileCenter(x, y)
	e.x[i], e.y[i] = c.X, c.Y
	w.occ[y*w.w+x] = int32(i + 1)
	w.cells.add(w.cells.of(x, y), team)
}

// octant returns the direction index (see dirX) closest to (dx, dy).
func octant(dx, dy int32) int {
	ax, ay := int64(abs32(dx)), int64(abs32(dy))
	switch {
	case ay*12 < ax*5: // within 22.5° of the x axis
		if dx > 0 {
			return 0
		}
		return 4
	case ax*12 < ay*5:
		if dy > 0 {
			return 2
		}
		return 6
	case dx > 0 && dy > 0:
		return 1
	case dx < 0 && dy > 0:
		return 3
	case dx < 0:
		return 5
	}
	return 7
}

// Results of steer.
const (
	steerBlocked  = iota
	steerStraight // moved toward the point
	steerAside    // moved to a tile beside the straight way
)

// steer moves unit i straight toward (px, py), or, when that is blocked,
// to one of the two neighbouring tiles on either side of the straight line.
func (w *World) steer(i int, px, py int32) int {
	if w.advance(i, px, py) {
		return steerStraight
	}
	e := &w.e
	tx, ty := int(e.x[i]>>TileShift), int(e.y[i]>>TileShift)
	k := octant(px-e.x[i], py-e.y[i])
	a, b := (k+1)&7, (k+7)&7
	ca := TileCenter(tx+dirX[a], ty+dirY[a])
	cb := TileCenter(tx+dirX[b], ty+dirY[b])
	if dist2(cb.X-px, cb.Y-py) < dist2(ca.X-px, ca.Y-py) {
		ca, cb = cb, ca
	}
	if w.enterable(i, ca) && w.advance(i, ca.X, ca.Y) || w.enterable(i, cb) && w.advance(i, cb.X, cb.Y) {
		return steerAside
	}
	return steerBlocked
}

// enterable reports whether unit i could step onto the tile centered at c.
func (w *World) enterable(i int, c Point) bool {
	x, y := c.Tile()
	if !w.inMap(x, y) {
		return false
	}
	t := y*w.w + x
	return !w.solid[t] && (w.occ[t] == 0 || int(w.occ[t]) == i+1)
}
