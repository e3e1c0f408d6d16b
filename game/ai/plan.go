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
	if len(v.idle) > 0 {
		for _, base := range v.bases {
			if g, ok := b.goldNear(w, base.pos); ok && base.built {
				c := b.cmd(game.CmdGather, append([]game.UnitID(nil), v.idle...))
				c.X, c.Y = int32(g[0]), int32(g[1])
				cmds = append(cmds, c)
				break
			}
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

// construction adds, one at a time, a base at the next gold (for bots that
// expand), barracks (for the army and for supply), a workshop and towers.
func (b *Bot) construction(w *game.World, cmds []game.Command) []game.Command {
	v := &b.v
	if !v.hasHome || v.builders > 0 || len(v.workers) == 0 {
		return cmds
	}
	if b.prof.expand && v.building == 0 && len(v.workers) >= min(12, b.prof.workers) && v.gold >= game.Base.Stats().Cost+100 {
		if x, y, ok := b.expansion(w); ok {
			return append(cmds, b.build(game.Base, x, y))
		}
	}
	k, ok := b.nextBuilding()
	if !ok {
		return cmds
	}
	if v.gold < k.Stats().Cost {
		if b.prof.saves {
			v.gold -= k.Stats().Cost // booked, so the units wait for it
		}
		return cmds
	}
	x, y, ok := b.site(w, k)
	if !ok {
		return cmds
	}
	return append(cmds, b.build(k, x, y))
}

// nextBuilding picks what to build next: supply when it runs short, then
// the barracks, the workshop and the towers the level wants.
func (b *Bot) nextBuilding() (game.Kind, bool) {
	v := &b.v
	p := &b.prof
	nw := len(v.workers)
	switch {
	case v.cap < game.MaxSupply && v.cap+v.pending-v.supply <= int32(p.supplyAhead) && v.building < p.builds:
		return game.Barracks, true
	case len(v.barracks) < p.barracks && nw >= min(4+3*len(v.barracks), p.workers):
		return game.Barracks, true
	case len(v.workshops) < p.workshops && len(v.barracks) > len(v.workshops) && nw >= 8:
		return game.Workshop, true
	case len(v.towers) < p.towers && len(v.barracks) > 0 && v.building < p.builds && v.turn > 2400:
		return game.Tower, true
	case v.gold >= 600 && len(v.barracks) < 4 && v.building == 0:
		return game.Barracks, true // gold piles up: train faster
	}
	return game.KindNone, false
}

// build sends a worker to put building k at (x, y), booking its cost.
func (b *Bot) build(k game.Kind, x, y int) game.Command {
	b.v.gold -= k.Stats().Cost
	c := b.cmd(game.CmdBuild, []game.UnitID{b.builder()})
	c.Build, c.X, c.Y = k, int32(x), int32(y)
	return c
}

// research keeps an idle workshop on the next upgrade the level wants once
// the army is half a first wave and the gold is there.
func (b *Bot) research(w *game.World, cmds []game.Command) []game.Command {
	v := &b.v
	if b.prof.upgrades == 0 || !b.attacked && !b.prof.earlyTech || !b.enoughCatapults() && b.siege < 2 {
		return cmds // two catapults, then a level, while the siege is short
	}
	for j := range v.workshops {
		ws := &v.workshops[j]
		if !ws.built || ws.busy || ws.qlen > 0 {
			continue
		}
		u, ok := b.nextUpgrade(w)
		if !ok {
			return cmds
		}
		cost := u.Cost(w.Level(b.player, u) + 1)
		v.gold -= cost // saved for first: a bot that buys units whenever it can never has it
		if v.gold < 0 {
			return cmds
		}
		ws.busy = true // trains nothing this decision
		b.siege = 0
		c := b.cmd(game.CmdResearch, []game.UnitID{ws.id})
		c.Upgrade = u
		return append(cmds, c)
	}
	return cmds
}

// nextUpgrade returns the upgrade of lowest level below the level's cap
// that nobody researches now (weapons first on a tie).
func (b *Bot) nextUpgrade(w *game.World) (game.Upgrade, bool) {
	best, bl := game.UpNone, 0
	for _, u := range game.Upgrades() {
		l := w.Level(b.player, u)
		if l >= b.prof.upgrades || w.Researching(b.player, u) {
			continue
		}
		if best == game.UpNone || l < bl {
			best, bl = u, l
		}
	}
	return best, best != game.UpNone
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

// army trains fighters, defends home and sends waves at the enemy; a bot
// whose income has stopped attacks with everything, workers last.
func (b *Bot) army(w *game.World, cmds []game.Command) []game.Command {
	v := &b.v
	cmds = b.trainArmy(cmds)
	if b.broke() && v.turn >= b.prof.firstAttack {
		if len(v.army) == 0 {
			return b.allIn(w, cmds, v.workers)
		}
		return b.allIn(w, cmds, v.army)
	}
	if len(v.army) == 0 {
		return cmds
	}
	if c, ok := b.defend(); ok {
		return append(cmds, c)
	}
	if v.turn < b.prof.firstAttack {
		return cmds
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
	if len(v.army) > b.peak {
		b.peak, b.peakAt = len(v.army), v.turn
	}
	stalled := v.turn-b.peakAt > 1200 && len(ready) >= min(6, b.wave) // a minute without growth: go anyway
	if len(ready) >= b.wave || stalled {
		b.peak, b.peakAt = 0, v.turn
		cmds = append(cmds, b.moveTo(game.CmdAttackMove, ready, target))
		b.wave = min(b.wave+b.prof.waveGrowth, b.prof.waveMax)
		b.target, b.attacked = target, true
	}
	return cmds
}

// trainArmy keeps every workshop and barracks training, up to the level's
// army size: a catapult for every few others first (soldiers would
// otherwise take all the gold), then soldiers, and archers as many as
// soldiers.
func (b *Bot) trainArmy(cmds []game.Command) []game.Command {
	v := &b.v
	room := b.armyCap() - v.count(game.Catapult) - v.count(game.Soldier) - v.count(game.Archer)
	if room <= 0 || v.turn < b.prof.armyFrom {
		return cmds
	}
	if !b.enoughCatapults() {
		n := len(cmds)
		if cmds = b.trainCatapult(cmds); len(cmds) > n {
			room--
		}
	}
	for _, br := range v.barracks {
		if room <= 0 {
			break
		}
		if !br.built || br.qlen >= b.prof.queue {
			continue
		}
		k := game.Soldier
		if b.prof.archers > 0 && v.count(game.Archer)*b.prof.archers < v.count(game.Soldier) {
			k = game.Archer
		}
		if b.afford(k) {
			cmds = append(cmds, b.train(br.id, k))
			v.queued[k]++
			room--
		}
	}
	return cmds
}

// armyCap is how many fighters the bot keeps: the level's armyMax, and for
// easy one more every minute after its first attack, so two easy bots
// facing each other's towers do not trade small waves for ever.
func (b *Bot) armyCap() int {
	p := &b.prof
	if p.armyGrowth == 0 || b.v.turn <= p.firstAttack {
		return p.armyMax
	}
	return p.armyMax + (b.v.turn-p.firstAttack)/p.armyGrowth
}

// trainCatapult has an idle workshop train a catapult, or, short of gold,
// saves for it: the soldiers would otherwise take every coin first.
func (b *Bot) trainCatapult(cmds []game.Command) []game.Command {
	v := &b.v
	for _, ws := range v.workshops {
		if !ws.built || ws.busy || ws.qlen > 0 {
			continue
		}
		if !b.afford(game.Catapult) {
			v.gold -= game.Catapult.Stats().Cost
			return cmds
		}
		v.queued[game.Catapult]++
		b.siege++
		return append(cmds, b.train(ws.id, game.Catapult))
	}
	return cmds
}

// enoughCatapults reports whether the army has its share of catapults (a
// workshop researches only then, so research does not starve the siege).
func (b *Bot) enoughCatapults() bool {
	v := &b.v
	return b.prof.catapults == 0 || v.count(game.Catapult)*b.prof.catapults >= v.count(game.Soldier)+v.count(game.Archer)
}

// defend sends the army near home at an attack on home of the last 5 s.
func (b *Bot) defend() (game.Command, bool) {
	v := &b.v
	if !b.prof.defend || b.alarmAt < 0 || v.turn-b.alarmAt >= 100 || tileDist(b.alarm, v.home) > 20 {
		return game.Command{}, false
	}
	var defenders []unit
	for _, u := range v.army {
		if tileDist(u.pos, v.home) <= 24 && u.order != game.OrderAttack {
			defenders = append(defenders, u)
		}
	}
	if len(defenders) == 0 {
		return game.Command{}, false
	}
	b.alarmAt = -1
	return b.moveTo(game.CmdAttackMove, defenders, b.alarm), true
}

// allIn sends every idle unit of us at the enemy; once a minute it sends
// all of them, busy or not, and every other time to a random place rather
// than the nearest known building: an army that waits behind something it
// cannot pass, or heads for a place it cannot reach, gets going again.
func (b *Bot) allIn(w *game.World, cmds []game.Command, us []unit) []game.Command {
	v := &b.v
	shake := v.turn-b.shookAt >= 1200
	var sent []unit
	for _, u := range us {
		if shake || u.order == game.OrderIdle {
			sent = append(sent, u)
		}
	}
	if len(sent) == 0 {
		return cmds
	}
	target, ok := b.pickTarget(w)
	if !ok {
		return cmds
	}
	if shake {
		b.shookAt = v.turn
		if b.rng.Intn(2) == 0 {
			width, height := w.Size()
			target = game.TileCenter(width/10+b.rng.Intn(width*4/5), height/10+b.rng.Intn(height*4/5))
		}
	}
	b.target, b.attacked = target, true
	return append(cmds, b.moveTo(game.CmdAttackMove, sent, target))
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

// expansion finds a site for a new base when the gold near the bases runs
// low: by the explored gold nearest home that no base of ours stands near.
func (b *Bot) expansion(w *game.World) (int, int, bool) {
	v := &b.v
	left := 0
	for _, base := range v.bases {
		left += b.goldAround(w, base.pos, 12)
	}
	if left > 4000 || len(v.bases) >= 3 {
		return 0, 0, false
	}
	fog := w.Fog(b.player)
	gold := w.Gold()
	width, height := w.Size()
	hx, hy := v.home.Tile()
	best, bd := -1, -1
	for t, g := range gold {
		x, y := t%width, t/width
		if g == 0 || fog.At(x, y) == game.Unexplored {
			continue
		}
		if d := max(abs(x-hx), abs(y-hy)); (bd < 0 || d < bd) && !b.baseNear(game.TileCenter(x, y), 12) {
			best, bd = t, d
		}
	}
	if best < 0 {
		return 0, 0, false
	}
	gx, gy := best%width, best/width
	for r := 3; r <= 7; r++ {
		for j := range 8 * r {
			dx, dy := ringOffset(r, j)
			x0, y0 := gx+dx-1, gy+dy-1
			if x0 < 1 || y0 < 1 || x0+4 > width || y0+4 > height {
				continue
			}
			if w.CanBuild(b.player, game.Base, x0, y0) == game.ReasonNone && b.clearOfGold(w, x0, y0, 3, 2) {
				return x0, y0, true
			}
		}
	}
	return 0, 0, false
}

// goldAround sums the gold within r tiles of p.
func (b *Bot) goldAround(w *game.World, p game.Point, r int) int {
	width, height := w.Size()
	gold := w.Gold()
	px, py := p.Tile()
	sum := 0
	for y := max(py-r, 0); y <= min(py+r, height-1); y++ {
		for x := max(px-r, 0); x <= min(px+r, width-1); x++ {
			sum += int(gold[y*width+x])
		}
	}
	return sum
}

func (b *Bot) baseNear(p game.Point, r int) bool {
	for _, base := range b.v.bases {
		if tileDist(base.pos, p) <= r {
			return true
		}
	}
	return false
}

// clearOfGold reports whether no gold lies within gap tiles of the square.
func (b *Bot) clearOfGold(w *game.World, x0, y0, size, gap int) bool {
	width, height := w.Size()
	gold := w.Gold()
	for y := max(y0-gap, 0); y < min(y0+size+gap, height); y++ {
		for x := max(x0-gap, 0); x < min(x0+size+gap, width); x++ {
			if gold[y*width+x] > 0 {
				return false
			}
		}
	}
	return true
}
