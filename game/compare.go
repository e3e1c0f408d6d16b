package game

import (
	"fmt"
	"strconv"
)

// Compare lists how two worlds differ, in lines a person reads: the turn and
// PRNG, each player's economy and standing, the number of entities, and the
// first entities whose state differs. It is what a desync report says beyond
// the hashes. At most limit entity lines are listed (0 lists none); the last
// line counts the rest. Equal worlds give no lines.
func Compare(a, b *World, limit int) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if a.turn != b.turn {
		add("turn: %d vs %d", a.turn, b.turn)
	}
	if a.rng != b.rng {
		add("random generator state differs")
	}
	if a.clock != b.clock || a.pause != b.pause {
		add("game time %d vs %d; pause %s vs %s", a.clock, b.clock, a.pause, b.pause)
	}
	if a.over != b.over || a.winner != b.winner {
		add("game over: %v (winner team %d) vs %v (winner team %d)", a.over, a.winner, b.over, b.winner)
	}
	for p := range min(a.np, b.np) {
		pa, pb := a.pl[p], b.pl[p]
		if pa != pb {
			add("player %d: gold %d vs %d, supply %d vs %d, units %d vs %d, buildings %d vs %d, out %v vs %v, upgrades %v vs %v, pauses used %d vs %d",
				p, pa.gold, pb.gold, pa.supplyUsed, pb.supplyUsed, pa.units, pb.units, pa.buildings, pb.buildings, pa.out, pb.out,
				pa.up[1:], pb.up[1:], pa.pauses, pb.pauses)
		}
	}
	if na, nb := a.e.len(), b.e.len(); na != nb {
		add("entity slots: %d vs %d", na, nb)
	}
	listed, more := 0, 0
	for i := range max(a.e.len(), b.e.len()) {
		da, db := entityLine(a, i), entityLine(b, i)
		if da == db {
			continue
		}
		if listed < limit {
			add("slot %d: %s\n      vs  %s", i, da, db)
			listed++
		} else {
			more++
		}
	}
	if more > 0 {
		add("… and %d more entities differ", more)
	}
	if len(out) == 0 && a.Hash() != b.Hash() {
		add("state hashes differ (%016x vs %016x) in parts not listed here: terrain, gold fields or fog", a.Hash(), b.Hash())
	}
	return out
}

// entityLine describes the simulated state of slot i ("free" or "none").
func entityLine(w *World, i int) string {
	if i >= w.e.len() {
		return "none"
	}
	e := &w.e
	if e.kind[i] == KindNone {
		return "free"
	}
	return e.kind[i].String() + " of player " + strconv.Itoa(int(e.owner[i])) +
		fmt.Sprintf(" at (%d,%d) hp %d order %v phase %d target %d goal (%d,%d) cargo %d progress %d queue %d/%d research %v",
			e.x[i], e.y[i], e.hp[i], e.order[i], e.phase[i], e.target[i], e.gx[i], e.gy[i], e.cargo[i],
			e.progress[i], e.qlen[i], e.qprog[i], e.research[i])
}
