package game

import (
	"testing"
)

// newTestWorld returns a small free-for-all world.
func newTestWorld(tb testing.TB, players int) *World {
	tb.Helper()
	cfg := FreeForAll(3, players)
	cfg.Width, cfg.Height = 48, 48
	w, err := NewWorld(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return w
}

// flatWorld returns a world whose map is all grass, with players' bases at
// fixed places far apart, for scenario tests that place units by hand.
func flatWorld(tb testing.TB, size int, teams ...Team) *World {
	tb.Helper()
	cfg := Config{Seed: 1, Width: size, Height: size}
	for _, t := range teams {
		cfg.Players = append(cfg.Players, PlayerConfig{Team: t})
	}
	cfg, err := cfg.normalize()
	if err != nil {
		tb.Fatal(err)
	}
	w := &World{}
	w.setup(cfg)
	w.rng = NewRNG(1, 1)
	w.starts = make([]Point, w.np)
	for p := range w.np {
		x, y := 2+p*5, size-4
		w.starts[p] = TileCenter(x+1, y+1)
		w.placeBuilding(Base, PlayerID(p), x, y, true)
		w.pl[p].gold = 1000
		w.pl[p].lastAlert = -alertTicks
	}
	w.rebuildDerived()
	for k := range w.nteams {
		w.refreshFog(k)
	}
	return w
}

// put spawns a unit of kind k for p on tile (x, y), counting its supply.
func put(tb testing.TB, w *World, k Kind, p PlayerID, x, y int) UnitID {
	tb.Helper()
	i := w.spawnUnit(k, p, x, y)
	if i < 0 {
		tb.Fatal("world full")
	}
	w.pl[p].supplyUsed += stats[k].Supply
	return w.id(i)
}

// see makes every tile visible to every team (scenario tests).
func see(w *World) {
	for k := range w.fog {
		f := &w.fog[k]
		for t := range f.stamp {
			f.stamp[t] = f.cur
		}
	}
}

// checkInvariants checks what must hold between steps: one unit per tile,
// no unit on a solid tile, occupancy matching positions, and derived
// counters matching a recount.
func checkInvariants(tb testing.TB, w *World) {
	tb.Helper()
	e := &w.e
	seen := make([]int32, len(w.occ))
	for i := range e.len() {
		k := e.kind[i]
		if k == KindNone {
			continue
		}
		if e.hp[i] <= 0 {
			tb.Fatalf("entity %d (%s) has %d hp between steps", i, k, e.hp[i])
		}
		if stats[k].Building {
			x0, y0 := w.footprint(i)
			s := int(stats[k].Size)
			for y := y0; y < y0+s; y++ {
				for x := x0; x < x0+s; x++ {
					seen[y*w.w+x] = int32(i + 1)
				}
			}
			continue
		}
		t := w.tileOf(i)
		if seen[t] != 0 {
			tb.Fatalf("entities %d and %d share tile (%d,%d)", seen[t]-1, i, t%w.w, t/w.w)
		}
		if w.terrain[t] != Grass {
			tb.Fatalf("unit %d stands on %s", i, w.terrain[t])
		}
		seen[t] = int32(i + 1)
	}
	for t := range w.occ {
		if w.occ[t] != seen[t] {
			tb.Fatalf("occupancy of tile (%d,%d) is %d, want %d", t%w.w, t/w.w, w.occ[t], seen[t])
		}
	}
	before := w.pl
	cells := append([]uint16(nil), w.cells.count...)
	w.rebuildDerived()
	if w.pl != before {
		tb.Fatalf("player counters drifted:\n have %+v\n want %+v", before, w.pl)
	}
	for j := range cells {
		if cells[j] != w.cells.count[j] {
			tb.Fatalf("cell count %d drifted: %d, want %d", j, cells[j], w.cells.count[j])
		}
	}
}

// Chaos returns a few random commands for random players: mostly plausible
// orders for their own units, some of them refused (other players' units,
// off the map, unaffordable, junk kinds). It exercises every command path,
// valid and not, in property and determinism tests.
func Chaos(w *World, r *RNG) []Command {
	if r.Intn(3) != 0 {
		return nil
	}
	p := PlayerID(r.Intn(w.np + 1)) // sometimes a player that does not exist
	c := Command{Player: p, Kind: CommandKind(1 + r.Intn(int(numCommandKinds)-1))}
	if r.Intn(50) == 0 {
		c.Kind = CommandKind(r.Intn(256)) // junk
	}
	if c.Kind == CmdSurrender && r.Intn(20) != 0 {
		c.Kind = CmdStop // surrender rarely, or games end at once
	}
	n := 1 + r.Intn(12)
	for range n {
		if w.e.len() == 0 {
			break
		}
		s := r.Intn(w.e.len())
		if r.Intn(8) != 0 { // mostly the player's own units
			for j := range w.e.len() {
				k := (s + j) % w.e.len()
				if w.e.kind[k] != KindNone && w.e.owner[k] == p {
					s = k
					break
				}
			}
		}
		c.Units = append(c.Units, w.id(s))
	}
	c.X, c.Y = int32(r.Intn(w.w+4)-2), int32(r.Intn(w.h+4)-2)
	c.Build = Kind(r.Intn(int(numKinds) + 1))
	c.Upgrade = Upgrade(r.Intn(int(numUpgrades) + 1))
	if w.e.len() > 0 {
		c.Target = w.id(r.Intn(w.e.len()))
	}
	if c.Kind == CmdGather {
		for t := r.Intn(len(w.gold)); t < len(w.gold); t++ {
			if w.gold[t] > 0 {
				c.X, c.Y = int32(t%w.w), int32(t/w.w)
				break
			}
		}
	}
	return []Command{c}
}
