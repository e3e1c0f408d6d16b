package game

// Applying commands. Every check here runs identically on every peer, so a
// refused command is refused everywhere, and nothing here can panic on any
// input. Unit IDs that name no living unit are skipped (the unit died after
// the player clicked); an ID of another player's unit refuses the whole
// command, since no honest client sends one.

func (w *World) apply(c *Command) {
	p := c.Player
	at := Point{}
	if w.inMap(int(c.X), int(c.Y)) {
		at = TileCenter(int(c.X), int(c.Y))
	}
	if int(p) >= w.np {
		w.emit(Event{Kind: EvRejected, Reason: RejUnknownPlayer, Player: p, Other: NoPlayer, Pos: at})
		return
	}
	if r := w.applyChecked(c); r != ReasonNone {
		w.refuse(p, r, at)
	}
}

func (w *World) applyChecked(c *Command) Reason {
	p := c.Player
	if w.pl[p].out {
		return RejPlayerOut
	}
	if c.Kind == CmdNone || c.Kind >= numCommandKinds {
		return RejUnknownKind
	}
	if len(c.Units) > MaxCommandUnits {
		return RejTooManyUnits
	}
	if w.pause.on && !pausedCommand(c.Kind) {
		return RejPaused
	}
	if r := w.selectUnits(c); r != ReasonNone {
		return r
	}
	switch c.Kind {
	case CmdMove, CmdAttackMove:
		return w.cmdMove(c)
	case CmdAttack:
		return w.cmdAttack(c)
	case CmdStop:
		for _, s := range w.sel {
			if !stats[w.e.kind[s]].Building {
				w.setOrder(int(s), OrderIdle)
			}
		}
	case CmdGather:
		return w.cmdGather(c)
	case CmdBuild:
		return w.cmdBuild(c)
	case CmdTrain:
		return w.cmdTrain(c)
	case CmdRally:
		return w.cmdRally(c)
	case CmdResearch:
		return w.cmdResearch(c)
	case CmdSurrender:
		w.eliminate(p)
	case CmdPause:
		return w.cmdPause(c)
	case CmdResume:
		return w.cmdResume(c)
	}
	return ReasonNone
}

// selectUnits fills w.sel with the distinct living entities c names.
func (w *World) selectUnits(c *Command) Reason {
	w.sel = w.sel[:0]
	w.markGen++
	if w.markGen == 0 {
		clear(w.mark)
		w.markGen = 1
	}
	for _, id := range c.Units {
		s := w.lookup(id)
		if s < 0 || w.e.hp[s] <= 0 {
			continue
		}
		if w.e.owner[s] != c.Player {
			return RejNotOwner
		}
		if w.mark[s] == w.markGen {
			continue
		}
		w.mark[s] = w.markGen
		w.sel = append(w.sel, int32(s))
	}
	return ReasonNone
}

func (w *World) cmdMove(c *Command) Reason {
	if !w.inMap(int(c.X), int(c.Y)) {
		return RejOutOfMap
	}
	o := OrderMove
	if c.Kind == CmdAttackMove {
		o = OrderAttackMove
	}
	gx, gy, ok := w.walkable(int(c.X), int(c.Y))
	if !ok {
		return RejBadTarget
	}
	n := 0
	for _, s := range w.sel {
		i := int(s)
		if stats[w.e.kind[i]].Building {
			continue
		}
		w.setOrder(i, o)
		w.e.gx[i], w.e.gy[i] = int16(gx), int16(gy)
		n++
	}
	if n == 0 {
		return RejWrongUnit
	}
	return ReasonNone
}

func (w *World) cmdAttack(c *Command) Reason {
	t := w.lookup(c.Target)
	if t < 0 || w.e.hp[t] <= 0 || !w.enemies(c.Player, w.e.owner[t]) {
		return RejBadTarget
	}
	if !w.Fog(c.Player).Sees(w.pos(t)) {
		return RejNotVisible
	}
	n := 0
	for _, s := range w.sel {
		i := int(s)
		if stats[w.e.kind[i]].Damage == 0 || stats[w.e.kind[i]].Building {
			continue
		}
		w.setOrder(i, OrderAttack)
		w.e.target[i] = c.Target
		n++
	}
	if n == 0 {
		return RejWrongUnit
	}
	return ReasonNone
}

