package session

import "slices"

// Nobody is forced out. A player that loses the game it was in — its host
// went on without it, it stalled past the wait, or its side of a split lost
// the merge — seeks it again: it says Hello to the host it was pointed to,
// then to every player it knows in turn, until one answers. A host admits it
// back into its own slot (away until it has caught up, then back at a
// sequenced turn) with a snapshot plus the turns since; a member that is not
// the host answers with the name of its host.

// seekTicks is how long a seeking node waits for an answer before it says
// Hello to the next peer it knows.
const seekTicks = 100

// seek leaves the role this node has and looks for the game again, starting
// with target (or, when target is empty, the first player it knows). The
// target is where the node was sent (its host, or the winner a merge
// order or the election named), so its answer is taken.
func (n *Node) seek(target PeerID) { n.seekVia(target, target) }

// seekVia seeks starting with target, taking answers for the game from
// trusted (see vouched) besides those the seeker's own rule names.
func (n *Node) seekVia(target, trusted PeerID) {
	if n.role == roleLeft || n.role == roleNone {
		return
	}
	if target == "" || target == n.self {
		target = n.nextSeekTarget("")
	}
	n.seeking = seekTrust{trusted: trusted}
	if !n.rejoin {
		n.seekSince = n.now
	}
	n.rejoin = true
	if n.role != roleJoining {
		n.becomeJoining(target)
	}
	n.ask(target)
}

// ask says Hello to p (if any) and restarts the wait for its answer.
func (n *Node) ask(p PeerID) {
	n.joinHost, n.joinedAt = p, n.now
	if p != "" {
		n.sendHello()
	}
}

// nextSeekTarget is the player after cur in the roster (wrapping), skipping
// this node: the order in which a seeking node asks around.
func (n *Node) nextSeekTarget(cur PeerID) PeerID {
	others := n.otherPlayers()
	if len(others) == 0 {
		return ""
	}
	i := slices.Index(others, cur)
	return others[(i+1)%len(others)]
}

// seekTick resends the Hello, to the next peer once one has not answered.
// A player that has asked everyone it knows for longer than a player is
// waited for, with no answer, runs for host with the history it holds:
// the others may all be seeking too (their host is gone), and two that
// both run meet again as rival hosts and merge.
func (n *Node) seekTick() {
	if (n.now-n.joinedAt)%seekTicks != 0 || n.now == n.joinedAt {
		return
	}
	if n.now-n.seekSince >= n.cfg.DropTicks+seekTicks && len(n.otherPlayers()) > 0 && n.slot >= 0 && !n.hist.isDeparted(n.slot) &&
		n.lobby.State >= StateLoading && !n.expectSnap {
		n.rejoin = false
		n.lostAt = n.now - n.cfg.DropTicks // it waited long enough: it may play on alone
		n.becomeCandidate(&election{})
		return
	}
	n.seeking.noAnswer(n.joinHost)
	next := n.rightful() // the list in order: each player answers, or is found silent
	if next == "" || next == n.joinHost {
		next = n.nextSeekTarget(n.joinHost)
	}
	if next != "" {
		n.joinHost = next
	}
	if n.joinHost != "" {
		n.sendHello()
	}
}

// redirect answers a Hello from a player of this game that reached a member
// rather than the host: it names the host to ask.
func (n *Node) redirect(m Message) {
	if n.rosterIndex(m.From) < 0 && !n.lobby.isSpectator(m.From) {
		return
	}
	if n.role == roleFollower && !n.hostLost && !n.awaitResume {
		n.send(Message{Kind: MsgReject, To: m.From, Epoch: n.epoch, Targets: []PeerID{n.host}})
	}
}

