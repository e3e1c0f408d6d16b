package ai

import "hostfall/game"

// remember updates what the bot knows of enemy buildings: adds those in
// sight, forgets those whose place is in sight and empty. Enemy starts are
// known from the map until seen empty.
func (b *Bot) remember(w *game.World) {
	if b.known == nil {
		for p, s := range w.Starts() {
			if !w.Allied(b.player, game.PlayerID(p)) {
				b.known = append(b.known, s)
			}
		}
	}
	for _, e := range b.v.enemies {
		if e.kind.IsBuilding() && !b.knows(e.pos) {
			b.known = append(b.known, e.pos)
		}
	}
	fog := w.Fog(b.player)
	kept := b.known[:0]
	for _, k := range b.known {
		if fog.Sees(k) && !b.enemyBuildingNear(k) {
			continue
		}
		kept = append(kept, k)
	}
	b.known = kept
}

func (b *Bot) knows(p game.Point) bool {
	for _, k := range b.known {
		if k == p {
			return true
		}
	}
	return false
}

func (b *Bot) enemyBuildingNear(p game.Point) bool {
	for _, e := range b.v.enemies {
		if e.kind.IsBuilding() && tileDist(e.pos, p) <= 2 {
			return true
		}
	}
	return false
}

// pickTarget returns the known enemy building nearest home; with none known
// it heads for a random place (away from the map's edges) to look around,
// so that an army wandering from place to place finds every building in
// the end, however far out of the way.
func (b *Bot) pickTarget(w *game.World) (game.Point, bool) {
	v := &b.v
	best, bd := game.Point{}, -1
	for _, k := range b.known {
		if d := tileDist(k, v.home); bd < 0 || d < bd {
			best, bd = k, d
		}
	}
	if bd >= 0 {
		return best, true
	}
	width, height := w.Size()
	x := width/10 + b.rng.Intn(width*4/5)
	y := height/10 + b.rng.Intn(height*4/5)
	return game.TileCenter(x, y), true
}