func (w *World) cmdGather(c *Command) Reason {
	x, y := int(c.X), int(c.Y)
	if !w.inMap(x, y) {
		return RejOutOfMap
	}
	if w.gold[y*w.w+x] == 0 {
		return RejBadTarget
	}
	if w.Fog(c.Player).At(x, y) == Unexplored {
		return RejNotVisible
	}
	n := 0
	for _, s := range w.sel {
		i := int(s)
		if w.e.kind[i] != Worker {
			continue
		}
		w.setOrder(i, OrderGather)
		w.e.rx[i], w.e.ry[i] = int16(x), int16(y)
		if w.e.cargo[i] > 0 {
			w.e.phase[i] = PhaseToBase
		}
		n++
	}
	if n == 0 {
		return RejWrongUnit
	}
	return ReasonNone
}

func (w *World) cmdBuild(c *Command) Reason {
	k := c.Build
	if !k.IsBuilding() {
		return RejUnknownKind
	}
	size := int(stats[k].Size)
	x0, y0 := int(c.X), int(c.Y)
	if r := w.CanBuild(c.Player, k, x0, y0); r != ReasonNone {
		return r
	}
	// The worker nearest the site's center.
	center := TileCenter(x0+size/2, y0+size/2)
	wk, wd := -1, int64(0)
	for _, s := range w.sel {
		i := int(s)
		if w.e.kind[i] != Worker {
			continue
		}
		if d := dist2(w.e.x[i]-center.X, w.e.y[i]-center.Y); wk < 0 || d < wd {
			wk, wd = i, d
		}
	}
	if wk < 0 {
		return RejWrongUnit
	}
	pl := &w.pl[c.Player]
	refund := int32(0)
	if w.e.order[wk] == OrderBuild {
		refund = stats[w.e.bkind[wk]].Cost
	}
	if pl.gold+refund < stats[k].Cost {
		return RejNoGold
	}
	w.setOrder(wk, OrderBuild) // gives the refund back; keeps its mining job
	pl.gold -= stats[k].Cost
	w.e.bkind[wk] = k
	w.e.gx[wk], w.e.gy[wk] = int16(x0), int16(y0)
	return ReasonNone
}

func (w *World) cmdTrain(c *Command) Reason {
	k := c.Build
	if !k.Valid() || stats[k].Building {
		return RejUnknownKind
	}
	b, busy := -1, false
	for _, s := range w.sel {
		i := int(s)
		if w.e.kind[i] != stats[k].Trainer || w.e.progress[i] < stats[w.e.kind[i]].Time {
			continue
		}
		if w.e.research[i] != UpNone {
			busy = true
			continue
		}
		if b < 0 || w.e.qlen[i] < w.e.qlen[b] {
			b = i
		}
	}
	if b < 0 && busy {
		return RejBusy
	}
	if b < 0 {
		return RejWrongUnit
	}
	if w.e.qlen[b] >= QueueMax {
		return RejQueueFull
	}
	pl := &w.pl[c.Player]
	if pl.gold < stats[k].Cost {
		return RejNoGold
	}
	if pl.supplyUsed+stats[k].Supply > pl.supplyCap() {
		return RejNoSupply
	}
	pl.gold -= stats[k].Cost
	pl.supplyUsed += stats[k].Supply
	w.e.queue[b][w.e.qlen[b]] = k
	w.e.qlen[b]++
	return ReasonNone
}

