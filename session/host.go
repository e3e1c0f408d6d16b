package session

import (
	"fmt"
	"slices"
)

// The host role: its view of every peer, stepHost and hostTick, commands
// sequenced into turns, catch-ups, and stepping down for a majority that
// moved on. Who gets in is admission.go's; who is waited for, away or
// back is presence.go's.

// peerInfo is the host's view of one joined peer.
type peerInfo struct {
	id         PeerID
	slot       int // -1 for a spectator
	heard      int
	lastSend   int
	acked      uint64
	srtt8      int // smoothed round trip in ticks × 8
	connLost   bool
	stallSince int // tick the wait for it began; -1 when not waiting
	lastWaitEv int
	waited     int     // ticks waited for it, recovering 1 per waitEarn ticks in step: a peer that keeps falling behind runs out
	waitedMin  waitLog // the ticks the game waited for it in the last minute (budget.go)
	resentAt   int
	rejoinAt   int    // tick it was last told to rejoin by snapshot (see sendRejoin)
	needHave   uint64 // the turn it last asked to be sent turns after
	loaded     bool
	away       bool // its slot is away (or will be at the next turn)
	current    bool // its last message was of this host's epoch
	msgAt      int  // tick of its last message (heard also counts reconnections)
	epochAt    int  // tick of its last message of this host's epoch: on this side (see onSide)

	// silence is what this host learnt of the player's link stalls (see
	// suspect.go).
	silence learntSilence

	welcomedAt int // tick of its last Welcome during play (0: none)

	answers answerBudget // what this host may still answer it (budget.go)
	bulk    bulkUse      // its commands' bytes this minute (budget.go)
}

type sentTurn struct {
	turn uint64
	at   int
}

// hostState exists while this node hosts.
type hostState struct {
	open       []Command
	openDeps   []Departure
	openPres   []Presence
	turnTimer  int
	peers      []*peerInfo // in join order
	nonces     map[PeerID]challenge
	hellos     map[PeerID]Message    // Hellos waiting for their proof
	offences   map[PeerID]offenceRec // members' messages no honest client sends (offence.go)
	wrong      map[PeerID]guesses    // peers whose last proofs were wrong
	hashes     map[uint64][]PeerHash
	count      int
	countTimer int
	loaded     map[PeerID]bool
	sent       [64]sentTurn
	repairing  map[PeerID]int      // peer → tick its repair was ordered
	newer      map[PeerID]int      // players heard in a later generation, and when (see newerHeard)
	wonOver    []uint64            // rival epochs this host told to merge into it (see rivalPing)
	rivalAt    map[uint64]int      // rival epoch → tick this host first heard it
	sides      map[PeerID]sideNote // what players of other sides said they follow (see sideReport)
	loadFrom   int                 // tick the loading began
	selfWait   int                 // tick the others were last told to wait for this host's loading; 0: not told
}

func (h *hostState) peer(p PeerID) *peerInfo {
	for _, pi := range h.peers {
		if pi.id == p {
			return pi
		}
	}
	return nil
}

func (h *hostState) addPeer(n *Node, p PeerID, slot int, acked uint64) *peerInfo {
	pi := h.peer(p)
	if pi == nil {
		pi = &peerInfo{id: p}
		h.peers = append(h.peers, pi)
	}
	// What it may still cost this host stays: a Hello again does not
	// refill a budget (budget.go).
	*pi = peerInfo{id: p, slot: slot, heard: n.now, lastSend: n.now, acked: acked, stallSince: -1, srtt8: 8,
		answers: pi.answers, waited: pi.waited, waitedMin: pi.waitedMin, bulk: pi.bulk}
	pi.away = slot >= 0 && h.awaySlot(n, slot)
	return pi
}

// recipients lists the peers that receive broadcasts, in join order.
func (h *hostState) recipients(n *Node) []PeerID {
	var r []PeerID
	for _, pi := range h.peers {
		r = append(r, pi.id)
	}
	return r
}

func (h *hostState) connChanged(n *Node, p PeerID, lost bool) {
	if pi := h.peer(p); pi != nil {
		pi.connLost = lost
		if !lost {
			pi.heard = n.now
		}
	}
}

