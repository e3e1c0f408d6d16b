package session

import "slices"

// stepFollower handles messages while following a host (or a candidate
// that has not resumed yet).
func (n *Node) stepFollower(m Message) {
	switch m.Kind {
	case MsgClaim:
		n.onClaim(m)
		return
	case MsgFollow:
		n.staleFollow(m)
		return
	case MsgReject:
		if n.awaitResume && m.From == n.host && m.Epoch == n.epoch {
			// The candidate we followed gave its claim up with nowhere to
			// send us: it failed as a candidate.
			n.awaitResume = false
			n.suspectHost()
		}
		return
	case MsgSnapshot:
		n.memberSnapshot(m)
		return
	case MsgMerge:
		n.followerMerge(m)
		return
	case MsgHello:
		n.redirect(m)
		return
	}
	if m.From != n.host {
		if m.Kind == MsgPing && m.Count > 0 && m.Epoch != n.epoch && !n.hostLost && !n.awaitResume && n.rosterIndex(m.From) >= 0 {
			// Another host of this game pings us (a split): tell it whose
			// side we are on; hosts count sides from what players say.
			n.send(Message{Kind: MsgReject, To: m.From, Epoch: n.epoch, Turn: n.hist.last(), Targets: []PeerID{n.host}})
		}
		return
	}
	if m.Kind != MsgRefuse && m.Kind != MsgBye && m.Epoch != n.epoch {
		return // an older (or unknown) epoch
	}
	n.heardHost()
	if n.expectSnap {
		n.snapHeard++
	}
	switch m.Kind {
	case MsgBye:
		// It left on purpose: not waited for. Noted before the migration
		// starts, so a candidate alone with it (a game of two) wins at once.
		n.noteBye(m.From)
		n.suspectHost()
	case MsgRefuse:
		if m.Refusal != nil {
			n.emit(Event{Kind: EvRefused, Refusal: m.Refusal, Text: m.Refusal.Text})
			n.becomeLeft(m.Refusal.Text)
		}
	case MsgLobby:
		n.followerLobby(m.Lobby)
	case MsgChat:
		if m.Chat != nil {
			n.emit(Event{Kind: EvChat, Chat: m.Chat})
		}
	case MsgCountdown:
		n.emit(Event{Kind: EvCountdown, Count: int(m.Count)})
	case MsgWaiting:
		name := n.slotName(m.Slot)
		if m.Count > 0 {
			n.emit(Event{Kind: EvWaiting, Slot: m.Slot, Name: name, TicksLeft: int(m.Count)})
		} else {
			n.emit(Event{Kind: EvWaitOver, Slot: m.Slot, Name: name})
		}
	case MsgTurns:
		n.onTurns(m)
		n.fixGap(m.NextSeq)
	case MsgPing:
		if n.lobby.State == StatePlaying && m.Turn > n.hist.last() {
			n.sendAck(true)
		}
		n.fixGap(m.NextSeq)
	case MsgDesync:
		if m.Desync != nil {
			n.expectSnap = true
			if len(m.Targets) == 1 {
				n.snapFrom = m.Targets[0]
			}
			n.emit(Event{Kind: EvDesync, Turn: m.Desync.Turn, Desync: m.Desync})
		}
	case MsgSnapshotReq:
		n.snapTargets = append(n.snapTargets, m.Targets...)
	}
}

// heardHost notes that the host is alive; the first message of a new host
// ends the migration.
func (n *Node) heardHost() {
	if n.hostLost {
		n.falseSuspicion(n.now - n.hostHeard)
	}
	n.hostHeard = n.now
	n.hostLost = false
	if n.deferred != nil {
		// The host proved alive after the claim arrived: refuse it.
		n.reject(*n.deferred) // names the host, so the claimer can come back to it
		n.deferred = nil
	}
	if n.el != nil && !n.awaitResume {
		n.el = nil // the host is back: the migration is off
	}
	if n.awaitResume {
		n.awaitResume = false
		old := PeerID("")
		if n.el != nil && len(n.el.failedHosts) > 0 {
			old = n.el.failedHosts[0]
		}
		n.emit(Event{Kind: EvHostChanged, OldHost: old, NewHost: n.host, Epoch: n.epoch, Ticks: n.now - n.lostAt})
		n.el = nil
		for i := range n.pending {
			n.pending[i].sentAt = n.now // they went with the Follow
		}
	}
}

func (n *Node) onTurns(m Message) {
	if n.expectSnap && (n.released == 0 || n.rejoin) {
		return // a joiner catches up from the snapshot, which carries these turns
	}
	if m.Delay <= uint32(n.cfg.MaxDelayTurns) {
		n.delay = m.Delay
	}
	if n.lobby.State == StateLoading && !n.resumeWait && len(m.Turns) > 0 {
		// Turns come only in play: the lobby that said so was lost (a
		// stream reset as the path went direct at the start), and the
		// host resends lobbies only before play. The turns say it as well.
		n.lobby.State = StatePlaying
		n.reachedState(StateLoading)
	}
	gap := false
	prev := m.Chain // the host's chain before each turn
	for _, t := range m.Turns {
		switch {
		case t.Number <= n.hist.last():
			if c, ok := n.hist.chainAt(t.Number - 1); ok && c != prev {
				// A turn we hold, on another history: ours is a branch
				// the game discarded (we followed a host that was
				// behind us). Only a snapshot brings us back.
				n.seek(n.host)
				return
			}
		case t.Number == n.hist.last()+1 && t.Epoch <= n.epoch:
			if prev != n.hist.lastChain() {
				// The host's history is not ours: we hold a branch the
				// game discarded. Only a snapshot brings us back.
				n.seek(n.host)
				return
			}
			n.commit(t)
		default:
			gap = true
		}
		prev = chainMix(prev, &t)
	}
	// Ack at once on a gap, with hash reports, or once per heartbeat; acking
	// on receipt keeps the host's round-trip samples honest, acking every
	// other turn halves the idle upstream traffic.
	if gap || len(n.hashQueue) > 0 || n.now-n.lastSent >= n.cfg.HeartbeatTicks-1 {
		n.sendAck(gap)
	}
}

