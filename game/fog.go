package game

// Fog of war. Every team has a grid of stamps, one per tile: 0 means never
// seen; a refresh bumps the team's counter and writes it on every tile in
// sight, so "visible" is stamp == cur and "explored" is stamp != 0, and no
// pass is needed to clear the old vision. Allies share one grid. Each team is
// refreshed every fogPeriod ticks, teams spread over those ticks, which keeps
// the cost of vision for 10,000 units near a tenth of a millisecond a tick.
//
// The state is the explored and visible sets (snapshots store them as bit
// sets); the stamp values themselves are not, and Restore renumbers them.
type fogGrid struct {
	stamp    []uint32
	cur      uint32
	explored int32 // tiles ever seen
	visible  int32 // tiles in sight at the last refresh
}

// circle[r][dy+r] is the half-width of the disc of radius r on row dy.
var circle [17][]int8

func init() {
	for r := range circle {
		row := make([]int8, 2*r+1)
		for dy := -r; dy <= r; dy++ {
			row[dy+r] = int8(isqrt(int64(r*r - dy*dy + r)))
		}
		circle[r] = row
	}
}

// refreshFog recomputes the vision of dense team k.
func (w *World) refreshFog(k int) {
	f := &w.fog[k]
	f.cur++
	f.visible = 0
	cur := f.cur
	e := &w.e
	for i := range e.len() {
		kind := e.kind[i]
		if kind == KindNone || int(w.tidx[e.owner[i]]) != k {
			continue
		}
		r := int(stats[kind].Sight)
		cx, cy := int(e.x[i]>>TileShift), int(e.y[i]>>TileShift)
		disc := circle[r]
		for dy := -r; dy <= r; dy++ {
			y := cy + dy
			if y < 0 || y >= w.h {
				continue
			}
			hw := int(disc[dy+r])
			x0, x1 := max(cx-hw, 0), min(cx+hw, w.w-1)
			row := f.stamp[y*w.w : (y+1)*w.w]
			for x := x0; x <= x1; x++ {
				if s := row[x]; s != cur {
					if s == 0 {
						f.explored++
					}
					f.visible++
					row[x] = cur
				}
			}
		}
	}
}

// Fog is a read-only view of one team's vision, valid until the next Step.
type Fog struct {
	stamp []uint32
	cur   uint32
	w, h  int
}

// Fog returns player p's vision (shared with its allies). It copies nothing.
func (w *World) Fog(p PlayerID) Fog {
	if int(p) >= w.np {
		return Fog{}
	}
	f := &w.fog[w.tidx[p]]
	return Fog{f.stamp, f.cur, w.w, w.h}
}

// At returns the visibility of tile (x, y); off the map is Unexplored.
func (f Fog) At(x, y int) Visibility {
	if x < 0 || y < 0 || x >= f.w || y >= f.h {
		return Unexplored
	}
	switch s := f.stamp[y*f.w+x]; s {
	case 0:
		return Unexplored
	case f.cur:
		return Visible
	}
	return Explored
}

// Sees reports whether the point p is visible.
func (f Fog) Sees(p Point) bool {
	x, y := p.Tile()
	return f.At(x, y) == Visible
}
