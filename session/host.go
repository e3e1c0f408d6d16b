package session

import (
	"crypto/hmac"
	"fmt"
	"slices"
)

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
	waited     int // ticks waited for it, recovering 1 per waitEarn ticks in step: a peer that keeps falling behind runs out
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
	hellos     map[PeerID]*Hello
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

func (n *Node) becomeHost() {
	n.setRole(roleHost)
	n.host = n.self
	n.hs = &hostState{
		nonces: map[PeerID]challenge{}, hellos: map[PeerID]*Hello{}, offences: map[PeerID]offenceRec{}, hashes: map[uint64][]PeerHash{},
		wrong:  map[PeerID]guesses{},
		loaded: map[PeerID]bool{}, repairing: map[PeerID]int{}, newer: map[PeerID]int{}, rivalAt: map[uint64]int{},
		sides: map[PeerID]sideNote{},
	}
	if n.loaded {
		n.hs.loaded[n.self] = true
	}
	// Bot commands the old host had not sequenced died with it: the bots
	// continue after the last sequenced command of their slot.
	for i, s := range n.lobby.Slots {
		if s.Kind == SlotBot || n.propSeq[i] < n.nextSeq[i]-1 {
			n.propSeq[i] = n.nextSeq[i] - 1
		}
	}
	// This node's own unsequenced commands go into the first turn. Numbers
	// past the history's next one were used on a branch the game discarded:
	// they are numbered on from it, or a gap would stop the slot for good.
	if n.slot >= 0 && n.nextSeq[n.slot] > 0 {
		n.renumberFrom(n.nextSeq[n.slot])
	}
	for _, p := range n.pending {
		if p.cmd.Seq == n.hs.expectSeq(n, p.cmd.Slot) {
			n.hs.open = append(n.hs.open, p.cmd)
		}
	}
	n.pending = nil
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
	*pi = peerInfo{id: p, slot: slot, heard: n.now, lastSend: n.now, acked: acked, stallSince: -1, srtt8: 8}
	pi.away = slot >= 0 && h.awaySlot(n, slot)
	return pi
}

// awaySlot reports whether slot is away at the next turn this host closes.
func (h *hostState) awaySlot(n *Node, slot int) bool {
	for i := len(h.openPres) - 1; i >= 0; i-- {
		if h.openPres[i].Slot == slot {
			return h.openPres[i].Away
		}
	}
	return n.isAway(slot)
}

// setAway sequences slot going away (or coming back) in the next turn.
func (h *hostState) setAway(n *Node, pi *peerInfo, away bool) {
	pi.away = away // the wait budget stays spent (budget.go)
	if pi.stallSince >= 0 {
		pi.stallSince = -1
		h.broadcastWait(n, pi.slot, 0)
	}
	h.openPres = slices.DeleteFunc(h.openPres, func(p Presence) bool { return p.Slot == pi.slot })
	if n.isAway(pi.slot) != away {
		h.openPres = append(h.openPres, Presence{Slot: pi.slot, Away: away})
	}
}

