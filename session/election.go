package session

import (
	"slices"
)

// election is the state of one host migration, from the first suspicion until
// a new host resumes.
type election struct {
	failedHosts []PeerID // hosts (and followed candidates) that failed
	lostEpoch   uint64   // the epoch of failedHosts[0], the host this began with
	skipped     []PeerID // candidates that never claimed in time
	expect      PeerID   // the candidate this node waits for
	deadline    int
	maxGen      uint64

	// Candidate side.
	claim     uint64
	gatherEnd int
	followers []followInfo
	answered  []PeerID
	alive     *Message // a Reject saying the old host lives
	waiting   bool     // told the caller it waits for the other players
	byes      []PeerID // hosts that said Bye: they left on purpose
	outbid    []PeerID // later claimers this candidate claimed over once

	// Follower side: claims from players its own rule does not name yet,
	// one per claimer (so at most one per player of the game).
	parked map[PeerID]Message
}

type followInfo struct {
	id     PeerID
	slot   int
	last   uint64
	turns  []Turn
	lobby  *Lobby
	cmds   []Command
	loaded bool
}

// follows reports whether p follows this candidate's claim.
func (el *election) follows(p PeerID) bool {
	return slices.ContainsFunc(el.followers, func(f followInfo) bool { return f.id == p })
}

// rosterIndex is p's place in roster(), -1 if it is not a player (counted
// without building the list: it is asked for nearly every message).
func (n *Node) rosterIndex(p PeerID) int {
	i := 0
	for k, s := range n.lobby.Slots {
		if s.Kind == SlotHuman && !n.hist.isDeparted(k) {
			if s.Peer == p {
				return i
			}
			i++
		}
	}
	return -1
}

// suspectHost starts (or continues) a migration away from the current host.
func (n *Node) suspectHost() {
	if n.hostLost {
		return
	}
	if n.rejoin && n.expectSnap {
		// Welcomed back but still without the snapshot: the history this
		// node holds is one the game discarded, and no claim may rest on
		// it. It looks for the game again, as it did before the welcome.
		n.seekVia(n.nextSeekTarget(n.host), n.host)
		n.seeking.noAnswer(n.host)
		return
	}
	n.hostLost = true
	if el := n.migration(); !slices.Contains(el.failedHosts, n.host) {
		el.failedHosts = append(el.failedHosts, n.host)
	}
	n.awaitResume = false
	n.nextCandidate()
}

// migration is the record of the migration under way, begun now (away
// from this node's epoch) when none is.
func (n *Node) migration() *election {
	if n.el == nil {
		n.el = &election{lostEpoch: n.epoch}
		n.lostAt = n.now
	}
	return n.el
}

// nextCandidate turns to the first player in the list that is not known to
// have failed: itself (then it claims) or another (then it waits for its claim).
func (n *Node) nextCandidate() {
	el := n.el
	el.expect = ""
	for _, p := range n.roster() {
		if slices.Contains(el.failedHosts, p) || slices.Contains(el.skipped, p) || n.connLost[p] ||
			n.hist.isAway(n.lobby.SlotOf(p)) {
			continue
		}
		if p == n.self {
			n.becomeCandidate(el)
			return
		}
		el.expect = p
		// The candidate's link may stall as ours did: it allows its host
		// as much silence as we do, likely.
		el.deadline = n.now + n.cfg.ClaimWaitTicks + n.silence.extra
		if c, ok := el.parked[p]; ok {
			delete(el.parked, p)
			n.onClaim(c) // it claimed before our rule came to it
		}
		return
	}
	// Nobody else is left to ask: a player runs itself (and plays on if
	// nobody answers, see decide); a spectator looks for the game again.
	if n.slot >= 0 && !n.hist.isDeparted(n.slot) {
		n.becomeCandidate(el)
		return
	}
	n.seek("")
}

// lineageEpoch is the epoch of the last turn this node committed: the
// lineage whose history it holds.
func (n *Node) lineageEpoch() uint64 {
	if e, ok := n.hist.lastEpoch(); ok {
		return e
	}
	return n.epoch
}