// hostSend sends to a peer and notes the time (for heartbeats).
func (n *Node) hostSend(pi *peerInfo, m Message) {
	pi.lastSend = n.now
	m.To = pi.id
	m.Epoch = n.epoch
	if (m.Kind == MsgTurns || m.Kind == MsgPing) && pi.slot >= 0 && !n.hist.isDeparted(pi.slot) {
		m.NextSeq = n.hs.expectSeq(n, pi.slot) // lets the peer mend a gap (see fixGap)
	}
	if m.Kind == MsgTurns && len(m.Turns) > 0 {
		// The chain the turns extend: a peer whose history differs (a
		// branch this game discarded) must not commit them onto its own.
		m.Chain, _ = n.hist.chainAt(m.Turns[0].Number - 1)
	}
	n.send(m)
}

func (n *Node) stepHost(m Message) {
	h := n.hs
	if m.Kind != MsgHello && m.Kind != MsgProof && m.Kind != MsgBye && n.newerHeard(m) {
		return
	}
	switch m.Kind {
	case MsgHello:
		n.onHello(m)
		return
	case MsgProof:
		n.onProof(m)
		return
	case MsgClaim:
		// Somebody believes this host failed; it did not.
		n.reject(m)
		return
	case MsgFollow:
		n.lateFollower(m)
		return
	case MsgReject:
		h.sideReport(n, m)
		return
	}
	if m.Kind == MsgMerge {
		n.hostMerge(m)
		return
	}
	if n.rivalPing(m) {
		return
	}
	pi := h.peer(m.From)
	if pi == nil {
		return
	}
	n.heardAfter(pi, n.now-pi.heard)
	pi.answers.credit(weight(&m))
	pi.heard, pi.msgAt = n.now, n.now
	pi.connLost = false
	pi.current = m.Epoch == n.epoch
	if pi.current {
		pi.epochAt = n.now
	}
	switch m.Kind {
	case MsgSnapshot:
		if m.From == n.snapFrom {
			n.applySnapshot(m) // this host was in the minority of a desync
		}
	case MsgBye:
		h.dropPeer(n, m.From, DepartLeft)
	case MsgEdit:
		if m.Edit != nil {
			n.applyEdit(pi.slot, *m.Edit)
		}
	case MsgChat:
		if m.Chat != nil {
			c := *m.Chat
			c.FromSlot = pi.slot
			if pi.slot >= 0 {
				c.FromName = n.lobby.Slots[pi.slot].Name
			}
			h.relayChat(n, &c)
		}
	case MsgLoaded:
		pi.loaded = true
		h.loaded[pi.id] = true
	case MsgCommands:
		if m.Epoch == n.epoch {
			h.checkCommands(n, pi, m.Commands)
			h.takeCommands(n, pi, m.Commands)
		}
	case MsgAck:
		if m.Epoch == n.epoch {
			h.checkReports(n, pi, m.Hashes)
			h.onAck(n, pi, m)
		}
	}
}

// A slot's budget in one turn: what a player can ask for in 50 ms with room
// to spare, and one command of any size. Commands past it wait with their
// sender, which resends them until a turn holds them; so one player's
// flood neither delays the others' commands nor makes a turn too large to
// send.
const (
	maxSlotCmdsPerTurn  = 64
	maxSlotBytesPerTurn = 64 << 10
)

// takeCommands appends the sender's commands to the open turn, attributed to
// the sender's slot, within the slot's budget; duplicates and out-of-order
// ones are dropped (the sender resends until it sees them committed).
func (h *hostState) takeCommands(n *Node, pi *peerInfo, cmds []Command) {
	if pi.slot < 0 || n.hist.isDeparted(pi.slot) || pi.away || n.lobby.State != StatePlaying {
		return
	}
	count, size := h.openLoad(pi.slot)
	for _, c := range cmds {
		c.Slot = pi.slot
		if c.Seq != h.expectSeq(n, pi.slot) {
			continue
		}
		if count >= maxSlotCmdsPerTurn || count > 0 && size+len(c.Data) > maxSlotBytesPerTurn {
			return // the rest wait for a later turn
		}
		if len(c.Data) > pi.bulk.room(n.now) {
			h.offence(n, pi, fmt.Sprintf("more than %d KiB of commands in a minute", bulkBytes>>10))
			return // they wait; the sender resends
		}
		pi.bulk.bytes += len(c.Data)
		h.open = append(h.open, c)
		count, size = count+1, size+len(c.Data)
	}
}

