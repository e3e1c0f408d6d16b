package session

import "slices"

// history is the replicated history a node holds, as etcd's raftLog is
// raft's: the committed turns after base with their chain hashes, and the
// slot state (departed, away, next sequence numbers) after the last of
// them. It knows nothing of roles or messages: the Node commits to it,
// prunes it and reads from it.
type history struct {
	// turns[i].Number == base+1+i; chains[i] is the chain hash after
	// turns[i]; arrived[i] the tick it was committed here.
	turns     []Turn
	bytes     int // turnWeight of the turns held (budget.go)
	chains    []uint64
	arrived   []int
	base      uint64
	baseChain uint64
	departed  uint32                 // bit per slot: departed
	why       [MaxSlots]DepartReason // why each slot in departed left
	away      uint32                 // bit per slot: away (silent; its slot stays)
	baseAway  uint32                 // away at turn base (for awayAt)
	nextSeq   [MaxSlots]uint64       // next sequence number expected per slot
}

// newHistory is the history before turn 1: every slot expects its first
// command.
func newHistory() history {
	var h history
	for i := range h.nextSeq {
		h.nextSeq[i] = 1
	}
	return h
}

// last is the number of the last committed turn.
func (h *history) last() uint64 { return h.base + uint64(len(h.turns)) }

// lastChain is the chain hash after the last committed turn.
func (h *history) lastChain() uint64 {
	if len(h.turns) == 0 {
		return h.baseChain
	}
	return h.chains[len(h.chains)-1]
}

// lastEpoch is the epoch of the last turn held, if any is.
func (h *history) lastEpoch() (uint64, bool) {
	if len(h.turns) == 0 {
		return 0, false
	}
	return h.turns[len(h.turns)-1].Epoch, true
}

// chainAt returns the chain hash after turn t, if it is still held.
func (h *history) chainAt(t uint64) (uint64, bool) {
	switch {
	case t == h.base:
		return h.baseChain, true
	case t > h.base && t <= h.last():
		return h.chains[t-h.base-1], true
	}
	return 0, false
}

// turnAt returns turn t, if it is held.
func (h *history) turnAt(t uint64) (Turn, bool) {
	if t <= h.base || t > h.last() {
		return Turn{}, false
	}
	return h.turns[t-h.base-1], true
}

// arrivedAt is the tick turn t (held) was committed here.
func (h *history) arrivedAt(t uint64) int { return h.arrived[t-h.base-1] }

// turnsAfter returns the held turns (from, to], at most maxTurnsInMsg.
func (h *history) turnsAfter(from, to uint64) []Turn {
	if from < h.base {
		from = h.base
	}
	if to > h.last() {
		to = h.last()
	}
	if to <= from {
		return nil
	}
	if to-from > maxTurnsInMsg {
		to = from + maxTurnsInMsg
	}
	turns := h.turns[from-h.base : to-h.base]
	// A receiver refuses more commands in one message's turns than
	// maxTurnCmdsInMsg (see precount), and a catch-up goes in chunks of
	// maxTurnBytesInMsg so that it never nears the frame limit and the
	// link carries live turns between them: the rest go in the next message.
	cmds, size := 0, 0
	for i, t := range turns {
		cmds += len(t.Commands)
		for _, c := range t.Commands {
			size += len(c.Data) + 16
		}
		if (cmds > maxTurnCmdsInMsg || size > maxTurnBytesInMsg) && i > 0 {
			turns = turns[:i]
			break
		}
	}
	return slices.Clone(turns)
}

func (h *history) isDeparted(slot int) bool {
	return slot >= 0 && slot < MaxSlots && h.departed&(1<<slot) != 0
}

// isAway reports whether slot is away at the last committed turn.
func (h *history) isAway(slot int) bool {
	return slot >= 0 && slot < MaxSlots && h.away&(1<<slot) != 0
}

// departedAt and nextSeqAt roll the slot state back from the last turn to t.
func (h *history) departedAt(t uint64) uint32 {
	g := h.departed
	for k := h.last(); k > t; k-- {
		tr, _ := h.turnAt(k)
		for _, d := range tr.Departures {
			g &^= 1 << d.Slot
		}
	}
	return g
}

// whyAt packs the reasons of the slots departed at t as Snapshot.DepartedWhy does
// (a slot departs once in a history, so its reason then is its reason now).
func (h *history) whyAt(t uint64) uint64 {
	var w uint64
	g := h.departedAt(t)
	for i, r := range h.why {
		if g&(1<<i) != 0 {
			w |= uint64(r) << (4 * i)
		}
	}
	return w
}