// rejoinWelcome takes a seeking node back into the game: it keeps what the
// caller already loaded and waits for the snapshot the host sends with the
// Welcome, dropping its own history (it may be a branch the game discarded).
// Its unsequenced commands are renumbered after what the host expects.
func (n *Node) rejoinWelcome(m Message) {
	old, was := n.host, n.lobby.State
	n.lobby = m.Lobby.Clone()
	n.slot = m.Slot
	n.becomeFollower(m.Epoch, m.From, nil)
	n.emit(Event{Kind: EvHostChanged, OldHost: old, NewHost: n.host, Epoch: n.epoch})
	n.emit(Event{Kind: EvLobbyChanged, Revision: n.lobby.Revision, Lobby: n.Lobby().ptr()})
	// It may have lost its host while the game was starting: for this node
	// the game loads, or starts, now (a started one with the snapshot).
	n.reachedState(was)
	if was >= StateLoading && n.lobby.State >= StateLoading && !n.loaded && n.lobby.Resume == 0 {
		// It never loaded the game it was in (or gave up on it, Resync):
		// it loads now, and the snapshot follows.
		n.emit(Event{Kind: EvLoad, Lobby: n.Lobby().ptr()})
	}
	if n.lobby.State < StatePlaying {
		n.rejoin = false
		return
	}
	n.awaitSnapshot()
	n.hist.restart(n.released)
	// Commands numbered below NextSeq reached this host already (a slot's
	// numbers are this process's alone): they keep their numbers, and stay
	// pending until a turn holds them, in case the host dies first. The rest
	// are numbered on from NextSeq, past the numbers a discarded branch used.
	var mine []pendingCmd
	for _, p := range n.pending {
		if p.cmd.Slot == n.slot && n.slot >= 0 {
			mine = append(mine, p)
		}
	}
	n.pending = mine
	if n.slot >= 0 && m.NextSeq > 0 {
		// Until the snapshot arrives, numbers follow the host's, not the
		// ones of the branch this node leaves.
		n.hist.nextSeq[n.slot] = m.NextSeq
		n.renumberFrom(m.NextSeq)
	}
}

// renumberFrom numbers this node's own pending commands from next on,
// keeping those below next (the host has them): the host takes a slot's
// commands only in order, so a gap — numbers used where no host will
// sequence them — would stop the slot's commands for good.
func (n *Node) renumberFrom(next uint64) {
	seq := next
	for i := range n.pending {
		if c := &n.pending[i].cmd; c.Slot == n.slot && c.Seq >= next {
			c.Seq = seq
			seq++
		}
	}
	n.propSeq[n.slot] = max(seq-1, next-1)
}

// fixGap handles the host's NextSeq for this node's slot (on its turns and
// pings): when the oldest pending command the host has not received yet is
// numbered past it, the ones in between died with an earlier host (or were
// numbered in a branch the game discarded), and the pending ones from there
// are renumbered and sent again.
func (n *Node) fixGap(next uint64) {
	if next == 0 || n.slot < 0 || n.expectSnap {
		return
	}
	for _, p := range n.pending {
		if p.cmd.Slot != n.slot || p.cmd.Seq < next {
			continue // received already; pending until a turn holds it
		}
		if p.cmd.Seq > next {
			n.renumberFrom(next)
			for i := range n.pending {
				n.pending[i].sentAt = n.now - n.cfg.ResendTicks // resent on the next tick
			}
		}
		return
	}
}

// The split rule. A network split leaves a host on each side, and both
// sides play on (a side may be one player whose partner really crashed).
// When they can reach each other again, every host keeps pinging the
// players it does not hear, so the two hosts meet; each ping carries the
// size of its side and its lowest slot. The senior host (lowest slot) alone
// decides, so the two can never both win or both lose: the side with more
// players goes on; with equal sides, the one more than mergeLeadTurns ahead;
// else the senior. The losing side tells its peers to merge and rejoins the
// winner by snapshot: what it played since the split is lost.
const mergeLeadTurns = 40

// sideInfo is what a host tells a rival about its side: how many players
// follow it (itself included) and the lowest slot among them.
func (h *hostState) sideInfo(n *Node) (count, low int) { return h.sideAfter(n, n.sideSince()) }

// sideSince is the tick after which a player must have been heard to count
// on this host's side: within FailTicks.
func (n *Node) sideSince() int { return n.now - n.cfg.FailTicks - 1 }

// sideAfter counts the players of this host's side heard after tick since.
func (h *hostState) sideAfter(n *Node, since int) (count, low int) {
	count, low = 1, n.slot
	if low < 0 {
		low = MaxSlots
	}
	for _, pi := range h.peers {
		if h.onSide(n, pi, since) {
			count++
			low = min(low, pi.slot)
		}
	}
	return count, low
}

