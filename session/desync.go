package session

import (
	"slices"
)

func (h *hostState) recordHash(n *Node, p PeerID, turn, hash uint64) {
	if turn+uint64(8*n.cfg.HashEvery) < n.hist.last() || turn > n.hist.last() {
		return // too old to matter, or a turn nobody has yet: a lie
	}
	rs := h.hashes[turn]
	for i := range rs {
		if rs[i].Peer == p {
			rs[i].Hash = hash
			return
		}
	}
	h.hashes[turn] = append(rs, PeerHash{Peer: p, Hash: hash})
}

// reporters lists who must report hashes: the host and every peer in step
// (not away, following this epoch).
func (h *hostState) reporters(n *Node) []PeerID {
	r := []PeerID{n.self}
	for _, pi := range h.peers {
		if pi.stallSince == -1 && !pi.away && pi.current {
			r = append(r, pi.id)
		}
	}
	return r
}

// checkHashes compares the reports of every turn that all reporters have
// reported (or that waited long enough) and orders repairs of the minority.
func (h *hostState) checkHashes(n *Node) {
	if len(h.hashes) == 0 {
		return
	}
	turns := make([]uint64, 0, len(h.hashes))
	for t := range h.hashes {
		turns = append(turns, t)
	}
	slices.Sort(turns)
	want := h.reporters(n)
	for _, t := range turns {
		rs := h.hashes[t]
		all := true
		for _, p := range want {
			if !slices.ContainsFunc(rs, func(ph PeerHash) bool { return ph.Peer == p }) {
				all = false
				break
			}
		}
		if !all && t+uint64(3*n.cfg.HashEvery) > n.hist.last() {
			continue
		}
		delete(h.hashes, t)
		if len(rs) >= 2 {
			h.judge(n, t, rs)
		}
	}
	for p, at := range h.repairing {
		if n.now-at > n.cfg.HashEvery*int(n.lobby.TurnTicks) {
			delete(h.repairing, p)
		}
	}
}

// votes reports whether p's hash counts toward the majority: the players'
// do (the host's too); a spectator's is checked against theirs but never
// outvotes them, so spectator identities cannot be made up to win a vote.
func (h *hostState) votes(n *Node, p PeerID) bool {
	if p == n.self {
		return true
	}
	pi := h.peer(p)
	return pi != nil && pi.slot >= 0
}

// voters counts the players whose hash would count in a vote: the host and
// every player in the game that is not away, in step or not, and every one
// that is away but follows this host again (catching up on its return).
func (h *hostState) voters(n *Node) int {
	v := 1
	for _, pi := range h.peers {
		back := pi.current && n.now-pi.heard <= n.cfg.FailTicks
		if pi.slot >= 0 && (!pi.away || back) && !n.hist.isDeparted(pi.slot) && pi.stallSince != -2 {
			v++
		}
	}
	return v
}

