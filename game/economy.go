package game

// Economy: workers mine gold and carry it to the nearest base; workers
// place buildings, which then build themselves; buildings train units from
// a queue. Gold is paid when the command is given (so a refusal is
// immediate) and given back if the building never gets placed; supply is
// reserved when a unit is queued.

func (w *World) doGather(i int) {
	e := &w.e
	switch e.phase[i] {
	case PhaseToField:
		if g := w.adjacentGold(i); g >= 0 {
			e.rx[i], e.ry[i] = int16(g%w.w), int16(g/w.w)
			e.phase[i] = PhaseMining
			e.timer[i] = MineTicks
			e.blocked[i] = 0
			return
		}
		rx, ry := int(e.rx[i]), int(e.ry[i])
		if !w.inMap(rx, ry) || w.gold[ry*w.w+rx] == 0 {
			g := w.findGold(rx, ry, 10)
			if g < 0 {
				w.setOrder(i, OrderIdle)
				return
			}
			rx, ry = g%w.w, g/w.w
			e.rx[i], e.ry[i] = int16(rx), int16(ry)
		}
		if res, _, _ := w.followField(i, goldKey(rx, ry)); res == noPath {
			w.setOrder(i, OrderIdle)
		}
	case PhaseMining:
		t := int(e.ry[i])*w.w + int(e.rx[i])
		if w.gold[t] == 0 {
			e.phase[i] = PhaseToField
			return
		}
		if e.timer[i]--; e.timer[i] > 0 {
			return
		}
		amt := min(uint16(CarryGold), w.gold[t])
		w.gold[t] -= amt
		e.cargo[i] = uint8(amt)
		if w.gold[t] == 0 {
			w.deplete(t)
		}
		e.phase[i] = PhaseToBase
		e.target[i] = NoUnit
	case PhaseToBase:
		b := w.lookup(e.target[i])
		if b < 0 || e.kind[b] != Base || e.progress[b] < stats[Base].Time {
			if b = w.nearestBase(i); b < 0 {
				w.setOrder(i, OrderIdle)
				return
			}
			e.target[i] = w.id(b)
		}
		x0, y0 := w.footprint(b)
		if w.touches(i, x0, y0, 3) {
			pl := &w.pl[e.owner[i]]
			pl.gold += int32(e.cargo[i])
			pl.mined += int32(e.cargo[i])
			e.cargo[i] = 0
			e.phase[i] = PhaseToField
			return
		}
		if res, _, _ := w.followField(i, fieldKey(x0, y0, 3, 3, goalRect)); res == noPath {
			w.setOrder(i, OrderIdle)
		}
	}
}

// touches reports whether unit i stands next to (or on) the square of side
// size at (x0, y0).
func (w *World) touches(i, x0, y0, size int) bool {
	tx, ty := int(w.e.x[i]>>TileShift), int(w.e.y[i]>>TileShift)
	return tx >= x0-1 && tx <= x0+size && ty >= y0-1 && ty <= y0+size
}

// adjacentGold returns a gold tile next to unit i, preferring the one it
// mined last, or -1.
func (w *World) adjacentGold(i int) int {
	e := &w.e
	tx, ty := int(e.x[i]>>TileShift), int(e.y[i]>>TileShift)
	rx, ry := int(e.rx[i]), int(e.ry[i])
	if absInt(rx-tx) <= 1 && absInt(ry-ty) <= 1 && w.inMap(rx, ry) && w.gold[ry*w.w+rx] > 0 {
		return ry*w.w + rx
	}
	for k := range 8 {
		x, y := tx+dirX[k], ty+dirY[k]
		if w.inMap(x, y) && w.gold[y*w.w+x] > 0 {
			return y*w.w + x
		}
	}
	return -1
}

