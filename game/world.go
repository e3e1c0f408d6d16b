package game

import "math/bits"

// World is the whole state of one game. It is not safe for concurrent use;
// the caller owns it and steps it once a turn.
//
// State lives in plain integer slices. Everything a snapshot holds is listed
// in snapshot.go and everything Hash mixes in hash.go; fields marked "derived"
// below are rebuilt from that state on Restore, and fields marked "cache" never
// influence the simulation's result, only its speed.
type World struct {
	cfg    Config
	w, h   int
	turn   int32 // Steps done
	clock  int32 // Steps that moved the world: the game time (see pause.go)
	pause  pauseState
	rng    RNG
	over   bool
	winner int8 // winning team, -1 while playing or on a draw
	np     int
	pl     [MaxPlayers]player
	nteams int
	tidx   [MaxPlayers]uint8 // player → dense team index (derived from cfg)
	tnum   [MaxPlayers]Team  // dense team index → team

	terrain []Terrain
	gold    []uint16 // gold left on each tile
	starts  []Point  // start positions (tile centers of the first bases)

	e    entities
	free []int32 // free slots, used last-in first-out
	fog  []fogGrid

	occ   []int32 // derived: slot+1 of the unit or building on each tile
	solid []bool  // derived: not grass, or a building stands there
	cells cellGrid

	events  []Event
	dying   []int32
	killers []PlayerID
	paths   pathCache
	blockV  uint32   // cache: bumped whenever solid changes
	mark    []uint32 // scratch: de-duplicates a command's units
	markGen uint32
	sel     []int32 // scratch: the slots a command is about
}

type player struct {
	team      Team
	gold      int32
	out       bool
	outTime   int32 // game time (World.Time) when the player went out
	lastAlert int32 // turn of the last "under attack" event
	mined     int32 // statistics for summaries
	trained   int32
	killed    int32
	lost      int32
	up        [numUpgrades]uint8 // level of each upgrade researched
	pauses    uint8              // pauses used

	supplyUsed int32 // derived: units alive plus units queued
	supplyRaw  int32 // derived: what finished buildings provide, before MaxSupply
	buildings  int32 // derived: buildings standing, finished or not
	units      int32 // derived: units alive
}

// entities holds every unit and building as columns indexed by slot
// (struct of arrays: the hot loops touch few columns, and snapshots and
// hashes walk them in bulk). A slot whose kind is KindNone is free.
type entities struct {
	gen      []uint16
	kind     []Kind
	owner    []PlayerID
	x, y     []int32 // position, subunits
	hp       []int32
	order    []Order
	phase    []uint8
	target   []UnitID
	gx, gy   []int16 // goal tile (move, attack-move), top-left of the site (build)
	rx, ry   []int16 // gold tile a worker mines, -1 for none
	timer    []int16 // mining countdown
	cooldown []uint8
	cargo    []uint8
	blocked  []uint8 // ticks a mover has been stuck
	bkind    []Kind  // what a worker is going to build
	progress []int32 // construction ticks done (buildings)
	queue    [][QueueMax]Kind
	qlen     []uint8
	qprog    []int32   // ticks spent on queue[0], or on the research
	research []Upgrade // what a building researches (the next level), UpNone for nothing
	rallyX   []int16   // rally tile of a building, -1 for none
	rallyY   []int16

	hint []uint8 // cache: flow-field slot this unit used last
}

func (e *entities) len() int { return len(e.kind) }

// grow adds one free slot at the end of every column.
func (e *entities) grow() {
	e.gen = append(e.gen, 1)
	e.kind = append(e.kind, KindNone)
	e.owner = append(e.owner, 0)
	e.x = append(e.x, 0)
	e.y = append(e.y, 0)
	e.hp = append(e.hp, 0)
	e.order = append(e.order, 0)
	e.phase = append(e.phase, 0)
	e.target = append(e.target, 0)
	e.gx = append(e.gx, 0)
	e.gy = append(e.gy, 0)
	e.rx = append(e.rx, -1)
	e.ry = append(e.ry, -1)
	e.timer = append(e.timer, 0)
	e.cooldown = append(e.cooldown, 0)
	e.cargo = append(e.cargo, 0)
	e.blocked = append(e.blocked, 0)
	e.bkind = append(e.bkind, 0)
	e.progress = append(e.progress, 0)
	e.queue = append(e.queue, [QueueMax]Kind{})
	e.qlen = append(e.qlen, 0)
	e.qprog = append(e.qprog, 0)
	e.research = append(e.research, UpNone)
	e.rallyX = append(e.rallyX, -1)
	e.rallyY = append(e.rallyY, -1)
	e.hint = append(e.hint, 0)
}

