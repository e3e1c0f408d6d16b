package game

// Unit behaviour, one tick at a time, by order.

// Contact arrival: a mover that is stuck behind a unit of its own player
// that has already stopped, this close to the goal (in field cost units,
// 5 per tile), stops too. A group ordered to one tile so settles into a
// clump around it instead of queueing for the one tile.
const (
	contactCost  = 12 * costStraight
	giveUpTicks  = 100 // a mover stuck this long gives up
	searchPeriod = 4   // fighters on the move look for enemies this often
	idlePeriod   = 8   // idle fighters look this often
)

func (w *World) updateUnit(i int) {
	e := &w.e
	if e.cooldown[i] > 0 {
		e.cooldown[i]--
	}
	switch e.order[i] {
	case OrderIdle:
		w.idle(i)
	case OrderMove:
		w.doMove(i)
	case OrderAttack:
		w.doAttack(i)
	case OrderAttackMove:
		w.doAttackMove(i)
	case OrderGather:
		w.doGather(i)
	case OrderBuild:
		w.doBuild(i)
	}
}

// setOrder switches unit i to order o, giving back a pending building's gold.
func (w *World) setOrder(i int, o Order) {
	e := &w.e
	w.cancelBuild(i)
	e.order[i] = o
	e.phase[i] = 0
	e.target[i] = NoUnit
	e.blocked[i] = 0
	if o != OrderGather && o != OrderBuild {
		e.rx[i], e.ry[i] = -1, -1
	}
}

func (w *World) sight(i int) int { return int(stats[w.e.kind[i]].Sight) }

// fighter reports whether unit i is an armed unit (not a worker, not a tower).
func (w *World) fighter(i int) bool {
	k := w.e.kind[i]
	return k.Armed() && !stats[k].Building
}

// idle: fighters guard their spot, attacking what comes into sight and then
// walking back (an attack-move to where they stand).
func (w *World) idle(i int) {
	if !w.fighter(i) || (int(w.turn)+i)%idlePeriod != 0 {
		return
	}
	if t := w.findTarget(i, w.sight(i)); t >= 0 {
		e := &w.e
		w.setOrder(i, OrderAttackMove)
		e.gx[i], e.gy[i] = int16(e.x[i]>>TileShift), int16(e.y[i]>>TileShift)
		e.target[i] = w.id(t)
		w.engage(i, t)
	}
}

func (w *World) doMove(i int) {
	e := &w.e
	gx, gy := int(e.gx[i]), int(e.gy[i])
	res, d, blocker := w.approach(i, gx, gy)
	switch res {
	case arrived:
		c := TileCenter(gx, gy)
		if e.x[i] == c.X && e.y[i] == c.Y || !w.advance(i, c.X, c.Y) {
			w.setOrder(i, OrderIdle)
		}
	case noPath:
		w.setOrder(i, OrderIdle)
	case stuck, moving:
		if w.settled(i, d, blocker) {
			w.setOrder(i, OrderIdle)
		}
	}
}

// settled reports whether a stuck mover should count as arrived.
func (w *World) settled(i, d, blocker int) bool {
	e := &w.e
	if e.blocked[i] >= giveUpTicks && e.order[i] == OrderMove {
		return true // attack-movers never give up: in a battle they wait their turn
	}
	return e.blocked[i] >= 6 && d <= contactCost && blocker >= 0 &&
		e.owner[blocker] == e.owner[i] && e.order[blocker] == OrderIdle
}

func (w *World) doAttack(i int) {
	e := &w.e
	t := w.lookup(e.target[i])
	if t < 0 || e.hp[t] <= 0 {
		w.setOrder(i, OrderIdle)
		return
	}
	w.engage(i, t)
}

func (w *World) doAttackMove(i int) {
	e := &w.e
	if t := w.lookup(e.target[i]); t >= 0 && e.hp[t] > 0 {
		leash := int32(w.sight(i)+4) * TileSize
		far := max(abs32(e.x[t]-e.x[i]), abs32(e.y[t]-e.y[i])) > leash
		if !far && e.blocked[i] < 20 {
			if (int(w.turn)+i)%8 == 0 && !w.inRange(i, t) {
				if s := w.findTarget(i, w.sight(i)); s >= 0 && s != t {
					t = s
					e.target[i] = w.id(s)
					e.phase[i] &^= phaseChaseField
				}
			}
			w.engage(i, t)
			return
		}
		e.blocked[i] = 0
	}
	e.target[i] = NoUnit
	e.phase[i] &^= phaseChaseField
	if (int(w.turn)+i)%searchPeriod == 0 {
		if t := w.findTarget(i, w.sight(i)); t >= 0 {
			e.target[i] = w.id(t)
			e.blocked[i] = 0
			w.engage(i, t)
			return
		}
	}
	res, d, blocker := w.approach(i, int(e.gx[i]), int(e.gy[i]))
	switch res {
	case arrived, noPath:
		w.setOrder(i, OrderIdle)
	case stuck, moving:
		if w.settled(i, d, blocker) {
			w.setOrder(i, OrderIdle)
		}
	}
}

// Bits of phase for move and attack-move orders.
const (
	phaseChaseField uint8 = 1 // chasing the target along a field (walls in the way)
	phaseGoalField  uint8 = 2 // walking to the goal along a field (walls in the way)
)

// approach moves unit i one tick toward goal tile (gx, gy). A near goal is
// walked to in a straight line, so the many units that each return to a
// spot of their own after a fight need no flow field each; a far goal, or a
// near one behind a wall, is reached along the goal's flow field. It
// returns like followField.
func (w *World) approach(i, gx, gy int) (moveResult, int, int) {
	e := &w.e
	tx, ty := int(e.x[i]>>TileShift), int(e.y[i]>>TileShift)
	gap := max(absInt(gx-tx), absInt(gy-ty))
	if gap == 0 {
		return arrived, 0, -1
	}
	if gap > chaseSteer || e.phase[i]&phaseGoalField != 0 {
		return w.followField(i, tileKey(gx, gy))
	}
	c := TileCenter(gx, gy)
	k := octant(c.X-e.x[i], c.Y-e.y[i])
	blocker := -1
	if nx, ny := tx+dirX[k], ty+dirY[k]; w.inMap(nx, ny) && w.occ[ny*w.w+nx] != 0 {
		blocker = int(w.occ[ny*w.w+nx] - 1)
	}
	res := moving
	switch w.steer(i, c.X, c.Y) {
	case steerStraight:
		nx, ny := int(e.x[i]>>TileShift), int(e.y[i]>>TileShift)
		if max(absInt(gx-nx), absInt(gy-ny)) < gap {
			e.blocked[i] = 0 // progress
		}
		return moving, gap * costStraight, blocker
	case steerBlocked:
		res = stuck
		if w.wallAhead(i, -1, c.X, c.Y) {
			e.phase[i] |= phaseGoalField
		}
	}
	if e.blocked[i] < 255 {
		e.blocked[i]++ // a step aside does not end the wait
	}
	return res, gap * costStraight, blocker
}