// findGold returns the gold tile nearest (x, y) within radius, or -1.
func (w *World) findGold(x, y, radius int) int {
	if w.inMap(x, y) && w.gold[y*w.w+x] > 0 {
		return y*w.w + x
	}
	for r := 1; r <= radius; r++ {
		found := -1
		forRing(x-r, y-r, x+r, y+r, func(gx, gy int) {
			if found < 0 && w.inMap(gx, gy) && w.gold[gy*w.w+gx] > 0 {
				found = gy*w.w + gx
			}
		})
		if found >= 0 {
			return found
		}
	}
	return -1
}

// deplete turns a mined-out gold tile into grass.
func (w *World) deplete(t int) {
	w.terrain[t] = Grass
	w.gold[t] = 0
	w.solid[t] = false
	w.blockV++
}

// nearestBase returns unit i's owner's nearest finished base, or -1.
func (w *World) nearestBase(i int) int {
	e := &w.e
	p := e.owner[i]
	best, bd := -1, int64(0)
	for b := range e.len() {
		if e.kind[b] != Base || e.owner[b] != p || e.progress[b] < stats[Base].Time || e.hp[b] <= 0 {
			continue
		}
		if d := dist2(e.x[b]-e.x[i], e.y[b]-e.y[i]); best < 0 || d < bd {
			best, bd = b, d
		}
	}
	return best
}

func (w *World) doBuild(i int) {
	e := &w.e
	k := e.bkind[i]
	size := int(stats[k].Size)
	x0, y0 := int(e.gx[i]), int(e.gy[i])
	if w.touches(i, x0, y0, size) {
		w.construct(i)
		return
	}
	res, _, _ := w.followField(i, fieldKey(x0, y0, size, size, goalRect))
	if res == noPath || res == stuck && e.blocked[i] >= giveUpTicks {
		w.refuse(e.owner[i], RejCannotBuild, TileCenter(x0, y0))
		w.setOrder(i, OrderIdle)
	}
}

// siteFree reports whether building k could stand at (x0, y0) now, ignoring
// units (they step aside).
func (w *World) siteFree(x0, y0, size int) bool {
	if !w.inMap(x0, y0) || !w.inMap(x0+size-1, y0+size-1) {
		return false
	}
	for y := y0; y < y0+size; y++ {
		for x := x0; x < x0+size; x++ {
			t := y*w.w + x
			if w.solid[t] {
				return false
			}
		}
	}
	return true
}

// construct places worker i's building on its site.
func (w *World) construct(i int) {
	e := &w.e
	k, p := e.bkind[i], e.owner[i]
	size := int(stats[k].Size)
	x0, y0 := int(e.gx[i]), int(e.gy[i])
	site := TileCenter(x0, y0)
	if !w.siteFree(x0, y0, size) || !w.clearSite(x0, y0, size) {
		w.refuse(p, RejCannotBuild, site)
		w.setOrder(i, OrderIdle)
		return
	}
	b := w.placeBuilding(k, p, x0, y0, false)
	if b < 0 {
		w.refuse(p, RejWorldFull, site)
		w.setOrder(i, OrderIdle)
		return
	}
	e.bkind[i] = KindNone // paid for and placed
	w.emit(Event{Kind: EvBuildStarted, Player: p, Other: NoPlayer, Unit: w.id(b), UnitKind: k, Pos: w.pos(b)})
	if e.rx[i] >= 0 {
		e.order[i] = OrderGather
		e.phase[i] = PhaseToField
		if e.cargo[i] > 0 {
			e.phase[i] = PhaseToBase
		}
		e.target[i] = NoUnit
		e.blocked[i] = 0
		return
	}
	w.setOrder(i, OrderIdle)
}

// clearSite moves every unit off the square to the nearest free tile
// around it. It fails, moving nobody, if there is no room.
func (w *World) clearSite(x0, y0, size int) bool {
	n := 0
	for y := y0; y < y0+size; y++ {
		for x := x0; x < x0+size; x++ {
			if w.occ[y*w.w+x] != 0 {
				n++
			}
		}
	}
	if n == 0 {
		return true
	}
	room := 0
	center := TileCenter(x0+size/2, y0+size/2)
	for r := 1; r <= 3 && room < n; r++ {
		forRing(x0-r, y0-r, x0+size-1+r, y0+size-1+r, func(x, y int) {
			if w.inMap(x, y) && !w.solid[y*w.w+x] && w.occ[y*w.w+x] == 0 {
				room++
			}
		})
	}
	if room < n {
		return false
	}
	for y := y0; y < y0+size; y++ {
		for x := x0; x < x0+size; x++ {
			if o := w.occ[y*w.w+x]; o != 0 {
				nx, ny, _ := w.freeTileNear(x0, y0, size, size, center, 3)
				w.teleport(int(o-1), nx, ny)
			}
		}
	}
	return true
}