// resize makes n free slots of generation 1, replacing all columns (for
// Restore: one allocation per column instead of n appends).
func (e *entities) resize(n int) {
	e.gen = make([]uint16, n)
	e.kind = make([]Kind, n)
	e.owner = make([]PlayerID, n)
	e.x = make([]int32, n)
	e.y = make([]int32, n)
	e.hp = make([]int32, n)
	e.order = make([]Order, n)
	e.phase = make([]uint8, n)
	e.target = make([]UnitID, n)
	e.gx = make([]int16, n)
	e.gy = make([]int16, n)
	e.rx = make([]int16, n)
	e.ry = make([]int16, n)
	e.timer = make([]int16, n)
	e.cooldown = make([]uint8, n)
	e.cargo = make([]uint8, n)
	e.blocked = make([]uint8, n)
	e.bkind = make([]Kind, n)
	e.progress = make([]int32, n)
	e.queue = make([][QueueMax]Kind, n)
	e.qlen = make([]uint8, n)
	e.qprog = make([]int32, n)
	e.research = make([]Upgrade, n)
	e.rallyX = make([]int16, n)
	e.rallyY = make([]int16, n)
	e.hint = make([]uint8, n)
	for i := range n {
		e.gen[i] = 1
		e.rx[i], e.ry[i] = -1, -1
		e.rallyX[i], e.rallyY[i] = -1, -1
	}
}

// clear resets slot i to a free slot of the next generation.
func (e *entities) clear(i int) {
	g := e.gen[i] + 1
	if g == 0 {
		g = 1
	}
	e.gen[i] = g
	e.kind[i] = KindNone
	e.owner[i] = 0
	e.x[i], e.y[i] = 0, 0
	e.hp[i] = 0
	e.order[i] = OrderIdle
	e.phase[i] = 0
	e.target[i] = 0
	e.gx[i], e.gy[i] = 0, 0
	e.rx[i], e.ry[i] = -1, -1
	e.timer[i] = 0
	e.cooldown[i] = 0
	e.cargo[i] = 0
	e.blocked[i] = 0
	e.bkind[i] = 0
	e.progress[i] = 0
	e.queue[i] = [QueueMax]Kind{}
	e.qlen[i] = 0
	e.qprog[i] = 0
	e.research[i] = UpNone
	e.rallyX[i], e.rallyY[i] = -1, -1
	e.hint[i] = 0
}

// NewWorld builds the world that cfg describes: the map from cfg.Seed, a
// base and four workers for every player. It fails only on a bad config.
func NewWorld(cfg Config) (*World, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	w := &World{}
	w.setup(cfg)
	w.rng = NewRNG(cfg.Seed, 0x776f726c64) // "world"
	w.generate()
	w.rebuildDerived()
	for p := range w.np {
		w.pl[p].gold = StartGold
		w.populate(PlayerID(p))
	}
	for k := range w.nteams {
		w.refreshFog(k)
	}
	return w, nil
}

// setup sizes the world for a normalized config; no entities yet.
func (w *World) setup(cfg Config) {
	w.cfg = cfg
	w.w, w.h = cfg.Width, cfg.Height
	w.np = len(cfg.Players)
	w.winner = -1
	w.nteams = 0
	for p, pc := range cfg.Players {
		k := -1
		for t := range w.nteams {
			if w.tnum[t] == pc.Team {
				k = t
			}
		}
		if k < 0 {
			k = w.nteams
			w.tnum[k] = pc.Team
			w.nteams++
		}
		w.tidx[p] = uint8(k)
		w.pl[p].team = pc.Team
		w.pl[p].lastAlert = -alertTicks
	}
	n := w.w * w.h
	w.terrain = make([]Terrain, n)
	w.gold = make([]uint16, n)
	w.occ = make([]int32, n)
	w.solid = make([]bool, n)
	w.fog = make([]fogGrid, w.nteams)
	for k := range w.fog {
		w.fog[k] = fogGrid{stamp: make([]uint32, n), cur: 1}
	}
	w.cells.init(w.w, w.h, w.nteams)
	w.paths.init(n)
}

