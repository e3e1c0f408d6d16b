package game

import "math/bits"

// hasher mixes 64-bit words; every word passes through a multiply and a
// rotation, so the result depends on every bit and on the order of words.
type hasher struct{ h uint64 }

const (
	hashK1 = 0x9e3779b97f4a7c15
	hashK2 = 0xbf58476d1ce4e5b9
)

func (h *hasher) word(v uint64) {
	h.h = bits.RotateLeft64(h.h^(v*hashK1), 27)*hashK2 + 0x94d049bb133111eb
}

func (h *hasher) sum() uint64 {
	x := h.h
	x ^= x >> 31
	x *= hashK1
	return x ^ x>>29
}

// Hash returns a hash of the world's canonical state: every value that a
// snapshot holds, plus the derived counters (supply, unit and building
// counts) as a cross-check of the incremental bookkeeping. Fog enters
// through each team's explored and visible tile counts. Peers compare it
// every few turns to find desyncs; it costs a fraction of a Snapshot.
func (w *World) Hash() uint64 {
	var h hasher
	h.word(uint64(uint32(w.turn)) | uint64(w.w)<<32 | uint64(w.h)<<48)
	h.word(w.cfg.Seed)
	h.word(w.rng.State)
	h.word(w.rng.Inc)
	h.word(uint64(uint8(w.winner)) | b2u(w.over)<<8 | uint64(w.np)<<16)
	ps := &w.pause
	h.word(uint64(uint32(w.clock)) | b2u(ps.on)<<32 | uint64(ps.by)<<40 | uint64(ps.resumer)<<48)
	h.word(uint64(uint32(ps.count)))
	for p := range w.np {
		pl := &w.pl[p]
		h.word(uint64(pl.team) | b2u(pl.out)<<8 | uint64(uint32(pl.gold))<<32)
		h.word(uint64(uint32(pl.outTime)) | uint64(uint32(pl.lastAlert))<<32)
		h.word(uint64(uint32(pl.mined)) | uint64(uint32(pl.trained))<<32)
		h.word(uint64(uint32(pl.killed)) | uint64(uint32(pl.lost))<<32)
		h.word(uint64(uint32(pl.supplyUsed)) | uint64(uint32(pl.supplyRaw))<<32)
		h.word(uint64(uint32(pl.buildings)) | uint64(uint32(pl.units))<<32)
		h.word(uint64(pl.up[UpWeapons]) | uint64(pl.up[UpArmor])<<8 | uint64(pl.pauses)<<16 | b2u(w.cfg.Players[p].Bot)<<24)
	}
	for _, s := range w.starts {
		h.word(uint64(uint32(s.X)) | uint64(uint32(s.Y))<<32)
	}
	for j := 0; j < len(w.gold); j += 4 {
		var v uint64
		for k := j; k < min(j+4, len(w.gold)); k++ {
			v = v<<16 | uint64(w.gold[k])
		}
		h.word(v)
	}
	for j := 0; j < len(w.terrain); j += 8 {
		var v uint64
		for k := j; k < min(j+8, len(w.terrain)); k++ {
			v = v<<8 | uint64(w.terrain[k])
		}
		h.word(v)
	}
	e := &w.e
	h.word(uint64(e.len()))
	for i := range e.len() {
		if e.kind[i] == KindNone {
			h.word(uint64(e.gen[i]))
			continue
		}
		h.word(uint64(e.gen[i]) | uint64(e.kind[i])<<16 | uint64(e.owner[i])<<24 |
			uint64(e.order[i])<<32 | uint64(e.phase[i])<<40 | uint64(e.cooldown[i])<<48 | uint64(e.cargo[i])<<56)
		h.word(uint64(uint32(e.x[i])) | uint64(uint32(e.y[i]))<<32)
		h.word(uint64(uint32(e.hp[i])) | uint64(e.target[i])<<32)
		h.word(uint64(uint16(e.gx[i])) | uint64(uint16(e.gy[i]))<<16 | uint64(uint16(e.rx[i]))<<32 | uint64(uint16(e.ry[i]))<<48)
		h.word(uint64(uint16(e.timer[i])) | uint64(e.blocked[i])<<16 | uint64(e.bkind[i])<<24 | uint64(e.qlen[i])<<32)
		if stats[e.kind[i]].Building {
			q := &e.queue[i]
			h.word(uint64(uint32(e.progress[i])) | uint64(uint32(e.qprog[i]))<<32)
			h.word(uint64(q[0]) | uint64(q[1])<<8 | uint64(q[2])<<16 | uint64(q[3])<<24 | uint64(q[4])<<32)
			h.word(uint64(uint16(e.rallyX[i])) | uint64(uint16(e.rallyY[i]))<<16 | uint64(e.research[i])<<32)
		}
	}
	h.word(uint64(len(w.free)))
	for _, s := range w.free {
		h.word(uint64(s))
	}
	for k := range w.fog {
		h.word(uint64(uint32(w.fog[k].explored)) | uint64(uint32(w.fog[k].visible))<<32)
	}
	return h.sum()
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
