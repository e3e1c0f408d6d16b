package game

// Combat: targets are found through the occupancy grid, nearest ring first,
// after the cell counts say an enemy is near at all. Units keep a target
// until it dies or gets away, and look again only every few ticks.

// unitHalf is the half-size of a unit's hit box, in subunits.
const unitHalf = 96

// boxDist2 is the squared distance from unit i's center to target t's box
// (a unit's 192-subunit box, a building's footprint).
func (w *World) boxDist2(i, t int) int64 {
	e := &w.e
	hs := int32(unitHalf)
	if st := &stats[e.kind[t]]; st.Building {
		hs = st.Size * TileSize / 2
	}
	dx := max(abs32(e.x[t]-e.x[i])-hs, 0)
	dy := max(abs32(e.y[t]-e.y[i])-hs, 0)
	return dist2(dx, dy)
}

func (w *World) inRange(i, t int) bool {
	r := int64(stats[w.e.kind[i]].Range)
	return w.boxDist2(i, t) <= r*r
}

// targetClass orders what attacker a prefers to fight: armed units, then
// workers, then buildings; a siege engine the other way round.
func targetClass(a, k Kind) int {
	c := 0
	switch {
	case stats[k].Building:
		c = 2
	case k == Worker:
		c = 1
	}
	if stats[a].Siege > 0 {
		return 2 - c
	}
	return c
}

// findTarget returns the slot of the enemy unit i should fight within radius
// tiles, or -1: the best class, and within it the nearest.
func (w *World) findTarget(i int, radius int) int {
	e := &w.e
	tx, ty := int(e.x[i]>>TileShift), int(e.y[i]>>TileShift)
	own := w.pl[e.owner[i]].team
	foes := (uint8(1)<<w.nteams - 1) &^ (1 << w.tidx[e.owner[i]])
	if !w.cells.any(tx-radius-1, ty-radius-1, tx+radius+1, ty+radius+1, foes) {
		return -1
	}
	s := search{w: w, i: i, own: own, best: -1, class: 3, max: int64(radius*TileSize) * int64(radius*TileSize)}
	for r := 1; r <= radius && s.class > 0; r++ {
		ax, ay, bx, by := tx-r, ty-r, tx+r, ty+r
		for x := ax; x <= bx; x++ {
			s.visit(x, ay)
			s.visit(x, by)
		}
		for y := ay + 1; y < by; y++ {
			s.visit(ax, y)
			s.visit(bx, y)
		}
	}
	return s.best
}

type search struct {
	w     *World
	i     int
	own   Team
	best  int
	class int
	d     int64
	max   int64
}

func (s *search) visit(x, y int) {
	w := s.w
	if x < 0 || y < 0 || x >= w.w || y >= w.h {
		return
	}
	o := w.occ[y*w.w+x]
	if o == 0 {
		return
	}
	t := int(o - 1)
	e := &w.e
	if e.hp[t] <= 0 || w.pl[e.owner[t]].team == s.own {
		return
	}
	c := targetClass(e.kind[s.i], e.kind[t])
	if c > s.class {
		return
	}
	d := w.boxDist2(s.i, t)
	if d > s.max || c == s.class && (d > s.d || d == s.d && t >= s.best) {
		return
	}
	s.best, s.class, s.d = t, c, d
}

// engage fights target t: strikes when in range and ready, else closes in.
func (w *World) engage(i, t int) {
	e := &w.e
	if w.inRange(i, t) {
		e.blocked[i] = 0
		e.phase[i] &^= phaseChaseField
		if e.cooldown[i] == 0 {
			w.strike(i, t)
		}
		return
	}
	w.chase(i, t)
}

// chase moves unit i toward target t: straight at it when near (no field
// per moving target), along a flow field when far or when walls are in the
// way (phase 1 remembers that the straight way got stuck).
func (w *World) chase(i, t int) {
	e := &w.e
	px, py := e.x[t], e.y[t]
	var key uint64
	if st := &stats[e.kind[t]]; st.Building {
		hs := st.Size * TileSize / 2
		px = min(max(e.x[i], e.x[t]-hs), e.x[t]+hs-1)
		py = min(max(e.y[i], e.y[t]-hs), e.y[t]+hs-1)
		x0, y0 := w.footprint(t)
		key = fieldKey(x0, y0, int(st.Size), int(st.Size), goalRect)
	} else {
		tx, ty := int(px>>TileShift), int(py>>TileShift)
		key = fieldKey(tx&^3, ty&^3, 4, 4, goalRect)
	}
	gap := max(abs32(px-e.x[i]), abs32(py-e.y[i]))
	near := gap <= chaseSteer*TileSize
	if gap <= 2*TileSize {
		e.phase[i] &^= phaseChaseField
	}
	if near && e.phase[i]&phaseChaseField == 0 {
		if w.steer(i, px, py) != steerBlocked {
			e.blocked[i] = 0
			return
		}
		if e.blocked[i] < 255 {
			e.blocked[i]++
		}
		if w.wallAhead(i, t, px, py) {
			e.phase[i] |= phaseChaseField // walls, not units, are in the way: follow a field
		}
		return
	}
	if res, _, _ := w.followField(i, key); res == arrived || res == noPath {
		w.steer(i, px, py)
	}
}