// judge finds the players' majority hash (a tie goes to the host's; a tie
// the host did not report in is left for the next hash turn) and has every
// peer with another hash restored from a player's snapshot of the majority
// state.
func (h *hostState) judge(n *Node, turn uint64, rs []PeerHash) {
	counts := map[uint64]int{}
	for _, r := range rs {
		if h.votes(n, r.Peer) {
			counts[r.Hash]++
		}
	}
	maj, best, tied := plurality(counts)
	if best == 0 {
		return
	}
	if tied {
		// A tie: the host's hash breaks it once every voter reported (two
		// players can only settle it so). Without the host's report, or
		// with voters missing, nobody can tell which state is right, and
		// repairing either side could overwrite the right one: the next
		// hash turn decides. A player that is slow to report (waited
		// for, not away yet) is a voter missing too: its state may be
		// the one that breaks the tie the other way.
		voters, cast := h.voters(n), 0
		for _, c := range counts {
			cast += c
		}
		i := slices.IndexFunc(rs, func(r PeerHash) bool { return r.Peer == n.self })
		if i < 0 || counts[rs[i].Hash] != best || cast < voters {
			return
		}
		maj = rs[i].Hash
	}
	var minority []PeerID
	var source PeerID
	for _, r := range rs {
		if r.Hash != maj {
			if _, busy := h.repairing[r.Peer]; !busy && h.repairAllowed(n, r.Peer) {
				minority = append(minority, r.Peer)
			}
		} else if h.votes(n, r.Peer) && (source == "" || r.Peer == n.self) {
			source = r.Peer
		}
	}
	if len(minority) == 0 {
		return
	}
	info := &DesyncInfo{Turn: turn, Hashes: slices.Clone(rs), Majority: maj}
	n.emit(Event{Kind: EvDesync, Turn: turn, Desync: info})
	for _, p := range minority {
		h.repairing[p] = n.now
		if p == n.self {
			n.expectSnap, n.snapFrom = true, source
			continue
		}
		if pi := h.peer(p); pi != nil {
			// Named, so the repaired peer takes a snapshot from that
			// player only, not from whoever sends one first.
			n.hostSend(pi, Message{Kind: MsgDesync, Desync: info, Targets: []PeerID{source}})
		}
	}
	if source == n.self {
		n.snapTargets = append(n.snapTargets, minority...)
	} else if pi := h.peer(source); pi != nil {
		n.hostSend(pi, Message{Kind: MsgSnapshotReq, Targets: minority})
	}
}

// applySnapshot restores from a snapshot plus the turns after it.
func (n *Node) applySnapshot(m Message) {
	if !n.expectSnap {
		return
	}
	s := m.Snapshot
	if m.From != n.host && !n.fitsRepair(s) {
		return // not the repair we were promised: wait for it (or the host)
	}
	n.expectSnap, n.snapFrom = false, ""
	repaired := n.released > 0
	if s != nil {
		n.showSnapshotLeft(s, n.released > 0)
		if c, ok := n.hist.chainAt(s.Turn); !ok || c != s.Chain {
			n.hist.restore(s)
			n.pending = slices.DeleteFunc(n.pending, func(p pendingCmd) bool {
				return p.cmd.Seq < n.hist.nextSeq[p.cmd.Slot]
			})
		}
		n.out.committed = nil
		n.out.restore = &Snapshot{Turn: s.Turn, Data: s.Data}
		n.released = s.Turn
	}
	for _, t := range m.Turns {
		if t.Number == n.hist.last()+1 {
			n.commit(t)
		}
	}
	if m.Lobby != nil && n.role != roleHost {
		n.followerLobby(m.Lobby)
	}
	if s != nil && n.resumeWait && n.lobby.Resume > 0 && s.Turn == n.lobby.Resume {
		n.resumeWait = false
		n.resume = &Snapshot{Turn: s.Turn, Data: s.Data, Chain: s.Chain, Departed: s.Departed, NextSeq: s.NextSeq}
		n.emit(Event{Kind: EvLoad, Lobby: n.Lobby().ptr()})
	}
	if s != nil && repaired && !n.rejoin {
		n.emit(Event{Kind: EvDesyncRepaired, Turn: s.Turn})
	}
	if s != nil {
		n.rejoin = false
	}
	if n.role == roleFollower {
		n.sendAck(true)
	}
}

// fitsRepair checks a repair snapshot sent by the majority peer the host
// named: it must continue this node's history (at its turn, if this node
// holds it, the chain is ours: a desync differs in state, never in turns;
// a later turn is checked by the host's next turns, which carry their
// chain). The state itself is checked by the next hash vote; a snapshot
// that does not restore makes the caller take the game back from the host
// (Resync).
func (n *Node) fitsRepair(s *Snapshot) bool {
	if s == nil {
		return false
	}
	c, ok := n.hist.chainAt(s.Turn)
	return !ok || c == s.Chain
}

// repairAllowed reports whether p's differing hash is answered with a
// repair: the host's own always is, a member's within its budget.
func (h *hostState) repairAllowed(n *Node, p PeerID) bool {
	if p == n.self {
		return true
	}
	pi := h.peer(p)
	return pi != nil && pi.answers.repairAllowed(n.now)
}
