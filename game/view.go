package game

// Read-only accessors for render, sound, bots and tools. Slices they return
// are the world's own (no copy per frame); callers must not modify them, and
// they are valid until the next Step or Restore.

// Config returns the config the world was made from (defaults filled in).
func (w *World) Config() Config {
	c := w.cfg
	c.Players = append([]PlayerConfig(nil), c.Players...)
	return c
}

// Turn returns the number of Steps done.
func (w *World) Turn() int { return int(w.turn) }

// Size returns the map's width and height in tiles.
func (w *World) Size() (width, height int) { return w.w, w.h }

// Terrain returns every tile's terrain, row by row (index y*width + x).
func (w *World) Terrain() []Terrain { return w.terrain }

// Gold returns the gold left on every tile, row by row.
func (w *World) Gold() []uint16 { return w.gold }

// TerrainAt returns the terrain of tile (x, y); off the map is Rock.
func (w *World) TerrainAt(x, y int) Terrain {
	if !w.inMap(x, y) {
		return Rock
	}
	return w.terrain[y*w.w+x]
}

// Passable reports whether a unit may stand on tile (x, y): grass with no
// building on it.
func (w *World) Passable(x, y int) bool { return w.inMap(x, y) && !w.solid[y*w.w+x] }

// Starts returns the start position of every player (the center of its
// first base). Start positions are public knowledge, as on a printed map.
func (w *World) Starts() []Point { return w.starts }

// NumPlayers returns the number of player slots.
func (w *World) NumPlayers() int { return w.np }

// PlayerInfo is what everyone may know about a player, and what the player
// knows about itself.
type PlayerInfo struct {
	Team      Team
	Gold      int32
	Supply    int32 // used, counting queued units
	SupplyCap int32
	Out       bool
	OutTime   int // the game time (World.Time, paused turns not counted) it went out at, if Out
	Units     int
	Buildings int
	Mined     int32 // gold brought home
	Trained   int32
	Killed    int32 // enemy units and buildings destroyed
	Lost      int32
	Weapons   int // upgrade levels researched, 0 to MaxUpgradeLevel
	Armor     int
}

// Player returns player p's state.
func (w *World) Player(p PlayerID) PlayerInfo {
	if int(p) >= w.np {
		return PlayerInfo{Out: true}
	}
	pl := &w.pl[p]
	return PlayerInfo{Team: pl.team, Gold: pl.gold, Supply: pl.supplyUsed, SupplyCap: pl.supplyCap(),
		Out: pl.out, OutTime: int(pl.outTime), Units: int(pl.units), Buildings: int(pl.buildings),
		Mined: pl.mined, Trained: pl.trained, Killed: pl.killed, Lost: pl.lost,
		Weapons: int(pl.up[UpWeapons]), Armor: int(pl.up[UpArmor])}
}

// Level returns the level of upgrade u that player p has researched.
func (w *World) Level(p PlayerID, u Upgrade) int {
	if int(p) >= w.np || !u.Valid() {
		return 0
	}
	return int(w.pl[p].up[u])
}

// Researching reports whether a building of player p researches u now.
func (w *World) Researching(p PlayerID, u Upgrade) bool {
	return int(p) < w.np && u.Valid() && w.researching(p, u)
}

// Allied reports whether players a and b are on the same team (a player is
// its own ally).
func (w *World) Allied(a, b PlayerID) bool {
	return int(a) < w.np && int(b) < w.np && w.pl[a].team == w.pl[b].team
}

// Over reports whether the game has ended.
func (w *World) Over() bool { return w.over }

// Winner returns the winning team once the game is over; ok is false while
// it goes on and after a draw.
func (w *World) Winner() (team Team, ok bool) {
	if !w.over || w.winner < 0 {
		return 0, false
	}
	return Team(w.winner), true
}

// ByScore reports whether the game ended at ScoreTurn on score rather than
// with one team left standing.
func (w *World) ByScore() bool {
	if !w.over || w.winner < 0 {
		return false
	}
	for p := range w.np {
		if !w.pl[p].out && w.pl[p].team != Team(w.winner) {
			return true
		}
	}
	return false
}