func (n *Node) reject(m Message) {
	var host []PeerID
	if n.role == roleFollower && !n.hostLost && !n.awaitResume || n.role == roleHost {
		host = []PeerID{n.host}
	}
	n.send(Message{Kind: MsgReject, To: m.From, Epoch: n.epoch, Turn: n.hist.last(), Chain: n.hist.lastChain(), Targets: host})
}

// newClaim reports whether m is a claim to answer: from a player of this
// game for an epoch of its own, of a newer generation than this node's (an
// older one is rejected).
func (n *Node) newClaim(m Message) bool {
	if n.rosterIndex(m.From) < 0 || !n.owns(m.From, m.Epoch) {
		return false // not a player of this game (any more), or not its claim to make
	}
	if n.el != nil {
		n.el.maxGen = max(n.el.maxGen, epochGen(m.Epoch))
	}
	// One vote a generation: a follower that followed a candidate never
	// follows another of the same generation, even one listed earlier, or
	// both could count it and win.
	if epochGen(m.Epoch) <= epochGen(n.epoch) {
		n.reject(m)
		return false
	}
	return true
}

// onClaim answers a claim while following.
func (n *Node) onClaim(m Message) {
	if !n.newClaim(m) {
		return
	}
	if !n.hostLost && !n.awaitResume {
		// The host still seems alive: answer once it proves alive or fails.
		n.deferred = &m
		n.deferredAt = n.now
		return
	}
	if !n.byRule(m.From) {
		// Our rule names a player listed before the claimer: a claim
		// from further down is not followed until the rule comes to it
		// (nextCandidate), so one player cannot take the game by
		// claiming while the rightful candidate is still asked.
		if n.el != nil {
			if n.el.parked == nil {
				n.el.parked = map[PeerID]Message{}
			}
			n.el.parked[m.From] = m
		}
		return
	}
	n.follow(m)
}

// byRule reports whether this node's own rule lets it follow a claim from
// p: p is the player the rule names (the first one listed that is not known
// to have failed, or the candidate this node already follows), or one
// listed before it, which the claim proves alive.
func (n *Node) byRule(p PeerID) bool {
	var named PeerID
	switch {
	case n.awaitResume:
		named = n.host
	case n.el != nil:
		named = n.el.expect
	}
	if named == "" {
		return false
	}
	i := n.rosterIndex(named)
	return i < 0 || n.rosterIndex(p) <= i // one that left names nobody
}

// rivalClaim answers another player's claim while this node runs for host
// itself. The list decides: a claimer listed before this node is followed
// when its generation is not below ours (one vote a generation); one
// listed after it gave up waiting for our claim, so this node claims over
// it, once per claimer (a claimer that keeps claiming is only answered);
// otherwise the claimer is sent our claim again.
func (n *Node) rivalClaim(m Message) {
	el := n.el
	mine := el.claim
	if n.otherHistory(m) {
		n.reject(m) // its claimer must rejoin by snapshot
		return
	}
	before := n.rosterIndex(m.From) < n.rosterIndex(n.self)
	switch {
	case before && epochGen(m.Epoch) >= epochGen(mine):
		n.follow(m)
	case !before && epochGen(m.Epoch) >= epochGen(mine) && !slices.Contains(el.outbid, m.From):
		el.outbid = append(el.outbid, m.From)
		n.reject(m)
		n.becomeCandidate(el)
	default:
		n.send(Message{Kind: MsgClaim, To: m.From, Epoch: mine, Turn: n.hist.last(), Chain: n.hist.lastChain()})
		n.reject(m)
	}
}