// openLoad is how many commands, and bytes of them, slot has in the open turn.
func (h *hostState) openLoad(slot int) (count, size int) {
	for _, c := range h.open {
		if c.Slot == slot {
			count, size = count+1, size+len(c.Data)
		}
	}
	return count, size
}

func (h *hostState) expectSeq(n *Node, slot int) uint64 {
	next := n.hist.nextSeq[slot]
	for _, c := range h.open {
		if c.Slot == slot {
			next = c.Seq + 1
		}
	}
	return next
}

func (h *hostState) onAck(n *Node, pi *peerInfo, m Message) {
	if m.Loaded {
		pi.loaded = true
		h.loaded[pi.id] = true
	}
	if m.Have > pi.acked || m.Need {
		s := h.sent[m.Have%uint64(len(h.sent))]
		if m.Have > pi.acked && s.turn == m.Have && !m.Need {
			sample := (n.now - s.at) * 8
			pi.srtt8 += (sample - pi.srtt8) / 4
		}
		pi.acked = m.Have
	}
	if m.Need && n.sendRejoin(pi) {
		return
	}
	if m.Need && n.lobby.State < StatePlaying && n.now-pi.resentAt >= n.cfg.ResendTicks {
		// Back from a migration that came to nothing: the lobby may have
		// moved on (a countdown ended, the game loads) while it followed
		// the candidate.
		pi.resentAt = n.now
		l := n.lobby.Clone()
		n.answer(pi, Message{Kind: MsgLobby, Lobby: &l})
	}
	if m.Need && m.Have < n.hist.last() && (m.Have != pi.needHave || n.now-pi.resentAt >= n.cfg.ResendTicks) {
		// One answer per gap: a peer that wakes up reads many pings at
		// once and asks for the same turns after each.
		pi.resentAt, pi.needHave = n.now, m.Have
		n.catchUp(pi, m.Have)
	}
	for _, hr := range m.Hashes {
		h.recordHash(n, pi.id, hr.Turn, hr.Hash)
	}
}

// sendRejoin handles a peer that needs turns from before the snapshot this
// host started from: only a snapshot brings it up, so it is told to rejoin
// (see seek), at most once per ResendTicks. It reports whether it was so.
func (n *Node) sendRejoin(pi *peerInfo) bool {
	if pi.acked >= n.hist.base || n.lobby.State != StatePlaying {
		return false
	}
	if n.now-pi.rejoinAt >= n.cfg.ResendTicks {
		pi.rejoinAt = n.now
		n.hostSend(pi, Message{Kind: MsgMerge, Targets: []PeerID{n.self}})
	}
	return true
}

// dropPeer removes a peer: in the lobby its slot opens; in a game its
// departure goes into the next turn.
func (h *hostState) dropPeer(n *Node, p PeerID, why DepartReason) {
	pi := h.peer(p)
	slot := n.lobby.SlotOf(p)
	if pi != nil {
		h.peers = slices.DeleteFunc(h.peers, func(x *peerInfo) bool { return x.id == p })
		if pi.stallSince >= 0 && slot >= 0 {
			h.broadcastWait(n, slot, 0)
		}
	}
	if i := slices.Index(n.lobby.Spectators, p); i >= 0 {
		n.lobby.Spectators = slices.Delete(n.lobby.Spectators, i, i+1)
		n.lobbyChanged()
	}
	if slot < 0 || n.hist.isDeparted(slot) {
		return
	}
	// Once loading began the players are in every peer's world: one who
	// leaves while loading departs in the first turn, as in play.
	if n.lobby.State >= StateLoading {
		for _, d := range h.openDeps {
			if d.Slot == slot {
				return
			}
		}
		h.openDeps = append(h.openDeps, Departure{Slot: slot, Reason: why})
		if pi != nil {
			// It still gets the turn that removes it, so it learns why.
			h.peers = append(h.peers, pi)
			pi.stallSince = -2
		}
		return
	}
	if n.lobby.Resume > 0 {
		n.lobby.Slots[slot].Ready = false // still reserved for its player
	} else {
		c := n.lobby.Slots[slot].Color
		n.lobby.Slots[slot] = Slot{Kind: SlotOpen, Color: c}
	}
	if n.lobby.State == StateCountdown {
		n.lobby.State = StateLobby
	}
	n.lobbyChanged()
}

