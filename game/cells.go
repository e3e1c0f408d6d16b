package game

// cellGrid counts, per 8×8-tile cell, the entities of every team. Target
// searches look at these counts first and skip the tile scan when no enemy is
// near, which is the common case for units marching or standing at home.
// It is derived data: rebuilt from the entities on Restore.
type cellGrid struct {
	cw, ch int
	nteams int
	count  []uint16 // [cell*nteams + team]
	mask   []uint8  // bit t set when count[cell*nteams+t] > 0
}

const cellShift = 3

func (c *cellGrid) init(w, h, nteams int) {
	c.cw = (w + 1<<cellShift - 1) >> cellShift
	c.ch = (h + 1<<cellShift - 1) >> cellShift
	c.nteams = nteams
	c.count = make([]uint16, c.cw*c.ch*nteams)
	c.mask = make([]uint8, c.cw*c.ch)
}

func (c *cellGrid) reset() {
	clear(c.count)
	clear(c.mask)
}

func (c *cellGrid) of(x, y int) int { return (y>>cellShift)*c.cw + x>>cellShift }

func (c *cellGrid) add(cell int, team uint8) {
	n := &c.count[cell*c.nteams+int(team)]
	*n++
	c.mask[cell] |= 1 << team
}

func (c *cellGrid) remove(cell int, team uint8) {
	n := &c.count[cell*c.nteams+int(team)]
	*n--
	if *n == 0 {
		c.mask[cell] &^= 1 << team
	}
}

// any reports whether a team in teams has an entity in a cell that overlaps
// the tile rectangle (x0, y0)–(x1, y1).
func (c *cellGrid) any(x0, y0, x1, y1 int, teams uint8) bool {
	cx0, cy0 := max(x0, 0)>>cellShift, max(y0, 0)>>cellShift
	cx1, cy1 := min(x1>>cellShift, c.cw-1), min(y1>>cellShift, c.ch-1)
	for cy := cy0; cy <= cy1; cy++ {
		row := c.mask[cy*c.cw:]
		for cx := cx0; cx <= cx1; cx++ {
			if row[cx]&teams != 0 {
				return true
			}
		}
	}
	return false
}