// sendAck tells the host how far this peer got; it doubles as the heartbeat
// and carries the pending hash reports.
func (n *Node) sendAck(need bool) {
	m := Message{Kind: MsgAck, To: n.host, Epoch: n.epoch, Have: n.hist.last(), Need: need, Hashes: n.hashQueue}
	if n.lobby.State >= StateLoading && n.loaded {
		m.Loaded = true
	}
	n.hashQueue = nil
	n.send(m)
}

func (n *Node) followerTick() {
	n.silence.relax(n.now)
	limit := n.hostSilence()
	if n.awaitResume {
		limit += n.cfg.GatherTicks + n.cfg.DropTicks // a candidate may wait for the others
	}
	if !n.hostLost && n.now-n.hostHeard > limit && !n.renewing(n.host) {
		n.timeout(MsgHostSilent)
	}
	if n.deferred != nil && n.hostLost {
		m := *n.deferred
		n.deferred = nil
		// The silence may have made this node a candidate this very tick:
		// the claim goes to the role it has now.
		if n.role == roleCandidate {
			n.stepCandidate(m)
		} else {
			n.onClaim(m)
		}
	}
	if n.el != nil && n.el.expect != "" && n.now >= n.el.deadline {
		n.timeout(MsgClaimOverdue)
		if n.role != roleFollower {
			return
		}
	}
	if n.snapshotLost() {
		n.seek(n.host) // ask again: the host welcomes it anew, with a snapshot
		return
	}
	if n.hostLost || n.awaitResume || n.rejoin {
		return
	}
	// While turns flow, acks go out on receipt (see onTurns); the tick only
	// covers silence, so a late tick-driven ack does not skew round trips.
	beat := n.cfg.HeartbeatTicks
	if n.lobby.State == StatePlaying {
		beat *= 2
	}
	if n.now-n.lastSent >= beat {
		n.sendAck(false)
	}
	if len(n.pending) > 0 && n.now-n.pending[0].sentAt >= n.cfg.ResendTicks {
		// The oldest first, as many as the host takes in the turns until
		// the next resend (its budget per slot and turn): the rest follow.
		var cs []Command
		size := 0
		for i := range n.pending {
			if len(cs) >= 4*maxSlotCmdsPerTurn || len(cs) > 0 && size+len(n.pending[i].cmd.Data) > 4*maxSlotBytesPerTurn {
				break
			}
			n.pending[i].sentAt = n.now
			cs = append(cs, n.pending[i].cmd)
			size += len(n.pending[i].cmd.Data)
		}
		n.send(Message{Kind: MsgCommands, To: n.host, Epoch: n.epoch, Commands: cs})
	}
}

// snapLostAfter is how many messages from its host a joining node takes,
// after its Welcome, as proof that the snapshot it waits for was lost. A
// count, not a time: over a slow relay a snapshot of a megabyte takes
// seconds, and the messages the host sent after it wait behind it (one
// ordered stream), so only a lost one lets them by. The host sends a few
// turns between the Welcome and the snapshot (it snapshots at a turn its
// game has applied); 20 turns are a second of play.
const snapLostAfter = 20

// awaitSnapshot makes a joining node wait for the snapshot its Welcome
// promised.
func (n *Node) awaitSnapshot() {
	n.expectSnap = true
	n.snapAskedAt, n.snapHeard = n.now, 0
}

// snapshotLost reports whether a joining node — welcomed into a game under
// way, or back into its own — waits in vain for its snapshot: the host
// goes on talking, and the snapshot does not come. (A repair's snapshot
// is the host's to order again; a resumed game's waits for the loading.)
func (n *Node) snapshotLost() bool {
	joining := n.released == 0 || n.rejoin
	return n.expectSnap && joining && !n.resumeWait && n.now-n.snapAskedAt >= seekTicks && n.snapHeard >= snapLostAfter
}

// noteBye records that p, a host, said Bye. Noted before the migration
// starts, so a candidate alone with it (a game of two) wins at once.
func (n *Node) noteBye(p PeerID) {
	if el := n.migration(); !slices.Contains(el.byes, p) {
		el.byes = append(el.byes, p)
	}
}

// memberSnapshot takes a snapshot from the host, or the repair this
// member's host named a majority peer for.
func (n *Node) memberSnapshot(m Message) {
	if m.From == n.host || n.expectSnap && !n.rejoin && m.From == n.snapFrom {
		n.applySnapshot(m)
	}
}
