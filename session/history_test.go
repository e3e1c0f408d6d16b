package session

import (
	"slices"
	"testing"
)

// histTurns makes turns from..to of epoch 1: slot 0 proposes one command
// a turn, slot 1 departs at turn 3, slot 2 is away from turn 2 to turn 4.
func histTurns(from, to uint64) []Turn {
	var ts []Turn
	for k := from; k <= to; k++ {
		t := Turn{Epoch: 1, Number: k, Commands: []Command{{Slot: 0, Seq: k, Data: []byte{byte(k)}}}}
		switch k {
		case 2:
			t.Presence = []Presence{{Slot: 2, Away: true}}
		case 3:
			t.Departures = []Departure{{Slot: 1, Reason: DepartLeft}}
		case 4:
			t.Presence = []Presence{{Slot: 2}}
		}
		ts = append(ts, t)
	}
	return ts
}

func filled(n uint64) history {
	h := newHistory()
	for i, t := range histTurns(1, n) {
		h.append(t, 10*(i+1))
	}
	return h
}

func TestHistoryAppendAndRead(t *testing.T) {
	h := filled(5)
	if h.last() != 5 {
		t.Fatalf("last = %d, want 5", h.last())
	}
	chain := uint64(0)
	for _, tr := range histTurns(1, 5) {
		chain = chainMix(chain, &tr)
		if c, ok := h.chainAt(tr.Number); !ok || c != chain {
			t.Errorf("chainAt(%d) = %x, %v; want %x", tr.Number, c, ok, chain)
		}
		got, ok := h.turnAt(tr.Number)
		if !ok || got.Number != tr.Number || got.WantHash {
			t.Errorf("turnAt(%d) = %+v, %v", tr.Number, got, ok)
		}
		if at := h.arrivedAt(tr.Number); at != 10*int(tr.Number) {
			t.Errorf("arrivedAt(%d) = %d", tr.Number, at)
		}
	}
	if h.lastChain() != chain {
		t.Errorf("lastChain = %x, want %x", h.lastChain(), chain)
	}
	if e, ok := h.lastEpoch(); !ok || e != 1 {
		t.Errorf("lastEpoch = %d, %v", e, ok)
	}
	if _, ok := h.turnAt(0); ok {
		t.Error("turnAt(0) held")
	}
	if _, ok := h.turnAt(6); ok {
		t.Error("turnAt(6) held")
	}
	if !h.isDeparted(1) || h.isDeparted(0) || h.isAway(2) || h.nextSeq[0] != 6 {
		t.Errorf("state after 5 turns: departed %b away %b next %d", h.departed, h.away, h.nextSeq[0])
	}
}

func TestHistoryRollsBack(t *testing.T) {
	h := filled(5)
	for _, c := range []struct {
		turn           uint64
		departed, away uint32
		next           uint64
	}{
		{1, 0, 0, 2}, {2, 0, 1 << 2, 3}, {3, 1 << 1, 1 << 2, 4}, {5, 1 << 1, 0, 6},
	} {
		if g := h.departedAt(c.turn); g != c.departed {
			t.Errorf("departedAt(%d) = %b, want %b", c.turn, g, c.departed)
		}
		if a := h.awayAt(c.turn); a != c.away {
			t.Errorf("awayAt(%d) = %b, want %b", c.turn, a, c.away)
		}
		if s := h.nextSeqAt(c.turn); s[0] != c.next || s[1] != 1 {
			t.Errorf("nextSeqAt(%d) = %v, want slot 0 at %d", c.turn, s[:2], c.next)
		}
	}
}

func TestHistoryTurnsAfter(t *testing.T) {
	h := filled(5)
	for _, c := range []struct{ from, to, first, last uint64 }{
		{0, 5, 1, 5}, {2, 4, 3, 4}, {4, 9, 5, 5}, {5, 5, 0, 0}, {3, 1, 0, 0},
	} {
		ts := h.turnsAfter(c.from, c.to)
		if c.first == 0 {
			if len(ts) != 0 {
				t.Errorf("turnsAfter(%d, %d) = %d turns, want none", c.from, c.to, len(ts))
			}
			continue
		}
		if len(ts) == 0 || ts[0].Number != c.first || ts[len(ts)-1].Number != c.last {
			t.Errorf("turnsAfter(%d, %d) = %v", c.from, c.to, ts)
		}
	}
}

func TestHistoryPrune(t *testing.T) {
	h := filled(5)
	chain3, _ := h.chainAt(3)
	h.prune(0, 0, 1) // nothing released: nothing goes, however heavy
	if h.base != 0 || h.last() != 5 {
		t.Fatalf("pruned before release: base %d", h.base)
	}
	h.prune(3, 1<<20, 1) // over the byte bound: only released turns go
	if h.base != 3 || h.last() != 5 {
		t.Fatalf("base %d last %d after pruning to released turn 3", h.base, h.last())
	}
	if c, ok := h.chainAt(3); !ok || c != chain3 {
		t.Errorf("chainAt(base) = %x, %v; want %x", c, ok, chain3)
	}
	if _, ok := h.turnAt(3); ok {
		t.Error("turn 3 still held after pruning")
	}
	if a := h.awayAt(3); a != 1<<2 {
		t.Errorf("awayAt(base) = %b after pruning, want %b", a, 1<<2)
	}
	if w := turnWeight(histTurns(4, 4)[0]) + turnWeight(histTurns(5, 5)[0]); h.bytes != w {
		t.Errorf("bytes = %d after pruning, want %d", h.bytes, w)
	}
}

func TestHistoryRestoreAndRestart(t *testing.T) {
	h := filled(5)
	h.restore(&Snapshot{Turn: 40, Chain: 77, Departed: 1 << 3, Away: 1 << 4, NextSeq: []uint64{9, 0}, DepartedWhy: uint64(DepartKicked) << 12})
	if h.last() != 40 || h.lastChain() != 77 || !h.isDeparted(3) || !h.isAway(4) || h.awayAt(40) != 1<<4 {
		t.Errorf("after restore: last %d chain %d departed %b away %b", h.last(), h.lastChain(), h.departed, h.away)
	}
	if h.why[3] != DepartKicked || h.whyAt(40) != uint64(DepartKicked)<<12 {
		t.Errorf("after restore: reasons %v", h.why[:4])
	}
	// 0 (a save or a peer naming none) expects the first command, as an empty list does.
	if h.nextSeq[0] != 9 || h.nextSeq[1] != 1 || h.nextSeq[2] != 1 || h.bytes != 0 {
		t.Errorf("after restore: next %v bytes %d", h.nextSeq[:2], h.bytes)
	}
	next := histTurns(41, 41)[0]
	h.append(next, 0)
	if h.last() != 41 || slices.Equal(h.nextSeqAt(40), h.nextSeqAt(41)) {
		t.Errorf("append after restore: last %d", h.last())
	}
	h.restart(50)
	if h.last() != 50 || h.lastChain() != 0 || !h.isDeparted(3) {
		t.Errorf("after restart: last %d chain %d departed %b", h.last(), h.lastChain(), h.departed)
	}
}
