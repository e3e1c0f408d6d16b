package session

import "slices"

// The replicated history: the committed turns this node holds, their chain
// hashes, and the slot state (departed, away, next sequence numbers) after
// the last of them.

// last is the number of the last committed turn.
func (n *Node) last() uint64 { return n.base + uint64(len(n.log)) }

func (n *Node) lastChain() uint64 {
	if len(n.log) == 0 {
		return n.baseChain
	}
	return n.chains[len(n.chains)-1]
}

// chainAt returns the chain hash after turn t, if this node still holds it.
func (n *Node) chainAt(t uint64) (uint64, bool) {
	switch {
	case t == n.base:
		return n.baseChain, true
	case t > n.base && t <= n.last():
		return n.chains[t-n.base-1], true
	}
	return 0, false
}

func (n *Node) turnAt(t uint64) (Turn, bool) {
	if t <= n.base || t > n.last() {
		return Turn{}, false
	}
	return n.log[t-n.base-1], true
}

// turnsAfter returns the held turns (from, to], at most maxTurnsInMsg.
func (n *Node) turnsAfter(from, to uint64) []Turn {
	if from < n.base {
		from = n.base
	}
	if to > n.last() {
		to = n.last()
	}
	if to <= from {
		return nil
	}
	if to-from > maxTurnsInMsg {
		to = from + maxTurnsInMsg
	}
	turns := n.log[from-n.base : to-n.base]
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

func (n *Node) isGone(slot int) bool { return slot >= 0 && slot < MaxSlots && n.gone&(1<<slot) != 0 }

// isAway reports whether slot is away at the last committed turn.
func (n *Node) isAway(slot int) bool { return slot >= 0 && slot < MaxSlots && n.away&(1<<slot) != 0 }

// goneAt and nextSeqAt roll the replicated state back from the last turn to t.
func (n *Node) goneAt(t uint64) uint32 {
	g := n.gone
	for k := n.last(); k > t; k-- {
		tr, _ := n.turnAt(k)
		for _, d := range tr.Departures {
			g &^= 1 << d.Slot
		}
	}
	return g
}

// awayAt replays the presence changes from the base turn up to t.
func (n *Node) awayAt(t uint64) uint32 {
	a := n.baseAway
	for k := n.base + 1; k <= t && k <= n.last(); k++ {
		tr, _ := n.turnAt(k)
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

func (n *Node) nextSeqAt(t uint64) []uint64 {
	s := n.nextSeq
	for k := n.last(); k > t; k-- {
		tr, _ := n.turnAt(k)
		for i := len(tr.Commands) - 1; i >= 0; i-- {
			c := tr.Commands[i]
			s[c.Slot] = c.Seq
		}
	}
	return slices.Clone(s[:])
}

// commit appends turn t (t.Number == last+1) to the history.
func (n *Node) commit(t Turn) {
	t.WantHash = false
	chain := chainMix(n.lastChain(), &t)
	n.log = append(n.log, t)
	n.logBytes += turnWeight(t)
	n.chains = append(n.chains, chain)
	n.arrived = append(n.arrived, n.now)
	for _, c := range t.Commands {
		n.nextSeq[c.Slot] = c.Seq + 1
	}
	if len(t.Commands) > 0 && len(n.pending) > 0 {
		n.pending = slices.DeleteFunc(n.pending, func(p pendingCmd) bool {
			return p.cmd.Seq < n.nextSeq[p.cmd.Slot]
		})
	}
	for _, d := range t.Departures {
		n.gone |= 1 << d.Slot
	}
	n.away = applyPresence(n.away, t.Presence)
	n.prune()
}

func (n *Node) prune() {
	keep := n.cfg.KeepTurns
	cut := 0
	switch {
	case n.released < n.base+1:
		return // nothing handed over yet: nothing may go
	case len(n.log) > keep+512 && n.released >= n.base+512:
		cut = 512
	case n.logBytes > n.cfg.KeepBytes:
		cut = n.bytesCut()
	}
	if cut == 0 {
		return
	}
	for _, t := range n.log[:cut] {
		n.baseAway = applyPresence(n.baseAway, t.Presence)
		n.logBytes -= turnWeight(t)
	}
	n.baseChain = n.chains[cut-1]
	n.base += uint64(cut)
	n.log = slices.Clone(n.log[cut:])
	n.chains = slices.Clone(n.chains[cut:])
	n.arrived = slices.Clone(n.arrived[cut:])
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