// follow joins a candidate's new epoch and hands it what this node holds.
func (n *Node) follow(m Message) {
	if n.otherHistory(m) {
		n.reject(m) // not our game
		return
	}
	el := n.el
	if el == nil {
		el = &election{failedHosts: []PeerID{n.host}, lostEpoch: n.epoch}
		n.lostAt = n.now
	}
	n.becomeFollower(m.Epoch, m.From, el)
	var cmds []Command
	for _, p := range n.pending {
		cmds = append(cmds, p.cmd)
	}
	l := n.lobby.Clone()
	// Targets: the hosts this node heard say Bye, for a candidate that
	// did not (its copy may have been lost in the hang-up).
	n.send(Message{Kind: MsgFollow, To: m.From, Epoch: m.Epoch, Turn: n.hist.last(), Chain: n.hist.lastChain(),
		Turns: n.hist.turnsAfter(m.Turn, n.hist.last()), Lobby: &l, Commands: cmds, Loaded: n.loaded, Slot: n.slot, Targets: el.byes})
}

// onFollow gathers a follower of this candidate's claim.
func (n *Node) onFollow(m Message) {
	el := n.el
	if m.Epoch != el.claim {
		n.staleFollow(m)
		return
	}
	if slices.Contains(el.answered, m.From) {
		return
	}
	el.answered = append(el.answered, m.From)
	if !n.sameHistory(m) {
		return
	}
	slot := n.lobby.SlotOf(m.From)
	if slot >= 0 && n.hist.isDeparted(slot) {
		slot = -1 // a departed player that came back to watch
	}
	if slot < 0 && !n.lobby.isSpectator(m.From) {
		return
	}
	for _, p := range m.Targets {
		// A follower heard a host say Bye: believed for a host this
		// candidate lost too, so a lie costs no live host its seat.
		if slices.Contains(el.failedHosts, p) {
			n.noteBye(p)
		}
	}
	el.followers = append(el.followers, followInfo{id: m.From, slot: slot, last: m.Turn, turns: m.Turns,
		lobby: m.Lobby, cmds: m.Commands, loaded: m.Loaded})
	n.maybeDecide()
}

// otherHistory reports whether a claim comes from another history: at the
// claim's turn, which this node holds, the chains differ.
func (n *Node) otherHistory(m Message) bool {
	c, ok := n.hist.chainAt(m.Turn)
	return ok && c != m.Chain
}

// sameHistory checks a follower's history against ours by chain hash: the
// shorter must be a prefix of the longer.
func (n *Node) sameHistory(m Message) bool {
	if m.Turn <= n.hist.last() {
		c, ok := n.hist.chainAt(m.Turn)
		return !ok || c == m.Chain
	}
	h := n.hist.lastChain()
	next := n.hist.last() + 1
	for i := range m.Turns {
		t := &m.Turns[i]
		if t.Number != next {
			return false
		}
		h = chainMix(h, t)
		next++
	}
	return next-1 == m.Turn && h == m.Chain
}

// onReject takes a player's refusal of this candidate's claim.
func (n *Node) onReject(m Message) {
	el := n.el
	if el == nil || slices.Contains(el.answered, m.From) {
		return
	}
	el.maxGen = max(el.maxGen, epochGen(m.Epoch))
	el.answered = append(el.answered, m.From)
	if len(m.Targets) == 1 && m.Targets[0] != n.self && m.Epoch != n.epoch && m.Epoch != n.lineageEpoch() &&
		epochGen(m.Epoch) > epochGen(n.lineageEpoch()) && !slices.Contains(el.failedHosts, m.Targets[0]) &&
		n.owns(m.Targets[0], m.Epoch) && n.rosterIndex(m.Targets[0]) >= 0 && n.rosterIndex(m.From) >= 0 &&
		!el.follows(m.Targets[0]) && (m.Targets[0] != m.From || n.rosterIndex(m.From) < n.rosterIndex(n.self)) {
		// The others went on with a newer host: go to that game rather
		// than start a second one. Only players say so (spectators have
		// no vote), and a host that follows this claim hosts no more. (A
		// host listed after this candidate does not send it away on its
		// own word: the players that follow it say so for it.)
		n.candidateToGame(m.Targets[0])
		return
	}
	if len(m.Targets) == 1 && (m.Epoch == n.epoch || m.Epoch == n.lineageEpoch()) && el.alive == nil &&
		n.owns(m.Targets[0], m.Epoch) {
		el.alive = &m
		if len(el.failedHosts) > 0 && m.From == el.failedHosts[0] {
			n.decide() // the host itself answered: it lives
			return
		}
	}
	n.maybeDecide()
}