// chaseSteer is how near (in tiles) a target must be for a chaser to walk
// straight at it. It covers the leash of attack-moving units, so fights use
// no flow fields unless terrain is in the way.
const chaseSteer = 12

// wallAhead reports whether the tile straight ahead of unit i on its way to
// (px, py) is solid (and not part of target t), or a wall corner blocks the
// diagonal step.
func (w *World) wallAhead(i, t int, px, py int32) bool {
	e := &w.e
	tx, ty := int(e.x[i]>>TileShift), int(e.y[i]>>TileShift)
	k := octant(px-e.x[i], py-e.y[i])
	nx, ny := tx+dirX[k], ty+dirY[k]
	wall := func(x, y int) bool {
		if !w.inMap(x, y) {
			return true
		}
		n := y*w.w + x
		return w.solid[n] && int(w.occ[n]) != t+1
	}
	return wall(nx, ny) || k&1 == 1 && (wall(nx, ty) || wall(tx, ny))
}

// strike deals one hit of unit i to target t.
func (w *World) strike(i, t int) {
	e := &w.e
	st := &stats[e.kind[i]]
	dmg := w.damage(i, t) + int32(w.rng.Intn(3)) - 1 - w.armor(t)
	if dmg < 1 {
		dmg = 1
	}
	e.hp[t] -= dmg
	e.cooldown[i] = uint8(st.Cooldown)
	w.emit(Event{Kind: EvAttack, Player: e.owner[i], Other: e.owner[t], Unit: w.id(i),
		UnitKind: e.kind[i], Target: w.id(t), Pos: w.pos(i)})
	w.alert(t, i)
	if e.hp[t] <= 0 {
		w.dying = append(w.dying, int32(t))
		w.killers = append(w.killers, e.owner[i])
		w.pl[e.owner[i]].killed++
		return
	}
	w.retaliate(t, i)
}

// damage is what a hit of i does to t before armor: its kind's damage,
// the siege bonus against buildings, and its owner's weapons upgrades.
func (w *World) damage(i, t int) int32 {
	e := &w.e
	k := e.kind[i]
	d := stats[k].Damage
	if stats[e.kind[t]].Building {
		d += stats[k].Siege
	}
	if k.Armed() {
		d += WeaponsBonus * int32(w.pl[e.owner[i]].up[UpWeapons])
	}
	return d
}

// armor is what t takes off every hit: its kind's armor, and for units its
// owner's armor upgrades.
func (w *World) armor(t int) int32 {
	e := &w.e
	a := stats[e.kind[t]].Armor
	if !stats[e.kind[t]].Building {
		a += ArmorBonus * int32(w.pl[e.owner[t]].up[UpArmor])
	}
	return a
}

// guard is a tower's tick: keep shooting its target while it is in range,
// else look for the nearest enemy in range now and then.
func (w *World) guard(i int) {
	e := &w.e
	if e.cooldown[i] > 0 {
		e.cooldown[i]--
	}
	t := w.lookup(e.target[i])
	if t < 0 || e.hp[t] <= 0 || !w.inRange(i, t) {
		e.target[i] = NoUnit
		if (int(w.turn)+i)%searchPeriod != 0 {
			return
		}
		if t = w.findTarget(i, int(stats[e.kind[i]].Range/TileSize)+1); t < 0 || !w.inRange(i, t) {
			return
		}
		e.target[i] = w.id(t)
	}
	if e.cooldown[i] == 0 {
		w.strike(i, t)
	}
}

// alert tells t's owner that t is under attack, at most every alertTicks.
func (w *World) alert(t, by int) {
	e := &w.e
	pl := &w.pl[e.owner[t]]
	if w.turn-pl.lastAlert < alertTicks {
		return
	}
	pl.lastAlert = w.turn
	w.emit(Event{Kind: EvUnderAttack, Player: e.owner[t], Other: e.owner[by], Unit: w.id(t),
		UnitKind: e.kind[t], Target: w.id(by), Pos: w.pos(t)})
}

// retaliate turns an idle or busy-with-a-building fighter t on attacker a.
func (w *World) retaliate(t, a int) {
	e := &w.e
	if !w.fighter(t) {
		return
	}
	switch e.order[t] {
	case OrderIdle:
		w.setOrder(t, OrderAttackMove)
		e.gx[t], e.gy[t] = int16(e.x[t]>>TileShift), int16(e.y[t]>>TileShift)
	case OrderAttackMove:
		if c := w.lookup(e.target[t]); c >= 0 && !stats[e.kind[c]].Building && w.inRange(t, c) {
			return
		}
	default:
		return
	}
	e.target[t] = w.id(a)
	e.phase[t] &^= phaseChaseField
}

// reap removes the units killed this tick.
func (w *World) reap() {
	for j, s := range w.dying {
		i := int(s)
		e := &w.e
		if e.kind[i] == KindNone {
			continue
		}
		w.emit(Event{Kind: EvDied, Player: e.owner[i], Other: w.killers[j], Unit: w.id(i),
			UnitKind: e.kind[i], Pos: w.pos(i)})
		w.pl[e.owner[i]].lost++
		w.remove(i)
	}
	w.dying = w.dying[:0]
	w.killers = w.killers[:0]
}