func (h *hostState) relayChat(n *Node, c *Chat) {
	deliver := func(p PeerID) bool {
		if c.Team == 0 {
			return true
		}
		s := n.lobby.SlotOf(p)
		return s >= 0 && n.lobby.Slots[s].Team == c.Team
	}
	if deliver(n.self) || c.FromSlot == n.slot {
		n.emit(Event{Kind: EvChat, Chat: c})
	}
	for _, pi := range h.peers {
		if deliver(pi.id) || (pi.slot == c.FromSlot && pi.slot >= 0) {
			n.hostSend(pi, Message{Kind: MsgChat, Chat: c})
		}
	}
}

func (h *hostState) sendCount(n *Node) {
	n.emit(Event{Kind: EvCountdown, Count: h.count})
	for _, pi := range h.peers {
		n.hostSend(pi, Message{Kind: MsgCountdown, Count: uint32(h.count)})
	}
}

func (n *Node) hostTick() {
	h := n.hs
	switch n.lobby.State {
	case StateCountdown:
		h.countTimer++
		if h.countTimer >= n.cfg.CountdownTicks {
			h.countTimer = 0
			h.count--
			if h.count > 0 {
				h.sendCount(n)
			} else {
				n.startLoading()
			}
		}
	case StateLoading:
		if h.allLoaded(n) {
			n.resume = nil
			n.lobby.State = StatePlaying
			n.lobbyChanged()
			n.emit(Event{Kind: EvGameStarted, Turn: n.lobby.Resume + 1})
			h.turnTimer = int(n.lobby.TurnTicks)
		}
		h.waitOwnLoading(n)
	}
	stalled := h.checkPeers(n)
	if n.role != roleHost {
		return
	}
	if n.lobby.State == StatePlaying {
		h.turnTimer++
		if h.turnTimer >= int(n.lobby.TurnTicks) && (!stalled || len(h.openDeps) > 0) {
			h.turnTimer = 0
			n.closeTurn()
		}
	}
	for _, pi := range h.peers {
		if n.now-pi.lastSend >= n.cfg.HeartbeatTicks {
			n.sidePing(pi)
		}
		if n.lobby.State == StatePlaying && pi.current && pi.acked < n.hist.last() && n.now-pi.heard < n.cfg.FailTicks &&
			n.now-pi.resentAt >= n.cfg.ResendTicks && n.now-h.sentAt(pi.acked+1) >= n.cfg.ResendTicks && !n.sendRejoin(pi) {
			pi.resentAt = n.now
			n.catchUp(pi, pi.acked)
		}
	}
	h.checkHashes(n)
}

func (h *hostState) sentAt(turn uint64) int {
	s := h.sent[turn%uint64(len(h.sent))]
	if s.turn == turn {
		return s.at
	}
	return -1 << 30
}