// awayAt replays the presence changes from the base turn up to t.
func (h *history) awayAt(t uint64) uint32 {
	a := h.baseAway
	for k := h.base + 1; k <= t && k <= h.last(); k++ {
		tr, _ := h.turnAt(k)
		a = applyPresence(a, tr.Presence)
	}
	return a
}

func applyPresence(a uint32, ps []Presence) uint32 {
	for _, p := range ps {
		if p.Away {
			a |= 1 << p.Slot
		} else {
			a &^= 1 << p.Slot
		}
	}
	return a
}

func (h *history) nextSeqAt(t uint64) []uint64 {
	s := h.nextSeq
	for k := h.last(); k > t; k-- {
		tr, _ := h.turnAt(k)
		for i := len(tr.Commands) - 1; i >= 0; i-- {
			c := tr.Commands[i]
			s[c.Slot] = c.Seq
		}
	}
	return slices.Clone(s[:])
}

// append commits turn t (t.Number == last+1), which arrived at tick now.
func (h *history) append(t Turn, now int) {
	t.WantHash = false
	chain := chainMix(h.lastChain(), &t)
	h.turns = append(h.turns, t)
	h.bytes += turnWeight(t)
	h.chains = append(h.chains, chain)
	h.arrived = append(h.arrived, now)
	for _, c := range t.Commands {
		h.nextSeq[c.Slot] = c.Seq + 1
	}
	for _, d := range t.Departures {
		h.departed |= 1 << d.Slot
		h.why[d.Slot] = d.Reason
	}
	h.away = applyPresence(h.away, t.Presence)
}

// prune drops the oldest turns once more than keep+512 are held (512 at a
// time) or they weigh more than keepBytes (see bytesCut); only turns up to
// released, which the caller has had, may go.
func (h *history) prune(released uint64, keep, keepBytes int) {
	cut := 0
	switch {
	case released < h.base+1:
		return // nothing handed over yet: nothing may go
	case len(h.turns) > keep+512 && released >= h.base+512:
		cut = 512
	case h.bytes > keepBytes:
		cut = h.bytesCut(released, keepBytes)
	}
	if cut == 0 {
		return
	}
	for _, t := range h.turns[:cut] {
		h.baseAway = applyPresence(h.baseAway, t.Presence)
		h.bytes -= turnWeight(t)
	}
	h.baseChain = h.chains[cut-1]
	h.base += uint64(cut)
	h.turns = slices.Clone(h.turns[cut:])
	h.chains = slices.Clone(h.chains[cut:])
	h.arrived = slices.Clone(h.arrived[cut:])
}

// restart forgets every turn held: the history goes on after base, on a
// chain it does not know yet (a rejoining node waits for its snapshot).
func (h *history) restart(base uint64) {
	h.turns, h.chains, h.arrived, h.bytes = nil, nil, nil, 0
	h.base, h.baseChain = base, 0
}

// restore starts the history afresh from snapshot s (a peer's, or a saved
// game's): the turns held go, and the slot state is the snapshot's. A slot
// the snapshot names no next sequence number for (0, or none) expects its
// first command, 1.
func (h *history) restore(s *Snapshot) {
	h.restart(s.Turn)
	h.baseChain, h.departed = s.Chain, s.Departed
	h.away, h.baseAway = s.Away, s.Away
	for i := range h.why {
		h.why[i] = s.Reason(i)
	}
	for i := range h.nextSeq {
		h.nextSeq[i] = 1
		if i < len(s.NextSeq) && s.NextSeq[i] > 0 {
			h.nextSeq[i] = s.NextSeq[i]
		}
	}
}

// chainMix folds a turn into the history chain hash (FNV-1a over its fields),
// so two peers can tell in one number whether their histories are the same.
func chainMix(h uint64, t *Turn) uint64 {
	const prime = 1099511628211
	if h == 0 {
		h = 14695981039346656037
	}
	mix := func(v uint64) {
		for i := 0; i < 8; i++ {
			h ^= v & 0xff
			h *= prime
			v >>= 8
		}
	}
	mix(t.Epoch)
	mix(t.Number)
	for _, c := range t.Commands {
		mix(uint64(c.Slot))
		mix(c.Seq)
		mix(uint64(len(c.Data)))
		for _, b := range c.Data {
			h ^= uint64(b)
			h *= prime
		}
	}
	for _, d := range t.Departures {
		mix(uint64(d.Slot)<<8 | uint64(d.Reason))
	}
	for _, p := range t.Presence {
		v := uint64(p.Slot) << 8
		if p.Away {
			v |= 1
		}
		mix(v | 1<<16)
	}
	return h
}