// maybeBack ends an away player's absence once it follows this host again
// and has caught up to within half the lag the host tolerates.
func (h *hostState) maybeBack(n *Node, pi *peerInfo, silent bool) {
	if _, moved := h.newer[pi.id]; silent || !pi.current || moved || n.last() > pi.acked+uint64(n.cfg.MaxLagTurns/2) {
		return
	}
	if n.lobby.State >= StateLoading && !h.loaded[pi.id] {
		return // back once its game screen is up
	}
	h.setAway(n, pi, false)
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
	if (m.Kind == MsgTurns || m.Kind == MsgPing) && pi.slot >= 0 && !n.isGone(pi.slot) {
		m.NextSeq = n.hs.expectSeq(n, pi.slot) // lets the peer mend a gap (see fixGap)
	}
	if m.Kind == MsgTurns && len(m.Turns) > 0 {
		// The chain the turns extend: a peer whose history differs (a
		// branch this game discarded) must not commit them onto its own.
		m.Chain, _ = n.chainAt(m.Turns[0].Number - 1)
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
		n.onMerge(m)
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
	if pi.slot < 0 || n.isGone(pi.slot) || pi.away || n.lobby.State != StatePlaying {
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
	next := n.nextSeq[slot]
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
		n.hostSend(pi, Message{Kind: MsgLobby, Lobby: &l})
	}
	if m.Need && m.Have < n.last() && (m.Have != pi.needHave || n.now-pi.resentAt >= n.cfg.ResendTicks) {
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
	if pi.acked >= n.base || n.lobby.State != StatePlaying {
		return false
	}
	if n.now-pi.rejoinAt >= n.cfg.ResendTicks {
		pi.rejoinAt = n.now
		n.hostSend(pi, Message{Kind: MsgMerge, Targets: []PeerID{n.self}})
	}
	return true
}

func (n *Node) onHello(m Message) {
	h := n.hs
	hello := m.Hello
	if hello == nil {
		return
	}
	refuse := func(code RefusalCode, text string) {
		n.send(Message{Kind: MsgRefuse, To: m.From, Refusal: &Refusal{Code: code, Text: text}})
	}
	if hello.Protocol != ProtocolVersion || hello.GameVersion != n.cfg.GameVersion {
		host := n.cfg.Name
		if host == "" {
			host = "The host"
		}
		refuse(RefuseVersion, fmt.Sprintf(
			"%s runs Hostfall %s (protocol %d); you run Hostfall %s (protocol %d): players need the same version to play together (hostfall version shows yours).",
			host, n.cfg.GameVersion, ProtocolVersion, hello.GameVersion, hello.Protocol))
		return
	}
	if n.isKicked(m.From) {
		refuse(RefuseKicked, "The host removed you from this session; you cannot join it again.")
		return
	}
	if n.lobby.Password && n.hs.guessing(n, m.From) {
		refuse(RefusePassword, "Too many wrong passwords from you; wait a little and try again.")
		return
	}
	if n.lobby.Password && h.challenges(n) >= maxChallenges {
		refuse(RefuseFull, "Too many players are joining at once; try again in a moment.")
		return
	}
	if n.lobby.Password && n.password == "" {
		// A host that took over without knowing the password (it joined
		// before the password was set) cannot check proofs: nobody new
		// gets in rather than anybody.
		refuse(RefusePassword, "This game has a password that its current host does not know, so nobody can join it now; ask the players to start a new game.")
		return
	}
	h.hellos[m.From] = hello
	if n.lobby.Password {
		nonce := n.random(nonceSize)
		h.nonces[m.From] = challenge{nonce: nonce, at: n.now}
		n.send(Message{Kind: MsgChallenge, To: m.From, Nonce: append(slices.Clone(n.hostSalt()), nonce...)})
		return
	}
	n.admit(m.From, hello)
}

func (n *Node) onProof(m Message) {
	h := n.hs
	c, ok := h.nonces[m.From]
	nonce := c.nonce
	hello := h.hellos[m.From]
	if !ok || hello == nil {
		return
	}
	delete(h.nonces, m.From)
	if !hmac.Equal(m.Proof, passwordProof(n.pwKey(n.password, n.hostSalt()), nonce, n.self, m.From)) {
		h.guessed(n, m.From)
		delete(h.hellos, m.From)
		n.send(Message{Kind: MsgRefuse, To: m.From, Refusal: &Refusal{Code: RefusePassword,
			Text: "The password is wrong; ask the host for the right one and try again."}})
		return
	}
	n.admit(m.From, hello)
}

// admit seats a joiner that passed the handshake: a known player rejoins its
// slot, a newcomer takes the first open slot in the lobby, and a spectator (or
// a known player whose slot has departed) watches.
func (n *Node) admit(p PeerID, hello *Hello) {
	h := n.hs
	delete(h.hellos, p)
	if old := h.peer(p); old != nil && old.welcomedAt > 0 && !old.connLost && n.now-old.welcomedAt < seekTicks/2 {
		// A Hello repeated before the answer to the last one could
		// arrive (that answer, a snapshot, is on its way): each would
		// cost a snapshot and a lobby broadcast. A node that lost its
		// answer asks again after seekTicks.
		return
	}
	slot := n.lobby.SlotOf(p)
	if slot < 0 && !hello.Spectate {
		slot = n.reservedFor(p, hello.Name)
	}
	playing := n.lobby.State != StateLobby
	spectate := hello.Spectate
	switch {
	case slot >= 0 && n.isGone(slot):
		spectate = true
		slot = -1
	case slot >= 0:
	case spectate:
	case n.lobby.Resume > 0 && !playing:
		n.send(Message{Kind: MsgRefuse, To: p, Refusal: &Refusal{Code: RefuseNotMember,
			Text: "This session resumes a saved game, and you were not one of its players; you can join it as a spectator."}})
		return
	case playing:
		n.send(Message{Kind: MsgRefuse, To: p, Refusal: &Refusal{Code: RefuseInProgress,
			Text: "The game has already started; you can join it as a spectator."}})
		return
	default:
		for i, s := range n.lobby.Slots {
			if s.Kind == SlotOpen {
				slot = i
				break
			}
		}
		if slot < 0 {
			n.send(Message{Kind: MsgRefuse, To: p, Refusal: &Refusal{Code: RefuseFull,
				Text: fmt.Sprintf("The session is full (%d players).", n.lobby.MaxPlayers)}})
			return
		}
		n.lobby.Slots[slot] = Slot{Kind: SlotHuman, Peer: p, Name: hello.Name, Color: n.lobby.Slots[slot].Color}
	}
	if spectate && !n.lobby.isSpectator(p) {
		n.lobby.Spectators = append(n.lobby.Spectators, p)
	}
	if old := h.peer(p); old != nil && old.stallSince >= 0 && slot >= 0 {
		h.broadcastWait(n, slot, 0) // it is back: the wait is over
	}
	pi := h.addPeer(n, p, slot, n.last())
	n.lobbyChanged()
	next := uint64(1)
	if slot >= 0 {
		next = h.expectSeq(n, slot)
	}
	l := n.lobby.Clone()
	n.hostSend(pi, Message{Kind: MsgWelcome, Slot: slot, Lobby: &l, NextSeq: next})
	if n.lobby.State == StatePlaying {
		pi.welcomedAt = n.now
	}
	if n.lobby.State == StateLoading {
		n.sendResume(pi)
	}
	if n.lobby.State == StatePlaying {
		// Catch up by snapshot plus the turns since (late join / rejoin).
		n.snapTargets = append(n.snapTargets, p)
		if n.released == 0 {
			n.snapTargets = n.snapTargets[:len(n.snapTargets)-1]
			n.hostSend(pi, Message{Kind: MsgSnapshot, Lobby: &l, Turns: n.turnsAfter(0, n.last())})
		}
	}
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
	if slot < 0 || n.isGone(slot) {
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

func (h *hostState) broadcastWait(n *Node, slot, left int) {
	name := n.lobby.Slots[slot].Name
	switch {
	case slot == n.slot: // the others wait for this host: nothing to show here
	case left > 0:
		n.emit(Event{Kind: EvWaiting, Slot: slot, Name: name, TicksLeft: left})
	default:
		n.emit(Event{Kind: EvWaitOver, Slot: slot, Name: name})
	}
	for _, pi := range h.peers {
		if pi.slot != slot {
			n.hostSend(pi, Message{Kind: MsgWaiting, Slot: slot, Count: uint32(left)})
		}
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
		if n.lobby.State == StatePlaying && pi.current && pi.acked < n.last() && n.now-pi.heard < n.cfg.FailTicks &&
			n.now-pi.resentAt >= n.cfg.ResendTicks && n.now-h.sentAt(pi.acked+1) >= n.cfg.ResendTicks && !n.sendRejoin(pi) {
			pi.resentAt = n.now
			n.catchUp(pi, pi.acked)
		}
	}
	h.checkHashes(n)
}

// waitOwnLoading shows the others that the game waits for this host's own
// loading, as it shows them a slow loader among them (see checkPeers).
func (h *hostState) waitOwnLoading(n *Node) {
	if n.slot < 0 || n.slot >= len(n.lobby.Slots) {
		return
	}
	if h.loaded[n.self] || n.lobby.State != StateLoading {
		if h.selfWait != 0 {
			h.selfWait = 0
			h.broadcastWait(n, n.slot, 0)
		}
		return
	}
	since := n.now - h.loadFrom - n.cfg.FailTicks
	if since <= 0 || h.selfWait != 0 && n.now-h.selfWait < n.cfg.CountdownTicks {
		return
	}
	h.selfWait = n.now
	h.broadcastWait(n, n.slot, max(n.cfg.LoadTicks-since, 1))
}

func (h *hostState) sentAt(turn uint64) int {
	s := h.sent[turn%uint64(len(h.sent))]
	if s.turn == turn {
		return s.at
	}
	return -1 << 30
}

func (h *hostState) allLoaded(n *Node) bool {
	for i, s := range n.lobby.Slots {
		leaving := slices.ContainsFunc(h.openDeps, func(d Departure) bool { return d.Slot == i })
		if s.Kind == SlotHuman && !n.isGone(i) && !h.loaded[s.Peer] && !leaving && !h.awaySlot(n, i) {
			return false
		}
	}
	return true
}

// checkPeers finds players that are silent, disconnected or too far behind
// and shows the wait to everyone; when it runs out, a player in a game is
// away (its slot stays; nobody waits for it any more) and one in the lobby
// loses its seat. It reports whether the host must hold back.
func (h *hostState) checkPeers(n *Node) bool {
	stalled := false
	for _, pi := range slices.Clone(h.peers) {
		if pi.stallSince == -2 {
			continue // already leaving
		}
		silent := n.now-pi.heard > n.peerSilence(pi) || pi.connLost
		if pi.slot < 0 || n.isGone(pi.slot) {
			if silent && n.now-pi.heard > n.cfg.DropTicks {
				h.dropPeer(n, pi.id, DepartLost) // a silent spectator
			}
			continue
		}
		if !pi.connLost && n.renewing(pi.id) {
			// A planned silence: hold the turns back if it lags, but
			// show nobody a wait.
			stalled = stalled || n.lobby.State == StatePlaying && n.last() > pi.acked+uint64(n.cfg.MaxLagTurns)
			continue
		}
		if pi.away {
			h.maybeBack(n, pi, silent)
			continue
		}
		if pi.connLost && n.closed[pi.id] && n.lobby.State >= StateLoading {
			// Its end closed the connection: its process is gone (or it
			// hung up, a split the merge rule heals). Nobody waits for it;
			// its slot stays for its return.
			h.setAway(n, pi, true)
			continue
		}
		if h.waitFor(n, pi, silent) {
			stalled = stalled || n.lobby.State == StatePlaying
		}
	}
	return stalled
}

// waitFor counts down the wait for one player that is silent, lagging or
// slow to load, and ends it: back in step, away, or (in the lobby) gone. It
// reports whether the player is being waited for.
func (h *hostState) waitFor(n *Node, pi *peerInfo, silent bool) bool {
	lag := n.lobby.State == StatePlaying && n.last() > pi.acked+uint64(n.cfg.MaxLagTurns)
	// A player still loading its game screen is waited for in the open
	// once the loading takes longer than a silence would, and for
	// LoadTicks as long as it answers: slow, not gone.
	loading := n.lobby.State == StateLoading && !h.loaded[pi.id] && n.now-h.loadFrom > n.cfg.FailTicks
	if pi.stallSince >= 0 && !silent && n.last() <= pi.acked+uint64(n.cfg.MaxLagTurns/2) {
		lag = false // caught up well enough: end the wait (hysteresis, so it does not flap)
	} else if pi.stallSince >= 0 && !silent && n.lobby.State == StatePlaying {
		lag = true
	}
	if !silent && !lag && !loading {
		if pi.stallSince >= 0 {
			pi.stallSince = -1
			h.broadcastWait(n, pi.slot, 0)
		}
		// Keeping up refills the budget, slowly (budget.go); a long
		// load's wait does not weigh on the game's.
		pi.waited = min(pi.waited, n.cfg.DropTicks)
		if pi.waited > 0 && n.now%waitEarn == 0 {
			pi.waited--
		}
		return false
	}
	if n.lobby.State != StatePlaying && !silent && !loading {
		return false
	}
	pi.waited++
	budget := n.cfg.DropTicks
	if loading && !silent {
		budget = n.cfg.LoadTicks
	}
	left := budget - pi.waited
	if pi.stallSince < 0 {
		pi.stallSince = n.now
		pi.lastWaitEv = n.now
		h.broadcastWait(n, pi.slot, left)
	}
	switch {
	case left > 0:
		if n.now-pi.lastWaitEv >= n.cfg.CountdownTicks {
			pi.lastWaitEv = n.now
			h.broadcastWait(n, pi.slot, left)
		}
		return true
	case n.lobby.State >= StateLoading:
		h.setAway(n, pi, true)
	default:
		h.dropPeer(n, pi.id, DepartLost)
	}
	return false
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
	if m.Kind != MsgClaim || 2*len(h.newer) <= len(voters) || !n.owns(m.From, m.Epoch) {
		return false // a rival host is met by the split rule (rivalPing)
	}
	if c, ok := n.chainAt(m.Turn); !ok && m.Turn > n.last() || ok && c != m.Chain {
		n.stepDownTo(m.From)
		return true
	}
	n.becomeFollower()
	n.el = &election{failedHosts: []PeerID{n.self}, maxGen: epochGen(m.Epoch)}
	n.lostAt = n.now
	n.hostLost = true
	n.follow(m)
	return true
}

// closeTurn sequences the open commands and departures into the next turn and
// sends it to every peer.
func (n *Node) closeTurn() {
	h := n.hs
	t := Turn{Epoch: n.epoch, Number: n.last() + 1, Commands: h.open, Departures: h.openDeps, Presence: h.openPres}
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
	member := slot >= 0 && !n.isGone(slot) && !slices.ContainsFunc(h.openDeps, func(d Departure) bool { return d.Slot == slot })
	if slot < 0 && n.lobby.isSpectator(m.From) {
		member = true
	}
	if !member || m.Turn > n.last() || !n.sameHistory(m) {
		if slot >= 0 && !n.isGone(slot) || n.lobby.isSpectator(m.From) {
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
	n.hostSend(pi, Message{Kind: MsgLobby, Lobby: &l})
	if m.Turn < n.last() {
		n.catchUp(pi, m.Turn)
	}
}

// Password guessing is throttled per peer: after freeGuesses wrong proofs in
// a row (a player who mistyped retries at once), a peer waits before it is
// challenged again, a second longer for each further wrong proof (up to a
// minute), and the host keeps at most maxChallenges open
// challenges, so fresh peer IDs cannot grow its memory either. (Per
// address, the transport budgets proofs, p2p.Limits.ProofRate: the
// session sees peer IDs only.)
const (
	freeGuesses   = 2
	maxChallenges = 64
	maxGuessers   = 256
	guessWait     = 100 // ticks (1 s) per wrong proof in a row
	maxGuessWait  = 6000
)

// challenge is a nonce sent to a joiner, and when.
type challenge struct {
	nonce []byte
	at    int
}

// challengeTicks is how long a challenge waits for its proof (10 s).
const challengeTicks = 1000

// challenges drops the challenges no proof answered in time and counts the
// others.
func (h *hostState) challenges(n *Node) int {
	for p, c := range h.nonces {
		if n.now-c.at > challengeTicks {
			delete(h.nonces, p)
			delete(h.hellos, p)
		}
	}
	return len(h.nonces)
}

type guesses struct {
	wrong int // wrong proofs in a row
	until int // tick before which the peer is not challenged again
}

func (h *hostState) guessing(n *Node, p PeerID) bool {
	g, ok := h.wrong[p]
	return ok && n.now < g.until
}

func (h *hostState) guessed(n *Node, p PeerID) {
	if len(h.wrong) >= maxGuessers {
		for q, g := range h.wrong { // forget those whose wait is over
			if n.now >= g.until {
				delete(h.wrong, q)
			}
		}
		if len(h.wrong) >= maxGuessers {
			return // every slot waits already; the challenge cap still holds
		}
	}
	g := h.wrong[p]
	g.wrong++
	if g.wrong > freeGuesses {
		g.until = n.now + min(guessWait*(g.wrong-freeGuesses), maxGuessWait)
	}
	h.wrong[p] = g
}