// onSide reports whether a peer is a player of this host's side: in the
// game and heard in this host's epoch after tick since. (What else it
// sends does not matter: a member that keeps following this host while it
// pings in another's name is still on this side.)
func (h *hostState) onSide(n *Node, pi *peerInfo, since int) bool {
	if pi.slot < 0 || n.hist.isDeparted(pi.slot) || pi.away {
		return false
	}
	return pi.epochAt > since && !pi.connLost
}

// sideNote is what a player of another side told this host: it follows
// host in epoch, as of tick at.
type sideNote struct {
	epoch uint64
	host  PeerID
	turn  uint64 // the player's last turn, as it said
	at    int
}

// sideReport notes a player's answer to this host's ping: the players of a
// rival side tell it whose side they are on (see stepFollower), so that the
// sides of a split are counted from what each player says of itself, never
// from what a rival host claims.
func (h *hostState) sideReport(n *Node, m Message) {
	if n.rosterIndex(m.From) < 0 || len(m.Targets) != 1 || m.Epoch == n.epoch {
		return
	}
	h.sides[m.From] = sideNote{epoch: m.Epoch, host: m.Targets[0], turn: m.Turn, at: n.now}
}

// rivalSide counts a rival host's side as this host can check it: the
// rival itself and every player that said, after tick since, that it
// follows the rival's epoch and has not been heard in this host's epoch
// since; low is the lowest slot among them. Players whose departure this
// host's game holds cannot say so (it no longer pings them), yet the
// rival's game may still hold them: for those only, the rival's claim
// (claimed players, lowest slot claimedLow) counts, up to how many there
// are. ok is false when the rival is itself a player of this side: it
// cannot host another.
func (h *hostState) rivalSide(n *Node, m Message, since int) (count, low int, ok bool) {
	from := m.From
	if pi := h.peer(from); pi != nil && h.onSide(n, pi, since) {
		return 0, 0, false
	}
	count, low = 1, n.lobby.SlotOf(from)
	for _, p := range n.roster() { // in list order: no map order in the count
		s, said := h.sides[p]
		if !said || p == from || p == n.self || s.epoch != m.Epoch || s.host != from || s.at <= since {
			continue
		}
		if pi := h.peer(p); pi != nil && h.onSide(n, pi, since) {
			continue
		}
		count++
		low = min(low, n.lobby.SlotOf(p))
	}
	var departed []int
	for i, sl := range n.lobby.Slots {
		if sl.Kind == SlotHuman && n.hist.isDeparted(i) {
			departed = append(departed, i)
		}
	}
	if extra := min(int(m.Count)-count, len(departed)); extra > 0 {
		count += extra
		if slices.Contains(departed, m.Slot) {
			low = min(low, m.Slot)
		}
	}
	return count, low, true
}

// rivalTurn is how far a rival host's side has played as this host can
// check it: the turn the rival says, but no further than a player of its
// side (not the rival itself) said it holds, after tick since. A side of
// the rival alone is taken to be at turn 0: with equal sides, a member that
// stopped answering and posed as a host far ahead would otherwise take the
// game over on its own word.
func (h *hostState) rivalTurn(n *Node, m Message, since int) uint64 {
	var seen uint64
	for _, p := range n.roster() {
		if s, ok := h.sides[p]; ok && p != m.From && s.epoch == m.Epoch && s.host == m.From && s.at > since {
			seen = max(seen, s.turn)
		}
	}
	return min(seen, m.Turn)
}

// sideTurn is how far this host's side has played as a rival can check
// it (see rivalTurn): the newest turn a player of its side, other than
// this host, acknowledged after tick since.
func (h *hostState) sideTurn(n *Node, since int) uint64 {
	var t uint64
	for _, pi := range h.peers {
		if pi.slot >= 0 && h.onSide(n, pi, since) {
			t = max(t, min(pi.acked, n.hist.last()))
		}
	}
	return t
}

// seniorWins is the split rule as the senior host applies it: more
// players win; with equal sides the junior wins only if it is more than
// mergeLeadTurns ahead (by rivalTurn).
func (n *Node) seniorWins(count, theirs int, theirTurn uint64) bool {
	return count > theirs || count == theirs && theirTurn <= n.hist.last()+mergeLeadTurns
}

// sidePing is the heartbeat of a host: with its side's size and lowest slot.
func (n *Node) sidePing(pi *peerInfo) {
	count, low := n.hs.sideInfo(n)
	n.hostSend(pi, Message{Kind: MsgPing, Turn: n.hist.last(), Count: uint32(count), Slot: low})
}

