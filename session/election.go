package session

import (
	"slices"
)

// election is the state of one host migration, from the first suspicion until
// a new host resumes.
type election struct {
	failedHosts []PeerID // hosts (and followed candidates) that failed
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

func (n *Node) rosterIndex(p PeerID) int { return slices.Index(n.roster(), p) }

// suspectHost starts (or continues) a migration away from the current host.
func (n *Node) suspectHost() {
	if n.hostLost {
		return
	}
	n.hostLost = true
	if n.el == nil {
		n.el = &election{}
		n.lostAt = n.now
	}
	if !slices.Contains(n.el.failedHosts, n.host) {
		n.el.failedHosts = append(n.el.failedHosts, n.host)
	}
	n.awaitResume = false
	n.nextCandidate()
}

// nextCandidate turns to the first player in the list that is not known to
// have failed: itself (then it claims) or another (then it waits for its claim).
func (n *Node) nextCandidate() {
	el := n.el
	el.expect = ""
	for _, p := range n.roster() {
		if slices.Contains(el.failedHosts, p) || slices.Contains(el.skipped, p) || n.connLost[p] {
			continue
		}
		if p == n.self {
			n.becomeCandidate()
			return
		}
		el.expect = p
		el.deadline = n.now + n.cfg.ClaimWaitTicks
		return
	}
	n.leave("Lost contact with every other player; the game cannot go on.")
}

func (n *Node) becomeCandidate() {
	el := n.el
	n.setRole(roleCandidate)
	gen := max(epochGen(n.epoch), el.maxGen) + 1
	el.maxGen = gen
	el.claim = makeEpoch(gen, n.slot)
	el.gatherEnd = n.now + n.cfg.GatherTicks
	el.followers, el.answered, el.alive = nil, nil, nil
	for _, p := range n.electorate() {
		n.send(Message{Kind: MsgClaim, To: p, Epoch: el.claim, Turn: n.last(), Chain: n.lastChain()})
	}
	for _, p := range n.lobby.Spectators {
		n.send(Message{Kind: MsgClaim, To: p, Epoch: el.claim, Turn: n.last(), Chain: n.lastChain()})
	}
	n.maybeDecide()
}

// electorate lists the players a candidate asks: every player but itself
// and the host whose loss began this migration. Candidates it followed that
// never resumed still count: one that gave up its claim is alive, and may be
// back with the others; leaving them out would let a peer win alone (a split
// outcome) after a few failed tries.
func (n *Node) electorate() []PeerID {
	var r []PeerID
	for _, p := range n.roster() {
		if p != n.self && (len(n.el.failedHosts) == 0 || p != n.el.failedHosts[0]) {
			r = append(r, p)
		}
	}
	return r
}

// lineageEpoch is the epoch of the last turn this node committed: the
// lineage whose history it holds.
func (n *Node) lineageEpoch() uint64 {
	if len(n.log) == 0 {
		return n.epoch
	}
	return n.log[len(n.log)-1].Epoch
}

func (n *Node) reject(m Message) {
	var host []PeerID
	if n.role == roleFollower && !n.hostLost && !n.awaitResume || n.role == roleHost {
		host = []PeerID{n.host}
	}
	n.send(Message{Kind: MsgReject, To: m.From, Epoch: n.epoch, Turn: n.last(), Chain: n.lastChain(), Targets: host})
}

func (n *Node) onClaim(m Message) {
	if n.rosterIndex(m.From) < 0 {
		return // not a player of this game (any more)
	}
	if n.el != nil {
		n.el.maxGen = max(n.el.maxGen, epochGen(m.Epoch))
	}
	// One vote a generation: a follower that followed a candidate never
	// follows another of the same generation, even one listed earlier, or
	// both could count it and win.
	if epochGen(m.Epoch) <= epochGen(n.epoch) {
		n.reject(m)
		return
	}
	if n.role == roleCandidate {
		mine := n.el.claim
		if epochGen(m.Epoch) > epochGen(mine) ||
			epochGen(m.Epoch) == epochGen(mine) && n.rosterIndex(m.From) < n.rosterIndex(n.self) {
			n.becomeFollower()
			n.follow(m)
		} else {
			// The claimer comes after this node: it gave up waiting for our
			// claim (slow to arrive, or sent before it suspected the host).
			// Claim again so it follows rather than stands alone.
			n.send(Message{Kind: MsgClaim, To: m.From, Epoch: mine, Turn: n.last(), Chain: n.lastChain()})
			n.reject(m)
		}
		return
	}
	if !n.hostLost && !n.awaitResume {
		// The host still seems alive: answer once it proves alive or fails.
		n.deferred = &m
		n.deferredAt = n.now
		return
	}
	n.follow(m)
}

// follow joins a candidate's new epoch and hands it what this node holds.
func (n *Node) follow(m Message) {
	if c, ok := n.chainAt(m.Turn); ok && c != m.Chain {
		n.reject(m) // another history: not our game
		return
	}
	if n.el == nil {
		n.el = &election{failedHosts: []PeerID{n.host}}
		n.lostAt = n.now
	}
	n.el.expect = ""
	n.epoch = m.Epoch
	n.host = m.From
	n.hostLost = false
	n.awaitResume = true
	n.hostHeard = n.now
	n.deferred = nil
	var cmds []Command
	for _, p := range n.pending {
		cmds = append(cmds, p.cmd)
	}
	l := n.lobby.Clone()
	n.send(Message{Kind: MsgFollow, To: m.From, Epoch: m.Epoch, Turn: n.last(), Chain: n.lastChain(),
		Turns: n.turnsAfter(m.Turn, n.last()), Lobby: &l, Commands: cmds, Loaded: n.loaded, Slot: n.slot})
}

func (n *Node) onFollow(m Message) {
	el := n.el
	if n.role != roleCandidate || m.Epoch != el.claim || slices.Contains(el.answered, m.From) {
		return
	}
	el.answered = append(el.answered, m.From)
	if !n.sameHistory(m) {
		return
	}
	slot := n.lobby.SlotOf(m.From)
	if slot >= 0 && n.isGone(slot) {
		slot = -1 // a departed player that came back to watch
	}
	if slot < 0 && !n.lobby.isSpectator(m.From) {
		return
	}
	el.followers = append(el.followers, followInfo{id: m.From, slot: slot, last: m.Turn, turns: m.Turns,
		lobby: m.Lobby, cmds: m.Commands, loaded: m.Loaded})
	n.maybeDecide()
}

// sameHistory checks a follower's history against ours by chain hash: the
// shorter must be a prefix of the longer.
func (n *Node) sameHistory(m Message) bool {
	if m.Turn <= n.last() {
		c, ok := n.chainAt(m.Turn)
		return !ok || c == m.Chain
	}
	h := n.lastChain()
	next := n.last() + 1
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

func (n *Node) onReject(m Message) {
	el := n.el
	if n.role != roleCandidate || el == nil || slices.Contains(el.answered, m.From) {
		return
	}
	el.maxGen = max(el.maxGen, epochGen(m.Epoch))
	el.answered = append(el.answered, m.From)
	if len(m.Targets) == 1 && (m.Epoch == n.epoch || m.Epoch == n.lineageEpoch()) && el.alive == nil {
		el.alive = &m
	}
	n.maybeDecide()
}

func (n *Node) candidateLost(p PeerID) {
	n.maybeDecide()
}

func (n *Node) candidateTick() {
	if n.now >= n.el.gatherEnd {
		n.timeout(MsgGatherOver)
	}
}

// maybeDecide decides as soon as every reachable player has answered.
func (n *Node) maybeDecide() {
	for _, p := range n.electorate() {
		if !slices.Contains(n.el.answered, p) && !n.connLost[p] {
			return
		}
	}
	n.decide()
}

// decide ends the gathering: with followers making a majority of the players
// (failed hosts not counted) this node becomes host; otherwise, if the old
// host turned out alive, it goes back to it; else it leaves cleanly.
func (n *Node) decide() {
	el := n.el
	players := 1
	for _, f := range el.followers {
		if f.slot >= 0 {
			players++
		}
	}
	if 2*players > len(n.electorate())+1 {
		n.win()
		return
	}
	n.failedTries++
	if el.alive != nil && n.failedTries < 3 {
		n.rejoinLineage(*el.alive)
		return
	}
	n.leave("Lost contact with most of the other players; this peer cannot go on with the game.")
}

// rejoinLineage goes back to a host that others still follow.
func (n *Node) rejoinLineage(m Message) {
	n.becomeFollower()
	n.epoch = m.Epoch
	n.host = m.Targets[0]
	n.hostLost = false
	n.awaitResume = false
	n.hostHeard = n.now
	n.el = nil
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
		if f := &el.followers[i]; f.last > n.last() && (best == nil || f.last > best.last) {
			best = f
		}
	}
	if best != nil {
		for _, t := range best.turns {
			if t.Number == n.last()+1 {
				n.commit(t)
			}
		}
	}
	n.epoch = el.claim
	n.becomeHost()
	h := n.hs
	for _, f := range el.followers {
		pi := h.addPeer(n, f.id, f.slot, f.last)
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
		why := DepartLost
		if slices.Contains(el.failedHosts, p) {
			why = DepartHostLost
		}
		h.dropPeer(n, p, why)
		// A host cut off from us may still believe it hosts: tell it that
		// a later one won, so it steps down rather than plays on alone.
		n.send(Message{Kind: MsgPing, To: p, Epoch: n.epoch, Turn: n.last()})
	}
	for _, f := range el.followers {
		if pi := h.peer(f.id); pi != nil {
			h.takeCommands(n, pi, f.cmds)
			if f.last < n.last() {
				n.hostSend(pi, Message{Kind: MsgTurns, Turns: n.turnsAfter(f.last, n.last())})
			}
		}
	}
	n.lobbyChanged()
	old := PeerID("")
	if len(el.failedHosts) > 0 {
		old = el.failedHosts[0]
	}
	n.emit(Event{Kind: EvHostChanged, OldHost: old, NewHost: n.self, Epoch: n.epoch, Ticks: n.now - n.lostAt})
	n.el = nil
	n.hostLost = false
	n.failedTries = 0
	if n.lobby.State == StatePlaying {
		n.closeTurn()
	}
}