// cmdResearch starts the next level of c.Upgrade at the first finished,
// idle workshop among the units. One building researches one thing at a
// time, and nothing else meanwhile; a level is researched at one place.
func (w *World) cmdResearch(c *Command) Reason {
	u := c.Upgrade
	if !u.Valid() {
		return RejUnknownKind
	}
	pl := &w.pl[c.Player]
	next := int(pl.up[u]) + 1
	if next > MaxUpgradeLevel {
		return RejMaxLevel
	}
	if w.researching(c.Player, u) {
		return RejResearching
	}
	b, busy := -1, false
	for _, s := range w.sel {
		i := int(s)
		if w.e.kind[i] != Workshop || w.e.progress[i] < stats[Workshop].Time {
			continue
		}
		if w.e.qlen[i] > 0 || w.e.research[i] != UpNone {
			busy = true
			continue
		}
		b = i
		break
	}
	switch {
	case b < 0 && busy:
		return RejBusy
	case b < 0:
		return RejWrongUnit
	case pl.gold < u.Cost(next):
		return RejNoGold
	}
	pl.gold -= u.Cost(next)
	w.e.research[b] = u
	w.e.qprog[b] = 0
	return ReasonNone
}

// researching reports whether a building of player p researches u now.
func (w *World) researching(p PlayerID, u Upgrade) bool {
	e := &w.e
	for i := range e.len() {
		if e.research[i] == u && e.kind[i] != KindNone && e.owner[i] == p {
			return true
		}
	}
	return false
}

func (w *World) cmdRally(c *Command) Reason {
	if !w.inMap(int(c.X), int(c.Y)) {
		return RejOutOfMap
	}
	n := 0
	for _, s := range w.sel {
		i := int(s)
		if !stats[w.e.kind[i]].Building {
			continue
		}
		w.e.rallyX[i], w.e.rallyY[i] = int16(c.X), int16(c.Y)
		n++
	}
	if n == 0 {
		return RejWrongUnit
	}
	return ReasonNone
}

// walkable returns (x, y) if a unit may stand there, else the nearest tile
// where one may (a move onto a building or a rock ends next to it).
func (w *World) walkable(x, y int) (int, int, bool) {
	if !w.solid[y*w.w+x] {
		return x, y, true
	}
	for r := 1; r <= 12; r++ {
		best, bd := -1, 0
		forRing(x-r, y-r, x+r, y+r, func(nx, ny int) {
			if !w.inMap(nx, ny) || w.solid[ny*w.w+nx] {
				return
			}
			if d := (nx-x)*(nx-x) + (ny-y)*(ny-y); best < 0 || d < bd {
				best, bd = ny*w.w+nx, d
			}
		})
		if best >= 0 {
			return best % w.w, best / w.w, true
		}
	}
	return 0, 0, false
}

// CanBuild says whether player p may put building k with its top-left
// corner on tile (x0, y0) now: ReasonNone, or why not. Units on the site do
// not count; they step aside. Gold is not checked.
func (w *World) CanBuild(p PlayerID, k Kind, x0, y0 int) Reason {
	if !k.IsBuilding() {
		return RejUnknownKind
	}
	if int(p) >= w.np {
		return RejUnknownPlayer
	}
	size := int(stats[k].Size)
	if !w.inMap(x0, y0) || !w.inMap(x0+size-1, y0+size-1) {
		return RejOutOfMap
	}
	fog := w.Fog(p)
	for y := y0; y < y0+size; y++ {
		for x := x0; x < x0+size; x++ {
			if fog.At(x, y) == Unexplored {
				return RejNotVisible
			}
		}
	}
	if !w.siteFree(x0, y0, size) {
		return RejCannotBuild
	}
	return ReasonNone
}

func (pl *player) supplyCap() int32 { return min(pl.supplyRaw, MaxSupply) }

// eliminate takes player p out of the game: every unit and building of
// theirs leaves the map.
func (w *World) eliminate(p PlayerID) {
	pl := &w.pl[p]
	if pl.out {
		return
	}
	for i := range w.e.len() {
		if w.e.kind[i] != KindNone && w.e.owner[i] == p {
			w.remove(i)
		}
	}
	pl.out = true
	pl.outTime = w.clock
	w.emit(Event{Kind: EvPlayerOut, Player: p, Other: NoPlayer, Pos: w.starts[p]})
}