// populate gives player p its first base and workers at its start.
func (w *World) populate(p PlayerID) {
	s := w.starts[p]
	tx, ty := s.Tile()
	w.placeBuilding(Base, p, tx-1, ty-1, true)
	for range 4 {
		x, y, ok := w.freeTileNear(tx-1, ty-1, 3, 3, s, 6)
		if !ok {
			break
		}
		if w.spawnUnit(Worker, p, x, y) >= 0 {
			w.pl[p].supplyUsed += stats[Worker].Supply
		}
	}
}

// rebuildDerived recomputes occ, solid, cells and the players' derived
// counters from the state columns.
func (w *World) rebuildDerived() {
	for t := range w.occ {
		w.occ[t] = 0
		w.solid[t] = w.terrain[t] != Grass
	}
	w.cells.reset()
	for p := range w.pl {
		pl := &w.pl[p]
		pl.supplyUsed, pl.supplyRaw, pl.buildings, pl.units = 0, 0, 0, 0
	}
	for i := range w.e.len() {
		k := w.e.kind[i]
		if k == KindNone {
			continue
		}
		pl := &w.pl[w.e.owner[i]]
		st := &stats[k]
		if st.Building {
			pl.buildings++
			if w.e.progress[i] >= st.Time {
				pl.supplyRaw += st.Provides
			}
			for q := range int(w.e.qlen[i]) {
				pl.supplyUsed += stats[w.e.queue[i][q]].Supply
			}
			x0, y0 := w.footprint(i)
			w.markFootprint(i, x0, y0, int(st.Size))
		} else {
			pl.units++
			pl.supplyUsed += st.Supply
			w.occ[w.tileOf(i)] = int32(i + 1)
		}
		w.cells.add(w.cellOfSlot(i), w.tidx[w.e.owner[i]])
	}
	w.blockV++
}

func (w *World) tileOf(i int) int {
	return int(w.e.y[i]>>TileShift)*w.w + int(w.e.x[i]>>TileShift)
}

// footprint returns the top-left tile of building i.
func (w *World) footprint(i int) (int, int) {
	s := stats[w.e.kind[i]].Size
	return int((w.e.x[i] - s*TileSize/2) >> TileShift), int((w.e.y[i] - s*TileSize/2) >> TileShift)
}

func (w *World) markFootprint(i, x0, y0, size int) {
	for y := y0; y < y0+size; y++ {
		for x := x0; x < x0+size; x++ {
			t := y*w.w + x
			w.occ[t] = int32(i + 1)
			w.solid[t] = true
		}
	}
}

func (w *World) clearFootprint(x0, y0, size int) {
	for y := y0; y < y0+size; y++ {
		for x := x0; x < x0+size; x++ {
			t := y*w.w + x
			w.occ[t] = 0
			w.solid[t] = w.terrain[t] != Grass
		}
	}
	w.blockV++
}

func (w *World) cellOfSlot(i int) int {
	return w.cells.of(int(w.e.x[i]>>TileShift), int(w.e.y[i]>>TileShift))
}

// alloc returns a free slot, or -1 when the world is full.
func (w *World) alloc() int {
	if n := len(w.free); n > 0 {
		s := w.free[n-1]
		w.free = w.free[:n-1]
		return int(s)
	}
	if w.e.len() >= MaxEntities {
		return -1
	}
	w.e.grow()
	w.mark = append(w.mark, 0)
	return w.e.len() - 1
}

// spawnUnit puts a new unit of kind k on the free tile (x, y). The caller has
// already accounted for its supply. It returns the slot, or -1 when full.
func (w *World) spawnUnit(k Kind, p PlayerID, x, y int) int {
	i := w.alloc()
	if i < 0 {
		return -1
	}
	e := &w.e
	e.kind[i] = k
	e.owner[i] = p
	c := TileCenter(x, y)
	e.x[i], e.y[i] = c.X, c.Y
	e.hp[i] = stats[k].HP
	w.occ[y*w.w+x] = int32(i + 1)
	w.cells.add(w.cells.of(x, y), w.tidx[p])
	w.pl[p].units++
	return i
}

// placeBuilding puts building k with its top-left corner on (x0, y0). The
// footprint must be free. built makes it finished at once (start bases).
func (w *World) placeBuilding(k Kind, p PlayerID, x0, y0 int, built bool) int {
	i := w.alloc()
	if i < 0 {
		return -1
	}
	st := &stats[k]
	e := &w.e
	e.kind[i] = k
	e.owner[i] = p
	e.x[i] = int32(x0)<<TileShift + st.Size*TileSize/2
	e.y[i] = int32(y0)<<TileShift + st.Size*TileSize/2
	if built {
		e.progress[i] = st.Time
		e.hp[i] = st.HP
		w.pl[p].supplyRaw += st.Provides
	} else {
		e.hp[i] = st.HP / 10
	}
	w.markFootprint(i, x0, y0, int(st.Size))
	w.blockV++
	w.cells.add(w.cellOfSlot(i), w.tidx[p])
	w.pl[p].buildings++
	return i
}