// newerHeard notes a player of this game that has moved to a later
// generation (it claims, or follows, a newer epoch). This host steps down
// only once a strict majority of the players present has moved: then it
// follows the claim, or seeks the game they went on with. A claim without
// that majority is rejected (naming this host, so the claimer comes back),
// and a rival host that resumed is met by the split rule (see rivalPing).
func (n *Node) newerHeard(m Message) bool {
	h := n.hs
	if n.rosterIndex(m.From) < 0 {
		return false
	}
	if epochGen(m.Epoch) <= epochGen(n.epoch) {
		delete(h.newer, m.From)
		return false
	}
	h.newer[m.From] = n.now
	for p, at := range h.newer {
		if n.now-at > n.cfg.FailTicks {
			// Not heard in the later generation since: a player that
			// claimed and gave it up (it seeks now, say) no longer
			// counts, or its old claim and a member's forged one would
			// make a majority of three.
			delete(h.newer, p)
		}
	}
	// The players that moved count among the voters even when this host
	// marked them away: a host left alone does not step down for one claim
	// from a player it had given up on (its claim may be seconds old).
	voters := n.presentPlayers()
	for p := range h.newer {
		if !slices.Contains(voters, p) {
			voters = append(voters, p)
		}
	}
	if m.Kind != MsgClaim || !majority(len(h.newer), len(voters)) || !n.owns(m.From, m.Epoch) {
		return false // a rival host is met by the split rule (rivalPing)
	}
	if c, ok := n.hist.chainAt(m.Turn); !ok && m.Turn > n.hist.last() || ok && c != m.Chain {
		n.stepDownTo(m.From)
		return true
	}
	n.el = &election{failedHosts: []PeerID{n.self}, maxGen: epochGen(m.Epoch)}
	n.lostAt = n.now
	n.follow(m)
	return true
}

// closeTurn sequences the open commands and departures into the next turn and
// sends it to every peer.
func (n *Node) closeTurn() {
	h := n.hs
	t := Turn{Epoch: n.epoch, Number: n.hist.last() + 1, Commands: h.open, Departures: h.openDeps, Presence: h.openPres}
	h.open, h.openDeps, h.openPres = nil, nil, nil
	n.commit(t)
	h.sent[t.Number%uint64(len(h.sent))] = sentTurn{turn: t.Number, at: n.now}
	n.adaptDelay()
	var keep []*peerInfo
	for _, pi := range h.peers {
		if pi.current && (pi.acked+1 >= t.Number || n.now-pi.heard < n.cfg.FailTicks) {
			n.hostSend(pi, Message{Kind: MsgTurns, Turns: []Turn{t}, Delay: n.delay})
		}
		if pi.stallSince != -2 {
			keep = append(keep, pi)
		}
	}
	h.peers = keep
}

// adaptDelay sets the input delay from the slowest player's round trip: on a
// LAN it stays 0, over a slow link turns are buffered to hide jitter.
func (n *Node) adaptDelay() {
	worst := 0
	for _, pi := range n.hs.peers {
		if pi.slot >= 0 && pi.srtt8 > worst {
			worst = pi.srtt8
		}
	}
	tt := int(n.lobby.TurnTicks) * 8
	d := uint32(worst / tt)
	if d > uint32(n.cfg.MaxDelayTurns) {
		d = uint32(n.cfg.MaxDelayTurns)
	}
	n.delay = d
}

// lateFollower takes in a peer whose Follow arrived after this node had won
// the epoch: a spectator, or a player whose departure was not sequenced yet.
func (n *Node) lateFollower(m Message) {
	h := n.hs
	if m.Epoch != n.epoch || h.peer(m.From) != nil {
		return
	}
	slot := n.lobby.SlotOf(m.From)
	member := slot >= 0 && !n.hist.isDeparted(slot) && !slices.ContainsFunc(h.openDeps, func(d Departure) bool { return d.Slot == slot })
	if slot < 0 && n.lobby.isSpectator(m.From) {
		member = true
	}
	if !member || m.Turn > n.hist.last() || !n.sameHistory(m) {
		if slot >= 0 && !n.hist.isDeparted(slot) || n.lobby.isSpectator(m.From) {
			// Its history is not ours (or is ahead): it rejoins by snapshot.
			n.send(Message{Kind: MsgMerge, To: m.From, Epoch: n.epoch, Targets: []PeerID{n.self}})
			return
		}
		n.send(Message{Kind: MsgRefuse, To: m.From, Refusal: &Refusal{Code: RefuseNotMember,
			Text: "The game went on without you while the host changed."}})
		return
	}
	pi := h.addPeer(n, m.From, slot, m.Turn)
	h.takeCommands(n, pi, m.Commands)
	l := n.lobby.Clone()
	n.answer(pi, Message{Kind: MsgLobby, Lobby: &l})
	if m.Turn < n.hist.last() {
		n.catchUp(pi, m.Turn)
	}
}