// senior reports whether this host's side decides a merge with a rival
// side whose lowest slot is low (and epoch epoch).
func (n *Node) senior(myLow, low int, epoch uint64) bool {
	return myLow < low || myLow == low && n.epoch > epoch
}

// rivalPing handles a ping from another host of this game (a player of the
// roster hosting another epoch). It reports whether it was one.
func (n *Node) rivalPing(m Message) bool {
	if m.Kind != MsgPing || m.Epoch == n.epoch || n.rosterIndex(m.From) < 0 || m.Count == 0 {
		return false
	}
	h := n.hs
	_, rlow, ok := h.rivalSide(n, m, n.sideSince())
	if !ok || !n.owns(m.From, m.Epoch) {
		return true // no rival: a player of this side, or a ping in another's name
	}
	count, low := h.sideInfo(n)
	if !n.senior(low, rlow, m.Epoch) {
		// The rival decides; make sure it hears our side soon.
		n.send(Message{Kind: MsgPing, To: m.From, Epoch: n.epoch, Turn: n.hist.last(), Count: uint32(count), Slot: low})
		return true
	}
	// A decision is final: pings the rival sent before our Merge reached
	// it may count sides that have changed since, and a senior that
	// changed its mind would leave both hosts seeking each other.
	won := slices.Contains(h.wonOver, m.Epoch)
	if _, ok := h.rivalAt[m.Epoch]; !ok {
		h.rivalAt[m.Epoch] = n.now
	}
	if !won && n.now-h.rivalAt[m.Epoch] < n.cfg.FailTicks {
		// Decide on sides heard since the rival appeared: a host that was
		// stopped counts its side from the messages that waited for it,
		// and those expire after FailTicks unless its players still follow.
		n.send(Message{Kind: MsgPing, To: m.From, Epoch: n.epoch, Turn: n.hist.last(), Count: uint32(count), Slot: low})
		return true
	}
	// Both sides are counted from the players heard since the rival
	// appeared: the messages that waited for a stopped host, read at
	// once on its wake-up, count for neither.
	since := max(n.sideSince(), h.rivalAt[m.Epoch])
	count, _ = h.sideAfter(n, since)
	theirs, _, _ := h.rivalSide(n, m, since)
	if won || n.seniorWins(count, theirs, h.rivalTurn(n, m, since)) {
		if !won {
			h.wonOver = append(h.wonOver, m.Epoch)
		}
		n.send(Message{Kind: MsgMerge, To: m.From, Epoch: n.epoch, Slot: low, Count: uint32(count), Turn: n.hist.last(),
			Targets: []PeerID{n.self}})
		return true
	}
	n.stepDownTo(m.From)
	return true
}

// A host's order to merge (MsgMerge) comes from the senior rival host, or
// (to a follower) from this node's own host that lost a merge. Each role
// takes it in its own function below; mergeTarget checks the order names
// one game, not this node's.
func mergeTarget(n *Node, m Message) bool {
	return len(m.Targets) == 1 && m.Targets[0] != n.self
}

// hostMerge takes a rival host's order: only from the player its epoch
// names, and only when the split rule gives that host the win.
func (n *Node) hostMerge(m Message) {
	if !mergeTarget(n, m) || m.Epoch == n.epoch || n.rosterIndex(m.From) < 0 || m.Targets[0] != m.From || !n.owns(m.From, m.Epoch) {
		return
	}
	if n.mergeHolds(m) {
		n.stepDownTo(m.From)
	}
}

// followerMerge takes its host's order to go to another game.
func (n *Node) followerMerge(m Message) {
	if !mergeTarget(n, m) || m.From != n.host {
		return
	}
	if n.awaitResume && n.el != nil && len(n.el.failedHosts) > 0 && m.Targets[0] == n.el.failedHosts[0] && n.el.lostEpoch != 0 {
		// The candidate we followed found our old host alive: back
		// to it, as the candidate goes back (a follower on a lossy
		// link suspects now and then; that must cost little).
		n.falseSuspicion(0)
		n.backTo(m.Targets[0], n.el.lostEpoch)
		return
	}
	n.candidateToGame(m.Targets[0])
}