// Winners returns the players of the winning team, in player order, once the
// game is over; nil while it goes on and after a draw.
func (w *World) Winners() []PlayerID {
	t, ok := w.Winner()
	if !ok {
		return nil
	}
	var ps []PlayerID
	for p := range w.np {
		if w.pl[p].team == t {
			ps = append(ps, PlayerID(p))
		}
	}
	return ps
}

// Units returns a view of every unit and building, indexed by slot. Iterate
// slots 0 to Len()-1 and skip those that are not Alive.
func (w *World) Units() Units { return Units{w} }

// Units is a zero-copy view of the entity columns.
type Units struct{ w *World }

func (u Units) Len() int                   { return u.w.e.len() }
func (u Units) Alive(i int) bool           { return u.w.e.kind[i] != KindNone }
func (u Units) ID(i int) UnitID            { return makeID(i, u.w.e.gen[i]) }
func (u Units) Kind(i int) Kind            { return u.w.e.kind[i] }
func (u Units) Owner(i int) PlayerID       { return u.w.e.owner[i] }
func (u Units) Pos(i int) Point            { return Point{u.w.e.x[i], u.w.e.y[i]} }
func (u Units) HP(i int) int32             { return u.w.e.hp[i] }
func (u Units) Order(i int) Order          { return u.w.e.order[i] }
func (u Units) Phase(i int) uint8          { return u.w.e.phase[i] }
func (u Units) Cargo(i int) int32          { return int32(u.w.e.cargo[i]) }
func (u Units) QueueLen(i int) int         { return int(u.w.e.qlen[i]) }
func (u Units) Research(i int) Upgrade     { return u.w.e.research[i] }
func (u Units) Target(i int) UnitID        { return u.w.e.target[i] }
func (u Units) IsBuilding(i int) bool      { return stats[u.w.e.kind[i]].Building }
func (u Units) Built(i int) bool           { return u.w.e.progress[i] >= stats[u.w.e.kind[i]].Time }
func (u Units) Slot(id UnitID) (int, bool) { s := u.w.lookup(id); return s, s >= 0 }

// UnitInfo is everything about one unit or building.
type UnitInfo struct {
	ID            UnitID
	Kind          Kind
	Owner         PlayerID
	Pos           Point
	HP, MaxHP     int32
	Order         Order
	Phase         uint8  // PhaseToField … for OrderGather
	Target        UnitID // attack target, or the base a worker carries gold to
	Goal          [2]int // tile of a move or attack-move, site of a build
	Cargo         int32
	Building      Kind  // what a worker is on its way to build
	Built         bool  // buildings: finished
	Progress      int32 // buildings: construction ticks done, of Kind.Stats().Time
	Queue         []Kind
	QueueProgress int32   // ticks spent on Queue[0] (of Queue[0].Stats().Time) or on Research
	Research      Upgrade // buildings: the upgrade being researched, UpNone for none
	Rally         [2]int
	HasRally      bool
}

// Unit returns the unit or building with the given ID.
func (w *World) Unit(id UnitID) (UnitInfo, bool) {
	i := w.lookup(id)
	if i < 0 {
		return UnitInfo{}, false
	}
	e := &w.e
	st := &stats[e.kind[i]]
	u := UnitInfo{ID: id, Kind: e.kind[i], Owner: e.owner[i], Pos: w.pos(i), HP: e.hp[i], MaxHP: st.HP,
		Order: e.order[i], Phase: e.phase[i], Target: e.target[i], Goal: [2]int{int(e.gx[i]), int(e.gy[i])},
		Cargo: int32(e.cargo[i]), Building: e.bkind[i]}
	if st.Building {
		u.Built = e.progress[i] >= st.Time
		u.Progress = e.progress[i]
		u.Queue = append([]Kind(nil), e.queue[i][:e.qlen[i]]...)
		u.QueueProgress = e.qprog[i]
		u.Research = e.research[i]
		u.Rally = [2]int{int(e.rallyX[i]), int(e.rallyY[i])}
		u.HasRally = e.rallyX[i] >= 0
	}
	return u, true
}
