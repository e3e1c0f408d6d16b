package ui

import "hostfall/game"

// Unit is one unit or building as the local player sees it this frame.
type Unit struct {
	ID        game.UnitID
	Kind      game.Kind
	Owner     game.PlayerID
	Pos       Vec // centre, in tiles, interpolated between the last two turns
	HP, MaxHP int32
	Size      float64 // tiles across: 1 for units, the footprint for buildings
	Building  bool
	Built     bool
	Own       bool // the local player's
	Ally      bool // the local player's or an ally's
	Cargo     bool // a worker carrying gold home
	Order     game.Order
}

// Box returns the unit's extent in the world.
func (u *Unit) Box() Rect {
	h := u.Size / 2
	if !u.Building {
		h = 0.45
	}
	return R(u.Pos.X-h, u.Pos.Y-h, u.Pos.X+h, u.Pos.Y+h)
}

// Scene is what the screen shows of the world in one frame: the units the
// player may see, with interpolated positions. It is built under the
// world's read lock and then used without it by the UI logic and the drawing.
type Scene struct {
	Turn       int
	MapW, MapH int
	Me         game.PlayerID
	Observer   bool   // sees everything (a spectator, or a player who is out)
	Units      []Unit // buildings first, then units
	bySlot     []int32
}

// slotOf returns the entity slot of an ID: its low 16 bits (see game.UnitID).
func slotOf(id game.UnitID) int { return int(id & 0xFFFF) }

// Find returns the scene unit with the given ID.
func (sc *Scene) Find(id game.UnitID) (*Unit, bool) {
	s := slotOf(id)
	if s >= len(sc.bySlot) || sc.bySlot[s] < 0 {
		return nil, false
	}
	u := &sc.Units[sc.bySlot[s]]
	return u, u.ID == id
}

// Index rebuilds the lookup by ID; call it after filling Units by hand.
func (sc *Scene) Index() {
	n := 0
	for i := range sc.Units {
		n = max(n, slotOf(sc.Units[i].ID)+1)
	}
	sc.bySlot = grow(sc.bySlot, n)
	for i := range sc.bySlot {
		sc.bySlot[i] = -1
	}
	for i := range sc.Units {
		sc.bySlot[slotOf(sc.Units[i].ID)] = int32(i)
	}
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Extractor builds Scenes from a world, remembering the positions of the
// previous turn so it can interpolate. Reuse one across frames.
type Extractor struct {
	turn     int
	cur, old []game.Point
	curID    []game.UnitID
	oldID    []game.UnitID
	sc       Scene
}

// maxLerpTurns: a jump of more turns than this (a restore, a late join)
// snaps units to their places instead of sliding them there.
const maxLerpTurns = 4

// Extract returns the scene of w for player me at alpha (0 = the previous
// turn's positions, 1 = the current ones). observer shows every unit. The
// scene is reused by the next call.
func (e *Extractor) Extract(w *game.World, me game.PlayerID, observer bool, alpha float64) *Scene {
	us := w.Units()
	n := us.Len()
	if t := w.Turn(); t != e.turn || len(e.cur) != n {
		jump := t - e.turn
		e.old, e.cur = e.cur, e.old
		e.oldID, e.curID = e.curID, e.oldID
		e.cur = grow(e.cur, n)
		e.curID = grow(e.curID, n)
		for i := range n {
			e.cur[i], e.curID[i] = us.Pos(i), us.ID(i)
		}
		if jump <= 0 || jump > maxLerpTurns || len(e.old) == 0 {
			e.old = append(e.old[:0], e.cur...)
			e.oldID = append(e.oldID[:0], e.curID...)
		}
		e.turn = t
	}
	wd, ht := w.Size()
	sc := &e.sc
	*sc = Scene{Turn: w.Turn(), MapW: wd, MapH: ht, Me: me, Observer: observer, Units: sc.Units[:0], bySlot: sc.bySlot}
	fog := w.Fog(me)
	for pass := range 2 {
		for i := range n {
			if !us.Alive(i) || us.IsBuilding(i) != (pass == 0) {
				continue
			}
			owner := us.Owner(i)
			ally := w.Allied(me, owner)
			p := us.Pos(i)
			if !observer && !ally && !fog.Sees(p) {
				continue
			}
			k := us.Kind(i)
			st := k.Stats()
			u := Unit{ID: us.ID(i), Kind: k, Owner: owner, HP: us.HP(i), MaxHP: st.HP, Size: 1,
				Building: st.Building, Built: true, Own: owner == me && !observer, Ally: ally,
				Cargo: us.Cargo(i) > 0, Order: us.Order(i)}
			if st.Building {
				u.Size = float64(st.Size)
				u.Built = us.Built(i)
			}
			u.Pos = e.lerp(i, u.ID, alpha)
			sc.Units = append(sc.Units, u)
		}
	}
	sc.Index()
	return sc
}

func (e *Extractor) lerp(i int, id game.UnitID, alpha float64) Vec {
	cur := WorldPos(e.cur[i])
	if i >= len(e.old) || e.oldID[i] != id {
		return cur
	}
	return WorldPos(e.old[i]).Lerp(cur, alpha)
}

// WorldPos converts a game position (subunits) to tiles.
func WorldPos(p game.Point) Vec {
	return Vec{float64(p.X) / game.TileSize, float64(p.Y) / game.TileSize}
}