// stepCandidate handles messages while running for host.
func (n *Node) stepCandidate(m Message) {
	switch m.Kind {
	case MsgClaim:
		if n.newClaim(m) {
			n.rivalClaim(m)
		}
		return
	case MsgFollow:
		n.onFollow(m)
		return
	case MsgReject:
		n.onReject(m)
		return
	case MsgSnapshot:
		n.memberSnapshot(m)
		return
	case MsgMerge:
		n.candidateMerge(m)
		return
	case MsgHello:
		n.redirect(m)
		return
	}
	switch {
	case m.From == n.host && m.Epoch == n.epoch && m.Kind != MsgBye:
		// The old host is alive after all: give up the claim and go back.
		if n.hostLost {
			n.falseSuspicion(n.now - n.hostHeard)
		}
		n.releaseFollowers(n.host)
		n.becomeFollower(n.epoch, n.host, nil)
		n.stepFollower(m)
	case m.Kind == MsgBye && slices.Contains(n.el.failedHosts, m.From):
		// The host's close overtook its Bye: this node already runs for
		// host. The Bye still says it left on purpose, which the new host
		// sequences as a departure, not an absence.
		n.noteBye(m.From)
		n.maybeDecide()
	}
}

func (n *Node) candidateLost(p PeerID) {
	n.maybeDecide()
}

func (n *Node) candidateTick() {
	if n.now >= n.el.gatherEnd {
		n.timeout(MsgGatherOver)
	}
}

// maybeDecide decides as soon as every reachable player has answered (a
// failed host is not waited for).
func (n *Node) maybeDecide() {
	for _, p := range n.otherPlayers() {
		if !slices.Contains(n.el.answered, p) && !n.connLost[p] && !slices.Contains(n.el.failedHosts, p) &&
			!n.hist.isAway(n.lobby.SlotOf(p)) {
			return
		}
	}
	n.decide()
}

// decide ends a round of gathering. With followers making a strict majority
// of the players present (the failed host counted: it may only be slow)
// this node becomes host. If the old host answered, it goes back to it.
// Otherwise it waits, asking again, until the players it misses have been
// gone for DropTicks; then it becomes host of whoever followed — alone, if
// its partner really crashed — and a later merge (see rivalPing) makes one
// game again should the others turn out to play on elsewhere.
func (n *Node) decide() {
	el := n.el
	players := 1
	for _, f := range el.followers {
		if f.slot >= 0 {
			players++
		}
	}
	// A host that said Bye, or whose connection its end closed or reset,
	// is not present: it is not slow, it is gone (a live one that hung up
	// is a side of a split, which the split rule merges later).
	present := slices.DeleteFunc(n.presentPlayers(), func(p PeerID) bool {
		return slices.Contains(el.byes, p) || n.closed[p]
	})
	if !slices.Contains(present, n.self) {
		// This node is away itself (the game went on without it, say it
		// was stopped): it counts among those present, so it never wins
		// a majority of one against the players who went on.
		present = append(present, n.self)
	}
	if majority(players, max(len(present), players)) {
		n.win()
		return
	}
	if el.alive != nil {
		n.rejoinLineage(*el.alive)
		return
	}
	left := n.lostAt + n.cfg.DropTicks - n.now
	if left <= 0 {
		n.win()
		return
	}
	next := min(n.cfg.GatherTicks, left)
	if !el.waiting {
		// A host's death is often told twice: the connection lost, then
		// (milliseconds later) closed by its end, which ends the wait at
		// once. A wait is shown only once it lasted waitShowTicks; decide
		// again then.
		if waited := n.now - n.lostAt; waited >= waitShowTicks {
			el.waiting = true
			n.emit(Event{Kind: EvWaiting, Slot: -1, Name: OtherPlayers, TicksLeft: left})
		} else {
			next = min(next, waitShowTicks-waited)
		}
	}
	el.gatherEnd = n.now + next
	for _, p := range n.otherPlayers() {
		if !slices.Contains(el.answered, p) {
			n.send(Message{Kind: MsgClaim, To: p, Epoch: el.claim, Turn: n.hist.last(), Chain: n.hist.lastChain()})
		}
	}
}