// candidateMerge takes its host's order, or a player's that speaks for
// its own epoch and comes before this candidate in the list: a later
// player has no say over an earlier one's candidacy.
func (n *Node) candidateMerge(m Message) {
	if !mergeTarget(n, m) {
		return
	}
	if m.From == n.host || n.owns(m.From, m.Epoch) && n.rosterIndex(m.From) >= 0 && n.rosterIndex(m.From) < n.rosterIndex(n.self) {
		n.candidateToGame(m.Targets[0])
	}
}

// mergeHolds checks a rival host's order to merge against what this host
// can check itself: the rival is senior (by the lowest slot of its side,
// which must be a player not on this side), and the split rule gives it
// the win with its side counted at most as the players not on this side.
// A host never leaves its game on one message's word. A junior that does
// not follow the order says why with a merge order of its own, and a
// senior that finds it right after all steps down (reconsider).
func (n *Node) mergeHolds(m Message) bool {
	h := n.hs
	theirs, rlow, ok := h.rivalSide(n, m, n.sideSince())
	if !ok {
		return false
	}
	count, low := h.sideInfo(n)
	if n.senior(low, rlow, m.Epoch) {
		n.reconsider(m, count, theirs)
		return false
	}
	if count > theirs || count == theirs && h.sideTurn(n, n.sideSince()) > m.Turn+mergeLeadTurns {
		n.send(Message{Kind: MsgMerge, To: m.From, Epoch: n.epoch, Slot: low, Count: uint32(count), Turn: n.hist.last(),
			Targets: []PeerID{n.self}})
		return false
	}
	return true
}

// reconsider answers a junior host that refused this host's merge order:
// the decision stands unless the junior's side, as far as this host can
// check it now, wins by the rule. (Only a junior that stayed host refuses,
// so stepping down then cannot leave both hosts seeking each other.)
func (n *Node) reconsider(m Message, count, theirs int) {
	h := n.hs
	i := slices.Index(h.wonOver, m.Epoch)
	if i < 0 || n.seniorWins(count, theirs, h.rivalTurn(n, m, n.sideSince())) {
		return
	}
	h.wonOver = slices.Delete(h.wonOver, i, i+1)
	n.stepDownTo(m.From)
}

// candidateToGame takes this node (and, if it runs for host, those that
// follow it) to the game that target hosts.
func (n *Node) candidateToGame(target PeerID) {
	n.releaseFollowers(target)
	n.seek(target)
}

// releaseFollowers tells the players that followed this node's claim that
// it gave the claim up and went to target's game: they go there too, rather
// than wait for a host that will never resume.
func (n *Node) releaseFollowers(target PeerID) {
	if n.role != roleCandidate || n.el == nil {
		return
	}
	for _, f := range n.el.followers {
		n.send(Message{Kind: MsgMerge, To: f.id, Epoch: n.el.claim, Targets: []PeerID{target}})
	}
}

// staleFollow answers a Follow for a claim this node no longer runs (it
// went back to its host, or lost): the follower is sent to the host this
// node has now, or, when it has none yet, told the claim is off. Only a
// player's Follow of an older claim of this node's own slot is answered.
func (n *Node) staleFollow(m Message) {
	if n.rosterIndex(m.From) < 0 || n.slot < 0 || m.Epoch != makeEpoch(epochGen(m.Epoch), n.slot) || m.Epoch == n.epoch {
		return
	}
	switch {
	case n.role == roleHost:
		n.send(Message{Kind: MsgMerge, To: m.From, Epoch: m.Epoch, Targets: []PeerID{n.self}})
	case n.role == roleFollower && !n.hostLost && !n.awaitResume:
		n.send(Message{Kind: MsgMerge, To: m.From, Epoch: m.Epoch, Targets: []PeerID{n.host}})
	default:
		n.send(Message{Kind: MsgReject, To: m.From, Epoch: m.Epoch})
	}
}

// stepDownTo ends this node's hosting: its peers are told to merge into the
// winner's game, and it seeks that game itself.
func (n *Node) stepDownTo(winner PeerID) {
	for _, p := range n.hs.recipients(n) {
		if p != winner {
			n.send(Message{Kind: MsgMerge, To: p, Epoch: n.epoch, Targets: []PeerID{winner}})
		}
	}
	n.seek(winner)
}
