package game

// CopyTo makes dst an independent copy of w: the same state, hash and
// snapshot, sharing no memory with w, so one goroutine can read dst while
// another steps w. It reuses dst's buffers, so copying into the same dst
// every turn allocates nothing once the sizes settle. The path cache is not
// copied (a reader never moves units); dst computes paths anew if stepped.
func (w *World) CopyTo(dst *World) {
	old := *dst
	stamps := make([][]uint32, len(old.fog))
	for k := range old.fog {
		stamps[k] = old.fog[k].stamp
	}
	*dst = *w
	dst.cfg.Players = clone(old.cfg.Players, w.cfg.Players)
	dst.terrain = clone(old.terrain, w.terrain)
	dst.gold = clone(old.gold, w.gold)
	dst.starts = clone(old.starts, w.starts)
	w.e.copyTo(&dst.e, &old.e)
	dst.free = clone(old.free, w.free)
	dst.fog = clone(old.fog, w.fog)
	for k := range dst.fog {
		var buf []uint32
		if k < len(stamps) {
			buf = stamps[k]
		}
		dst.fog[k].stamp = clone(buf, w.fog[k].stamp)
	}
	dst.occ = clone(old.occ, w.occ)
	dst.solid = clone(old.solid, w.solid)
	dst.cells.count = clone(old.cells.count, w.cells.count)
	dst.cells.mask = clone(old.cells.mask, w.cells.mask)
	dst.events = clone(old.events, w.events)
	dst.dying = clone(old.dying, w.dying)
	dst.killers = clone(old.killers, w.killers)
	dst.paths = pathCache{}
	dst.paths.init(len(w.terrain))
	dst.mark = clone(old.mark, w.mark)
	dst.sel = clone(old.sel, w.sel)
}

// copyTo copies every column of e into dst, reusing the buffers of old.
func (e *entities) copyTo(dst, old *entities) {
	dst.gen = clone(old.gen, e.gen)
	dst.kind = clone(old.kind, e.kind)
	dst.owner = clone(old.owner, e.owner)
	dst.x = clone(old.x, e.x)
	dst.y = clone(old.y, e.y)
	dst.hp = clone(old.hp, e.hp)
	dst.order = clone(old.order, e.order)
	dst.phase = clone(old.phase, e.phase)
	dst.target = clone(old.target, e.target)
	dst.gx = clone(old.gx, e.gx)
	dst.gy = clone(old.gy, e.gy)
	dst.rx = clone(old.rx, e.rx)
	dst.ry = clone(old.ry, e.ry)
	dst.timer = clone(old.timer, e.timer)
	dst.cooldown = clone(old.cooldown, e.cooldown)
	dst.cargo = clone(old.cargo, e.cargo)
	dst.blocked = clone(old.blocked, e.blocked)
	dst.bkind = clone(old.bkind, e.bkind)
	dst.progress = clone(old.progress, e.progress)
	dst.queue = clone(old.queue, e.queue)
	dst.qlen = clone(old.qlen, e.qlen)
	dst.qprog = clone(old.qprog, e.qprog)
	dst.research = clone(old.research, e.research)
	dst.rallyX = clone(old.rallyX, e.rallyX)
	dst.rallyY = clone(old.rallyY, e.rallyY)
	dst.hint = clone(old.hint, e.hint)
}

// clone copies src into buf's storage when it is large enough (a nil src
// stays nil, so a copy compares equal field by field).
func clone[T any](buf, src []T) []T {
	if src == nil {
		return nil
	}
	return append(buf[:0], src...)
}
