package ai

import "hostfall/game"

// economy keeps the bases training workers and every idle worker mining.
func (b *Bot) economy(w *game.World, cmds []game.Command) []game.Command {
	v := &b.v
	want := b.prof.workers * max(len(v.bases), 1)
	have := v.count(game.Worker)
	for _, base := range v.bases {
		if !base.built {
			continue
		}
		if info, ok := w.Unit(base.id); ok && !info.HasRally {
			if g, ok := b.goldNear(w, base.pos); ok {
				c := b.cmd(game.CmdRally, []game.UnitID{base.id})
				c.X, c.Y = int32(g[0]), int32(g[1])
				cmds = append(cmds, c)
			}
		}
		if have < want && base.qlen < b.prof.queue && b.afford(game.Worker) {
			cmds = append(cmds, b.train(base.id, game.Worker))
			have++
		}
	}
	if len(v.idle) > 0 && v.hasHome {
		if g, ok := b.goldNear(w, v.home); ok {
			c := b.cmd(game.CmdGather, append([]game.UnitID(nil), v.idle...))
			c.X, c.Y = int32(g[0]), int32(g[1])
			cmds = append(cmds, c)
		}
	}
	return cmds
}

// afford reports whether k can be paid for and supplied now, and if so books
// it against this decision's budget.
func (b *Bot) afford(k game.Kind) bool {
	st := k.Stats()
	v := &b.v
	if v.gold < st.Cost || v.supply+st.Supply > v.cap {
		return false
	}
	v.gold -= st.Cost
	v.supply += st.Supply
	return true
}

func (b *Bot) train(building game.UnitID, k game.Kind) game.Command {
	c := b.cmd(game.CmdTrain, []game.UnitID{building})
	c.Build = k
	return c
}

// goldNear returns the explored gold tile nearest p within 14 tiles.
func (b *Bot) goldNear(w *game.World, p game.Point) ([2]int, bool) {
	fog := w.Fog(b.player)
	gold := w.Gold()
	width, _ := w.Size()
	px, py := p.Tile()
	best, bd := [2]int{}, -1
	for y := py - 14; y <= py+14; y++ {
		for x := px - 14; x <= px+14; x++ {
			if fog.At(x, y) == game.Unexplored || gold[y*width+x] == 0 {
				continue
			}
			if d := (x-px)*(x-px) + (y-py)*(y-py); bd < 0 || d < bd {
				best, bd = [2]int{x, y}, d
			}
		}
	}
	return best, bd >= 0
}

// construction adds barracks (for the army and for supply).
func (b *Bot) construction(w *game.World, cmds []game.Command) []game.Command {
	v := &b.v
	if !v.hasHome || v.builders > 0 || len(v.workers) == 0 {
		return cmds
	}
	tight := v.cap < game.MaxSupply && v.cap-v.supply <= 2 && v.building == 0
	more := len(v.barracks) < b.prof.barracks && len(v.workers) >= 4+3*len(v.barracks)
	if !tight && !more {
		return cmds
	}
	if v.gold < game.Barracks.Stats().Cost {
		return cmds
	}
	x, y, ok := b.site(w, game.Barracks)
	if !ok {
		return cmds
	}
	v.gold -= game.Barracks.Stats().Cost
	c := b.cmd(game.CmdBuild, []game.UnitID{b.builder()})
	c.Build, c.X, c.Y = game.Barracks, int32(x), int32(y)
	return append(cmds, c)
}

// builder picks a worker, preferring one that is not carrying gold home.
func (b *Bot) builder() game.UnitID {
	ws := b.v.workers
	return ws[b.rng.Intn(len(ws))].id
}

// site finds a place for building k near home with a free tile all around
// it and away from the gold, so it blocks no path and no mining.
func (b *Bot) site(w *game.World, k game.Kind) (int, int, bool) {
	size := int(k.Stats().Size)
	hx, hy := b.v.home.Tile()
	start := b.rng.Intn(8)
	for r := 5; r <= 12; r++ {
		for j := range 8 * r {
			idx := (j + start*r) % (8 * r)
			dx, dy := ringOffset(r, idx)
			x0, y0 := hx+dx-size/2, hy+dy-size/2
			if w.CanBuild(b.player, k, x0, y0) != game.ReasonNone || !b.roomy(w, x0, y0, size) {
				continue
			}
			return x0, y0, true
		}
	}
	return 0, 0, false
}

// ringOffset returns the idx-th tile of the square ring of radius r.
func ringOffset(r, idx int) (int, int) {
	side := 2 * r
	switch s, o := idx/side, idx%side; s {
	case 0:
		return -r + o, -r
	case 1:
		return r, -r + o
	case 2:
		return r - o, r
	default:
		return -r, r - o
	}
}

// roomy reports whether the square and a margin of one tile are passable and
// no gold lies within three tiles.
func (b *Bot) roomy(w *game.World, x0, y0, size int) bool {
	for y := y0 - 1; y <= y0+size; y++ {
		for x := x0 - 1; x <= x0+size; x++ {
			if !w.Passable(x, y) {
				return false
			}
		}
	}
	width, height := w.Size()
	gold := w.Gold()
	for y := max(y0-3, 0); y < min(y0+size+3, height); y++ {
		for x := max(x0-3, 0); x < min(x0+size+3, width); x++ {
			if gold[y*width+x] > 0 {
				return false
			}
		}
	}
	return true
}

// army trains fighters, defends home and sends waves at the enemy.
func (b *Bot) army(w *game.World, cmds []game.Command) []game.Command {
	v := &b.v
	for _, br := range v.barracks {
		if !br.built || br.qlen >= b.prof.queue {
			continue
		}
		k := game.Soldier
		if b.prof.archers && v.count(game.Archer) < v.count(game.Soldier) {
			k = game.Archer
		}
		if b.afford(k) {
			cmds = append(cmds, b.train(br.id, k))
			v.queued[k]++
		}
	}
	if len(v.army) == 0 {
		return cmds
	}
	if b.prof.defend && b.alarmAt >= 0 && v.turn-b.alarmAt < 100 && tileDist(b.alarm, v.home) <= 20 {
		var defenders []unit
		for _, u := range v.army {
			if tileDist(u.pos, v.home) <= 24 && u.order != game.OrderAttack {
				defenders = append(defenders, u)
			}
		}
		if len(defenders) > 0 {
			cmds = append(cmds, b.moveTo(game.CmdAttackMove, defenders, b.alarm))
			b.alarmAt = -1
			return cmds
		}
	}
	var ready, stray []unit
	for _, u := range v.army {
		if u.order != game.OrderIdle {
			continue
		}
		if tileDist(u.pos, v.home) <= 16 {
			ready = append(ready, u)
		} else {
			stray = append(stray, u)
		}
	}
	target, ok := b.pickTarget(w)
	if !ok {
		return cmds
	}
	if len(stray) > 0 {
		cmds = append(cmds, b.moveTo(game.CmdAttackMove, stray, target))
	}
	if len(ready) >= b.wave {
		cmds = append(cmds, b.moveTo(game.CmdAttackMove, ready, target))
		b.wave = min(b.wave+b.prof.waveGrowth, b.prof.waveMax)
		b.target, b.attacked = target, true
	}
	return cmds
}

func (b *Bot) moveTo(kind game.CommandKind, us []unit, p game.Point) game.Command {
	if len(us) > game.MaxCommandUnits {
		us = us[:game.MaxCommandUnits]
	}
	c := b.cmd(kind, ids(us))
	x, y := p.Tile()
	c.X, c.Y = int32(x), int32(y)
	return c
}