// updateBuilding advances construction or the production queue.
func (w *World) updateBuilding(i int) {
	e := &w.e
	st := &stats[e.kind[i]]
	p := e.owner[i]
	if e.progress[i] < st.Time {
		e.progress[i]++
		e.hp[i] += buildHP(st, e.progress[i]) - buildHP(st, e.progress[i]-1)
		if e.progress[i] == st.Time {
			w.pl[p].supplyRaw += st.Provides
			w.emit(Event{Kind: EvBuildingDone, Player: p, Other: NoPlayer, Unit: w.id(i), UnitKind: e.kind[i], Pos: w.pos(i)})
		}
		return
	}
	if st.Damage > 0 {
		w.guard(i)
	}
	if e.research[i] != UpNone {
		w.doResearch(i)
		return
	}
	if e.qlen[i] == 0 {
		return
	}
	k := e.queue[i][0]
	if e.qprog[i] < stats[k].Time {
		e.qprog[i]++
		return
	}
	x0, y0 := w.footprint(i)
	near := w.pos(i)
	if e.rallyX[i] >= 0 {
		near = TileCenter(int(e.rallyX[i]), int(e.rallyY[i]))
	}
	x, y, ok := w.freeTileNear(x0, y0, int(st.Size), int(st.Size), near, 4)
	if !ok {
		return // no room: wait
	}
	u := w.spawnUnit(k, p, x, y)
	if u < 0 {
		return
	}
	copy(e.queue[i][:], e.queue[i][1:])
	e.queue[i][QueueMax-1] = KindNone
	e.qlen[i]--
	e.qprog[i] = 0
	w.pl[p].trained++
	w.emit(Event{Kind: EvTrained, Player: p, Other: NoPlayer, Unit: w.id(u), UnitKind: k, Pos: w.pos(u)})
	if e.rallyX[i] >= 0 {
		rx, ry := int(e.rallyX[i]), int(e.rallyY[i])
		if k == Worker && w.gold[ry*w.w+rx] > 0 {
			w.setOrder(u, OrderGather)
			e.rx[u], e.ry[u] = int16(rx), int16(ry)
		} else if gx, gy, ok := w.walkable(rx, ry); ok {
			w.setOrder(u, OrderMove)
			e.gx[u], e.gy[u] = int16(gx), int16(gy)
		}
	}
}

// doResearch advances building i's research; the level counts once done.
func (w *World) doResearch(i int) {
	e := &w.e
	u, p := e.research[i], e.owner[i]
	pl := &w.pl[p]
	if e.qprog[i] < u.Time(int(pl.up[u])+1) {
		e.qprog[i]++
		return
	}
	pl.up[u]++
	e.research[i] = UpNone
	e.qprog[i] = 0
	w.emit(Event{Kind: EvResearched, Player: p, Other: NoPlayer, Unit: w.id(i), UnitKind: e.kind[i],
		Upgrade: u, Level: pl.up[u], Pos: w.pos(i)})
}

// buildHP is a building's hit points after p ticks of construction, had it
// taken no damage: a tenth at the start, all at the end.
func buildHP(st *Stats, p int32) int32 {
	base := st.HP / 10
	return base + (st.HP-base)*p/st.Time
}

// refuse reports a refused command to player p.
func (w *World) refuse(p PlayerID, r Reason, at Point) {
	w.emit(Event{Kind: EvRejected, Reason: r, Player: p, Other: NoPlayer, Pos: at})
}
