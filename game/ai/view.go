package ai

import "hostfall/game"

// unit is what a bot notes about one unit or building.
type unit struct {
	id    game.UnitID
	kind  game.Kind
	owner game.PlayerID
	pos   game.Point
	order game.Order
	built bool
	qlen  int
	busy  bool // a building researching
}

// view is the bot's picture of the world at one decision: its own forces in
// full, enemies only where its player has vision.
type view struct {
	turn      int
	gold      int32
	supply    int32
	cap       int32
	home      game.Point
	hasHome   bool
	workers   []unit
	idle      []game.UnitID // idle workers
	bases     []unit
	barracks  []unit
	towers    []unit
	workshops []unit
	army      []unit
	builders  int                    // workers walking to a site
	building  int                    // buildings under construction
	pending   int32                  // supply that buildings under construction will give
	queued    [game.Catapult + 1]int // by kind (Catapult is the last kind)
	enemies   []unit
}

func (v *view) scan(w *game.World, p game.PlayerID) {
	pi := w.Player(p)
	*v = view{turn: w.Turn(), gold: pi.Gold, supply: pi.Supply, cap: pi.SupplyCap,
		workers: v.workers[:0], idle: v.idle[:0], bases: v.bases[:0], barracks: v.barracks[:0],
		towers: v.towers[:0], workshops: v.workshops[:0], army: v.army[:0], enemies: v.enemies[:0]}
	fog := w.Fog(p)
	us := w.Units()
	for i := range us.Len() {
		if !us.Alive(i) {
			continue
		}
		u := unit{id: us.ID(i), kind: us.Kind(i), owner: us.Owner(i), pos: us.Pos(i), order: us.Order(i),
			built: !us.IsBuilding(i) || us.Built(i), qlen: us.QueueLen(i), busy: us.Research(i) != game.UpNone}
		if u.owner != p {
			if !w.Allied(p, u.owner) && fog.Sees(u.pos) {
				v.enemies = append(v.enemies, u)
			}
			continue
		}
		if !u.built {
			v.building++
			v.pending += u.kind.Stats().Provides
		}
		switch u.kind {
		case game.Worker:
			v.workers = append(v.workers, u)
			switch u.order {
			case game.OrderIdle:
				v.idle = append(v.idle, u.id)
			case game.OrderBuild:
				v.builders++
			}
		case game.Base:
			v.bases = append(v.bases, u)
			if u.built && !v.hasHome {
				v.home, v.hasHome = u.pos, true
			}
		case game.Barracks:
			v.barracks = append(v.barracks, u)
		case game.Tower:
			v.towers = append(v.towers, u)
		case game.Workshop:
			v.workshops = append(v.workshops, u)
		default:
			v.army = append(v.army, u)
		}
		if u.kind.IsBuilding() {
			if info, ok := w.Unit(u.id); ok {
				for _, k := range info.Queue {
					v.queued[k]++
				}
			}
		}
	}
	if !v.hasHome && len(v.bases) > 0 {
		v.home, v.hasHome = v.bases[0].pos, true
	}
}

func (v *view) count(k game.Kind) int {
	n := v.queued[k]
	switch k {
	case game.Worker:
		n += len(v.workers)
	default:
		for _, u := range v.army {
			if u.kind == k {
				n++
			}
		}
	}
	return n
}

func tileDist(a, b game.Point) int {
	ax, ay := a.Tile()
	bx, by := b.Tile()
	return max(abs(ax-bx), abs(ay-by))
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func ids(us []unit) []game.UnitID {
	out := make([]game.UnitID, len(us))
	for j, u := range us {
		out[j] = u.id
	}
	return out
}