// waitShowTicks is how long a candidate waits for the players it misses
// before it shows the wait (EvWaiting).
const waitShowTicks = 20

// rejoinLineage goes back to a host that others still follow.
func (n *Node) rejoinLineage(m Message) {
	if n.el != nil && len(n.el.failedHosts) > 0 && n.el.failedHosts[0] == m.Targets[0] {
		n.falseSuspicion(0)
	}
	n.releaseFollowers(m.Targets[0])
	n.backTo(m.Targets[0], m.Epoch)
}

// backTo follows host at epoch again, the host this node had before a
// migration that came to nothing: its history is still a part of that
// host's (the turns and the ack's chain check say if not), so it asks for
// what it missed rather than for a snapshot.
func (n *Node) backTo(host PeerID, epoch uint64) {
	n.becomeFollower(epoch, host, nil)
	delete(n.connLost, n.host)
	n.sendAck(true)
}

// win makes this node the host of the new epoch: it adopts the newest lobby
// and the longest history, sequences the departure of everyone who did not
// follow, takes the followers' unsequenced commands and resumes at once.
func (n *Node) win() {
	el := n.el
	for _, f := range el.followers {
		if f.lobby != nil && f.lobby.Revision > n.lobby.Revision {
			n.lobby = f.lobby.Clone()
		}
	}
	var best *followInfo
	for i := range el.followers {
		if f := &el.followers[i]; f.last > n.hist.last() && (best == nil || f.last > best.last) {
			best = f
		}
	}
	if best != nil {
		for _, t := range best.turns {
			if t.Number == n.hist.last()+1 {
				n.commit(t)
			}
		}
	}
	n.becomeHost(el.claim)
	h := n.hs
	for _, f := range el.followers {
		pi := h.addPeer(n, f.id, f.slot, f.last)
		pi.current, pi.msgAt, pi.epochAt = true, n.now, n.now
		pi.loaded = f.loaded
		h.loaded[f.id] = f.loaded
		if n.lobby.State == StateLoading && !f.loaded {
			n.sendResume(pi) // a resumed game: the saved state it still lacks
		}
	}
	if n.lobby.State == StateCountdown {
		n.lobby.State = StateLobby
	}
	for _, p := range n.roster() {
		if p == n.self || h.peer(p) != nil {
			continue
		}
		if bye := slices.Contains(el.byes, p); bye || n.lobby.State < StateLoading {
			why := DepartLost // in the lobby it loses its seat
			if bye {
				why = DepartLeft // a host that said Bye
			}
			h.dropPeer(n, p, why)
			continue
		}
		// A player that did not follow is away: its slot stays, and the
		// host keeps pinging it, so it finds this game again (or, if it
		// hosts another side of a split, the two merge).
		pi := h.addPeer(n, p, n.lobby.SlotOf(p), 0)
		pi.heard = n.now - n.cfg.FailTicks - 1
		h.setAway(n, pi, true)
		n.sidePing(pi)
	}
	for _, f := range el.followers {
		if pi := h.peer(f.id); pi != nil {
			h.takeCommands(n, pi, f.cmds)
			if f.last < n.hist.last() {
				n.catchUp(pi, f.last)
			}
		}
	}
	n.lobbyChanged()
	old := PeerID("")
	if len(el.failedHosts) > 0 {
		old = el.failedHosts[0]
	}
	n.emit(Event{Kind: EvHostChanged, OldHost: old, NewHost: n.self, Epoch: n.epoch, Ticks: n.now - n.lostAt})
	if n.lobby.State == StatePlaying {
		n.closeTurn()
	}
}
