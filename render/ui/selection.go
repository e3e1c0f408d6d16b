package ui

import (
	"slices"

	"hostfall/game"
)

// Pick returns the scene unit under world point p, or nil: a unit whose box
// contains p (the nearest centre if several do) beats a building.
func (sc *Scene) Pick(p Vec) *Unit {
	var best *Unit
	bestD := 0.0
	for i := range sc.Units {
		u := &sc.Units[i]
		if !u.Box().Contains(p) {
			continue
		}
		d := u.Pos.Sub(p).Len()
		switch {
		case best == nil, best.Building && !u.Building, best.Building == u.Building && d < bestD:
			best, bestD = u, d
		}
	}
	return best
}

// BoxSelect returns what a drag over world rectangle box selects: the
// player's units touching it; if there are none, the player's buildings;
// if there are none, one other unit or building.
func (sc *Scene) BoxSelect(box Rect) []game.UnitID {
	var units, buildings []game.UnitID
	var other game.UnitID
	for i := range sc.Units {
		u := &sc.Units[i]
		if !u.Box().Intersects(box) {
			continue
		}
		switch {
		case u.Own && !u.Building:
			units = append(units, u.ID)
		case u.Own:
			buildings = append(buildings, u.ID)
		case other == game.NoUnit:
			other = u.ID
		}
	}
	switch {
	case len(units) > 0:
		return units
	case len(buildings) > 0:
		return buildings
	case other != game.NoUnit:
		return []game.UnitID{other}
	}
	return nil
}

// SameKind returns the player's units of kind k inside world rectangle r
// (a double-click selects every one of a kind on screen).
func (sc *Scene) SameKind(k game.Kind, r Rect) []game.UnitID {
	var ids []game.UnitID
	for i := range sc.Units {
		u := &sc.Units[i]
		if u.Own && u.Kind == k && r.Contains(u.Pos) {
			ids = append(ids, u.ID)
		}
	}
	return ids
}

// Selection is the set of selected units, in the order they were selected:
// the first is the one whose voice answers and whose details show.
type Selection struct {
	IDs []game.UnitID
}

// Set replaces the selection.
func (s *Selection) Set(ids []game.UnitID) { s.IDs = append(s.IDs[:0], ids...) }

// Add adds ids not yet selected.
func (s *Selection) Add(ids []game.UnitID) {
	for _, id := range ids {
		if !s.Has(id) {
			s.IDs = append(s.IDs, id)
		}
	}
}

// Toggle adds id, or removes it if it was selected.
func (s *Selection) Toggle(id game.UnitID) {
	if i := slices.Index(s.IDs, id); i >= 0 {
		s.IDs = slices.Delete(s.IDs, i, i+1)
		return
	}
	s.IDs = append(s.IDs, id)
}

// Has reports whether id is selected.
func (s *Selection) Has(id game.UnitID) bool { return slices.Contains(s.IDs, id) }

// Clear empties the selection.
func (s *Selection) Clear() { s.IDs = s.IDs[:0] }

// Prune drops what the scene no longer shows (dead, or gone into the fog).
func (s *Selection) Prune(sc *Scene) {
	s.IDs = slices.DeleteFunc(s.IDs, func(id game.UnitID) bool {
		_, ok := sc.Find(id)
		return !ok
	})
}

// Units returns the selected scene units, in selection order.
func (s *Selection) Units(sc *Scene, dst []*Unit) []*Unit {
	dst = dst[:0]
	for _, id := range s.IDs {
		if u, ok := sc.Find(id); ok {
			dst = append(dst, u)
		}
	}
	return dst
}

// Own reports whether the selection holds the player's units (orders apply).
func (s *Selection) Own(sc *Scene) bool {
	for _, id := range s.IDs {
		if u, ok := sc.Find(id); ok && u.Own {
			return true
		}
	}
	return false
}

// Groups are the control groups 0 to 9.
type Groups [10][]game.UnitID

// Assign makes group n exactly ids (Ctrl+n).
func (g *Groups) Assign(n int, ids []game.UnitID) { g[n] = append(g[n][:0], ids...) }

// AddTo adds ids to group n (Shift+n).
func (g *Groups) AddTo(n int, ids []game.UnitID) {
	for _, id := range ids {
		if !slices.Contains(g[n], id) {
			g[n] = append(g[n], id)
		}
	}
}

// Recall returns group n without its dead members (which it forgets).
func (g *Groups) Recall(n int, sc *Scene) []game.UnitID {
	g[n] = slices.DeleteFunc(g[n], func(id game.UnitID) bool {
		u, ok := sc.Find(id)
		return !ok || !u.Own
	})
	return g[n]
}