// remove deletes entity i at once: frees its tiles, gives back what it had
// reserved, and frees its slot. It emits nothing.
func (w *World) remove(i int) {
	e := &w.e
	k := e.kind[i]
	p := e.owner[i]
	pl := &w.pl[p]
	st := &stats[k]
	w.cells.remove(w.cellOfSlot(i), w.tidx[p])
	if st.Building {
		x0, y0 := w.footprint(i)
		w.clearFootprint(x0, y0, int(st.Size))
		pl.buildings--
		if e.progress[i] >= st.Time {
			pl.supplyRaw -= st.Provides
		}
		for q := range int(e.qlen[i]) {
			qk := e.queue[i][q]
			pl.supplyUsed -= stats[qk].Supply
			pl.gold += stats[qk].Cost
		}
		if u := e.research[i]; u != UpNone {
			pl.gold += u.Cost(int(pl.up[u]) + 1)
		}
	} else {
		w.occ[w.tileOf(i)] = 0
		pl.units--
		pl.supplyUsed -= st.Supply
		w.cancelBuild(i)
	}
	e.clear(i)
	w.free = append(w.free, int32(i))
}

// cancelBuild refunds a worker's pending building.
func (w *World) cancelBuild(i int) {
	e := &w.e
	if e.order[i] == OrderBuild && e.bkind[i] != KindNone {
		w.pl[e.owner[i]].gold += stats[e.bkind[i]].Cost
		e.bkind[i] = KindNone
	}
}

// lookup returns the slot of a living entity, or -1.
func (w *World) lookup(id UnitID) int {
	s := id.slot()
	if id == NoUnit || s >= w.e.len() || w.e.gen[s] != id.gen() || w.e.kind[s] == KindNone {
		return -1
	}
	return s
}

func (w *World) id(i int) UnitID { return makeID(i, w.e.gen[i]) }

func (w *World) inMap(x, y int) bool { return x >= 0 && y >= 0 && x < w.w && y < w.h }

func (w *World) enemies(a, b PlayerID) bool { return w.pl[a].team != w.pl[b].team }

// freeTileNear finds a free, passable tile in the rings around the rectangle
// (x0, y0, sw, sh), out to distance maxR, nearest the point near (ties in scan
// order). It is how units leave buildings and step off building sites.
func (w *World) freeTileNear(x0, y0, sw, sh int, near Point, maxR int) (int, int, bool) {
	for r := 1; r <= maxR; r++ {
		best, bd := -1, int64(0)
		forRing(x0-r, y0-r, x0+sw-1+r, y0+sh-1+r, func(x, y int) {
			if !w.inMap(x, y) {
				return
			}
			t := y*w.w + x
			if w.solid[t] || w.occ[t] != 0 {
				return
			}
			c := TileCenter(x, y)
			if d := dist2(c.X-near.X, c.Y-near.Y); best < 0 || d < bd {
				best, bd = t, d
			}
		})
		if best >= 0 {
			return best % w.w, best / w.w, true
		}
	}
	return 0, 0, false
}

// forRing calls fn for every tile on the border of the rectangle from
// (ax, ay) to (bx, by) inclusive: the top row, the bottom row, then the left
// and right columns between them.
func forRing(ax, ay, bx, by int, fn func(x, y int)) {
	for x := ax; x <= bx; x++ {
		fn(x, ay)
	}
	if by == ay {
		return
	}
	for x := ax; x <= bx; x++ {
		fn(x, by)
	}
	for y := ay + 1; y < by; y++ {
		fn(ax, y)
		if bx != ax {
			fn(bx, y)
		}
	}
}

func dist2(dx, dy int32) int64 { return int64(dx)*int64(dx) + int64(dy)*int64(dy) }

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// isqrt returns floor(sqrt(v)) for v >= 0.
func isqrt(v int64) int64 {
	if v <= 0 {
		return 0
	}
	r := int64(1) << ((bits.Len64(uint64(v)) + 1) / 2)
	for {
		n := (r + v/r) / 2
		if n >= r {
			return r
		}
		r = n
	}
}
