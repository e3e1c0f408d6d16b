package session

import (
	"errors"
	"fmt"
	"slices"
)

// Errors callers branch on.
var (
	ErrNotHost     = errors.New("session: only the host can do that")
	ErrNotDriven   = errors.New("session: this node does not drive that slot")
	ErrNotPlaying  = errors.New("session: the game is not running")
	ErrNotInLobby  = errors.New("session: the game has already started")
	ErrNotReady    = errors.New("session: not every player is ready")
	ErrOneSide     = errors.New("session: a game needs two sides")
	ErrLeft        = errors.New("session: the node has left the session")
	ErrWrongTurn   = errors.New("session: no snapshot was asked for that turn")
	ErrBadArgument = errors.New("session: bad argument")
)

// epochSlotBits: an epoch is generation<<epochSlotBits | host slot, so two
// hosts can never sequence turns under the same epoch value.
const epochSlotBits = 4

func makeEpoch(gen uint64, slot int) uint64 { return gen<<epochSlotBits | uint64(slot) }
func epochGen(e uint64) uint64              { return e >> epochSlotBits }
func epochSlot(e uint64) int                { return int(e & (1<<epochSlotBits - 1)) }

// maxGenLeap bounds how far ahead of the newest generation this node knows
// a message may be. Generations grow by one a migration, so an honest peer
// is never millions ahead; a message that is is refused before it can push
// every later claim (and the generation written to disk) towards overflow.
const maxGenLeap = 1 << 16

// maxGenStep bounds how far one message of a player moves the newest
// generation this node knows (which its next claim builds on and which is
// written to disk). An honest game moves it by one a migration, and a
// missed run of failed claims by a few; a member that puts a generation
// far ahead in every message walks it only this far each time.
const maxGenStep = 64

// owns reports whether p may act as the host of epoch e: an epoch carries
// the slot of the player that claimed it, and only that player sequences,
// pings or merges in its name.
func (n *Node) owns(p PeerID, e uint64) bool {
	s := n.lobby.SlotOf(p)
	return s >= 0 && s == epochSlot(e)
}

// EpochGeneration is how many hosts an epoch value counts (1 for the first
// host, 2 after one hand-over, …): what a person reads, where the epoch
// itself also encodes the host's slot.
func EpochGeneration(e uint64) uint64 { return epochGen(e) }

// EpochSlot is the lobby slot of the player that hosts epoch e.
func EpochSlot(e uint64) int { return epochSlot(e) }

// pendingCmd is an own command not yet seen in a committed turn.
type pendingCmd struct {
	cmd    Command
	sentAt int
}

// output is what the next Ready returns.
type output struct {
	msgs      []Message
	committed []Turn
	restore   *Snapshot
	events    []Event
}

// Node is one peer's session state machine. It is not safe for concurrent use:
// the caller owns it from one goroutine (see doc.go).
type Node struct {
	cfg  Config
	self PeerID
	now  int
	role role

	epoch    uint64
	maxGen   uint64 // the newest generation this node has seen: it never claims one again
	host     PeerID
	joinHost PeerID
	joinedAt int
	slot     int
	lobby    Lobby
	password string     // the session password: set by the host, or the one this node joined with
	salt     []byte     // the salt of this node's challenges when it hosts (see password.go)
	kdf      derivedKey // the last key derived from a password and salt
	kicked   []PeerID

	hist     history // the replicated history (history.go)
	released uint64
	shown    uint32 // bit per slot: its departure was shown (EvPlayerLeft), or came before this node knew the game
	delay    uint32

	propSeq [MaxSlots]uint64 // last sequence number this node assigned per slot
	pending []pendingCmd

	// Follower view of the host.
	hostHeard   int
	hostLost    bool
	lostAt      int
	lastSent    int
	loaded      bool
	awaitResume bool // following a candidate that has not resumed yet
	expectSnap  bool
	snapFrom    PeerID // the majority peer the host named to repair this one
	rejoin      bool   // seeking the game again (see seek); until the snapshot is in
	seekSince   int
	seeking     seekTrust // whose answers a seeking node takes (see vouched)
	snapAskedAt int       // tick a joining node was welcomed and began to wait for its snapshot
	snapHeard   int       // messages from its host since then (see snapshotLost)
	hashQueue   []HashReport
	deferred    *Message // a claim received while the host still seemed alive
	deferredAt  int
	connLost    map[PeerID]bool
	closed      map[PeerID]bool          // connLost by the remote's close or reset: its process is gone (or it hung up)
	renewals    map[PeerID]int           // peers whose link is being renewed: until which tick (renewal.go)
	snaps       map[PeerID]*snapAssembly // snapshots arriving in parts (chunk.go)

	// silence is what this follower learnt of its host's link from false
	// suspicions (see suspect.go).
	silence learntSilence

	hs *hostState
	el *election

	snapTargets []PeerID
	snapAsked   uint64

	// Resuming a saved game: the state it starts from (kept while loading,
	// so a new host can hand it on), and a follower's EvLoad held back
	// until that state has arrived.
	resume     *Snapshot
	resumeWait bool

	out        output
	handed     [3]int // lengths of msgs, committed, events the last Ready returned
	lastStatus Status
	hadStatus  bool
}

// NewNode returns a node that is in no session yet; call Host or Join.
func NewNode(cfg Config) (*Node, error) {
	if cfg.Rand == nil {
		return nil, errNoRand
	}
	if cfg.Self == "" {
		return nil, fmt.Errorf("%w: Config.Self is empty", ErrBadArgument)
	}
	cfg.fill()
	n := &Node{cfg: cfg, self: cfg.Self, slot: -1, connLost: map[PeerID]bool{}, closed: map[PeerID]bool{}, snaps: map[PeerID]*snapAssembly{}, maxGen: cfg.Generation}
	n.hist = newHistory()
	return n, nil
}

// Self returns this node's peer ID.
func (n *Node) Self() PeerID { return n.self }

// Lobby returns a copy of the current lobby.
func (n *Node) Lobby() Lobby { return n.lobby.Clone() }

func (n *Node) send(m Message) {
	m.From = n.self
	if m.To == n.self || m.To == "" {
		return
	}
	if n.role != roleHost && m.To == n.host {
		n.lastSent = n.now
	}
	if m.Kind == MsgSnapshot && m.Snapshot != nil && len(m.Snapshot.Data) > n.cfg.SnapshotChunk {
		n.sendParts(m)
		return
	}
	n.out.msgs = append(n.out.msgs, m)
}

func (n *Node) emit(e Event) { n.out.events = append(n.out.events, e) }

// slotName is the name in slot, or "" for a slot the lobby does not have.
func (n *Node) slotName(slot int) string {
	if slot < 0 || slot >= len(n.lobby.Slots) {
		return ""
	}
	return n.lobby.Slots[slot].Name
}

// otherPlayers lists the players but this node, in slot order: whom a
// candidate asks, and whom a seeking node asks in turn.
func (n *Node) otherPlayers() []PeerID {
	var r []PeerID
	for _, p := range n.roster() {
		if p != n.self {
			r = append(r, p)
		}
	}
	return r
}

// presentPlayers lists the players that are in the game and not away.
func (n *Node) presentPlayers() []PeerID {
	var r []PeerID
	for _, p := range n.roster() {
		if !n.hist.isAway(n.lobby.SlotOf(p)) {
			r = append(r, p)
		}
	}
	return r
}

// roster is the ordered list of players that may host: human slots not departed.
func (n *Node) roster() []PeerID {
	var r []PeerID
	for i, s := range n.lobby.Slots {
		if s.Kind == SlotHuman && !n.hist.isDeparted(i) {
			r = append(r, s.Peer)
		}
	}
	return r
}

// Drives returns the slots this node may propose for.
func (n *Node) Drives() []int {
	var d []int
	if n.slot >= 0 && !n.hist.isDeparted(n.slot) && n.role != roleLeft {
		d = append(d, n.slot)
	}
	if n.role == roleHost {
		for i, s := range n.lobby.Slots {
			bot := s.Kind == SlotBot || s.Kind == SlotHuman && n.lobby.AwayBot > 0 && n.hist.isAway(i) && i != n.slot
			if bot && !n.hist.isDeparted(i) {
				d = append(d, i)
			}
		}
	}
	return d
}

// Propose queues a command for slot. Only slots in Drives are accepted: a
// player's own slot, and on the host bot slots and, when the lobby says so
// (AwayBot), the slots of away players. The command is kept until it
// is seen in a committed turn (resent after host changes), so it executes once.
func (n *Node) Propose(slot int, data []byte) error {
	if n.role == roleLeft {
		return ErrLeft
	}
	if n.lobby.State != StatePlaying {
		return ErrNotPlaying
	}
	if !slices.Contains(n.Drives(), slot) {
		return fmt.Errorf("%w: slot %d", ErrNotDriven, slot)
	}
	if len(data) > maxCmdSize {
		return fmt.Errorf("%w: command of %d bytes exceeds %d", ErrBadArgument, len(data), maxCmdSize)
	}
	if n.propSeq[slot] < n.hist.nextSeq[slot]-1 {
		n.propSeq[slot] = n.hist.nextSeq[slot] - 1
	}
	n.propSeq[slot]++
	c := Command{Slot: slot, Seq: n.propSeq[slot], Data: slices.Clone(data)}
	if n.role == roleHost {
		n.hs.open = append(n.hs.open, c)
		return nil
	}
	n.pending = append(n.pending, pendingCmd{cmd: c, sentAt: n.now})
	if n.role == roleFollower && !n.hostLost && !n.awaitResume {
		n.send(Message{Kind: MsgCommands, To: n.host, Epoch: n.epoch, Commands: []Command{c}})
	}
	return nil
}

// Tick advances the node's clock by one tick. It is the only clock.
func (n *Node) Tick() {
	n.now++
	switch n.role {
	case roleJoining:
		if n.rejoin {
			n.seekTick()
		} else if (n.now-n.joinedAt)%(n.cfg.HeartbeatTicks*10) == 0 {
			n.sendHello()
		}
	case roleFollower:
		n.followerTick()
	case roleCandidate:
		n.candidateTick()
	case roleHost:
		n.hostTick()
	}
	if n.now%forgetEvery == 0 {
		n.forgetStrangers()
	}
	n.releaseTurns()
}

// forgetEvery is how often, in ticks, the connection records of peers that
// are nothing to this node are dropped (forgetStrangers).
const forgetEvery = 1024

// forgetStrangers drops connLost and closed of peers in no slot, no
// spectator, not the host and not in the host's table: identities cost
// nothing, and each fresh one that connected and went left them for good.
func (n *Node) forgetStrangers() {
	for p := range n.connLost {
		if !n.knows(p) {
			delete(n.connLost, p)
		}
	}
	for p := range n.closed {
		if !n.knows(p) {
			delete(n.closed, p)
		}
	}
}

// knows reports whether p is anything to this node's game.
func (n *Node) knows(p PeerID) bool {
	if p == n.host || n.lobby.SlotOf(p) >= 0 || slices.Contains(n.lobby.Spectators, p) {
		return true
	}
	return n.hs != nil && n.hs.peer(p) != nil
}

// Step feeds one inbound message (with From set to the sender) or a local
// connection report (MsgConnected / MsgDisconnected with From = the peer).
func (n *Node) Step(m Message) error {
	if n.role == roleLeft {
		return nil
	}
	if m.Kind.isTimeout() {
		if m.From != n.self {
			return fmt.Errorf("%w: %v is a timeout of the node's own", ErrBadArgument, m.Kind)
		}
		n.stepTimeout(m.Kind)
		return nil
	}
	if m.From == "" || m.From == n.self {
		return fmt.Errorf("%w: message without a sender", ErrBadArgument)
	}
	switch m.Kind {
	case MsgConnected:
		delete(n.connLost, m.From)
		delete(n.closed, m.From)
		if n.hs != nil {
			n.hs.connChanged(n, m.From, false)
		}
		return nil
	case MsgDisconnected:
		n.connLost[m.From] = true
		if m.Closed {
			n.closed[m.From] = true
		}
		n.peerLost(m.From)
		return nil
	case MsgRenewing:
		n.stepRenewing(m.From, m.Count)
		return nil
	}
	if m.Kind.IsLocal() || m.Kind == MsgNone {
		return fmt.Errorf("%w: kind %d", ErrBadArgument, m.Kind)
	}
	delete(n.closed, m.From) // it speaks: whatever closed, it is there
	if epochGen(m.Epoch) > n.maxGen+maxGenLeap {
		return fmt.Errorf("%w: generation %d from %s is implausibly far ahead of %d", ErrBadArgument, epochGen(m.Epoch), m.From, n.maxGen)
	}
	if m.Kind == MsgSnapshot && m.Snapshot != nil && m.Snapshot.Parts > 1 {
		whole, ok := n.assemble(m)
		if !ok {
			return nil
		}
		m = whole
	}
	if n.role == roleJoining || n.rosterIndex(m.From) >= 0 {
		// Only the players of the game (or the host a joiner asks) move
		// the generation: a stranger's message costs nothing.
		n.maxGen = max(n.maxGen, min(epochGen(m.Epoch), n.maxGen+maxGenStep))
	}
	switch n.role {
	case roleJoining:
		n.stepJoining(m)
	case roleHost:
		n.stepHost(m)
	case roleFollower:
		n.stepFollower(m)
	case roleCandidate:
		n.stepCandidate(m)
	}
	n.releaseTurns()
	return nil
}

// timeout steps a timeout of this node's own through Step.
func (n *Node) timeout(k MsgKind) { _ = n.Step(Message{Kind: k, From: n.self}) }

// stepTimeout handles a timeout in the role that set it; one that arrives in
// another role (the role changed meanwhile) is stale and ignored.
func (n *Node) stepTimeout(k MsgKind) {
	switch {
	case k == MsgHostSilent && n.role == roleFollower:
		n.suspectHost()
	case k == MsgClaimOverdue && n.role == roleFollower && n.el != nil && n.el.expect != "":
		n.el.skipped = append(n.el.skipped, n.el.expect)
		n.nextCandidate()
	case k == MsgGatherOver && n.role == roleCandidate:
		n.decide()
	}
}

// peerLost handles a reported connection loss.
func (n *Node) peerLost(p PeerID) {
	switch n.role {
	case roleHost:
		n.hs.connChanged(n, p, true)
	case roleFollower:
		if p == n.host {
			n.suspectHost()
		} else if n.el != nil && n.el.expect == p {
			n.nextCandidate()
		}
	case roleCandidate:
		n.candidateLost(p)
	}
}

// Leave leaves the session on purpose; the host (or, when this node hosts,
// every peer) is told so the departure is sequenced at once.
func (n *Node) Leave() {
	switch n.role {
	case roleHost:
		for _, p := range n.hs.recipients(n) {
			n.send(Message{Kind: MsgBye, To: p, Epoch: n.epoch})
		}
	case roleFollower, roleJoining:
		to := n.host
		if n.role == roleJoining {
			to = n.joinHost
		}
		n.send(Message{Kind: MsgBye, To: to, Epoch: n.epoch})
	}
	n.becomeLeft("You left the session.")
}

// Resync is for a caller whose game cannot apply what the node committed
// (no game loaded, a turn missing: a fault on this side, not the game's):
// rather than leave, the player takes the game back from its host by
// snapshot, as one that was away does. haveGame says whether the caller
// still holds a loaded game (the snapshot replaces its state) or none (an
// EvLoad comes first). It reports false when there is nobody to take the
// game from (this node hosts, or the game is not running); the caller then
// has to leave.
func (n *Node) Resync(haveGame bool) bool {
	if n.lobby.State != StatePlaying || n.role != roleFollower && n.role != roleCandidate && n.role != roleJoining {
		return false
	}
	n.loaded = haveGame
	n.seek(n.host)
	return true
}

// ReportHash records the caller's state hash after applying turn. Call it,
// after the Advance of the Ready that held the turn, for every committed turn
// with WantHash (and for others if you like; they are ignored).
func (n *Node) ReportHash(turn, hash uint64) {
	if turn == 0 || turn%uint64(n.cfg.HashEvery) != 0 {
		return
	}
	switch n.role {
	case roleHost:
		n.hs.recordHash(n, n.self, turn, hash)
	case roleFollower, roleCandidate:
		n.hashQueue = append(n.hashQueue, HashReport{Turn: turn, Hash: hash})
		if len(n.hashQueue) > 16 {
			n.hashQueue = n.hashQueue[len(n.hashQueue)-16:]
		}
	}
}

// Snapshot hands the node the state the last Ready asked for with SnapshotAt,
// after that Ready's Advance.
func (n *Node) Snapshot(turn uint64, data []byte) error {
	if n.snapAsked == 0 || turn != n.snapAsked {
		return fmt.Errorf("%w: %d", ErrWrongTurn, turn)
	}
	n.snapAsked = 0
	chain, ok := n.hist.chainAt(turn)
	if !ok {
		n.snapTargets = nil
		return fmt.Errorf("%w: turn %d is no longer held", ErrWrongTurn, turn)
	}
	s := &Snapshot{Turn: turn, Data: slices.Clone(data), Chain: chain, Departed: n.hist.departedAt(turn), DepartedWhy: n.hist.whyAt(turn), NextSeq: n.hist.nextSeqAt(turn), Away: n.hist.awayAt(turn)}
	lob := n.lobby.Clone()
	for _, p := range n.snapTargets {
		m := Message{Kind: MsgSnapshot, To: p, Epoch: n.epoch, Snapshot: s, Lobby: &lob, Turns: n.hist.turnsAfter(turn, n.hist.last())}
		if n.role == roleHost {
			// A member's rejoin or late join: an answer (budget.go). A
			// repair's snapshot comes from a player the host named,
			// which the host's repair budget bounds.
			if pi := n.hs.peer(p); pi != nil {
				n.answer(pi, m)
			}
			continue
		}
		n.send(m)
	}
	n.snapTargets = nil
	return nil
}

// releaseTurns hands committed turns to the caller, holding back Delay turns
// of buffer so jitter does not stutter the game.
func (n *Node) releaseTurns() {
	for n.released < n.hist.last() {
		k := n.released + 1
		if n.role != roleHost && n.delay > 0 {
			buffered := n.hist.last()-k >= uint64(n.delay)
			waited := n.now-n.hist.arrivedAt(k) >= int(n.delay)*int(n.lobby.TurnTicks)
			if !buffered && !waited {
				return
			}
		}
		t, _ := n.hist.turnAt(k)
		t.WantHash = k%uint64(n.cfg.HashEvery) == 0
		n.out.committed = append(n.out.committed, t)
		n.released = k
		for _, d := range t.Departures {
			n.showLeft(d.Slot, k, d.Reason)
			if d.Slot == n.slot && n.role != roleHost {
				n.becomeLeft(fmt.Sprintf("You were removed from the game at turn %d (%v).", k, d.Reason))
				return
			}
		}
		for _, p := range t.Presence {
			kind := EvPlayerBack
			if p.Away {
				kind = EvPlayerAway
			}
			n.emit(Event{Kind: kind, Slot: p.Slot, Name: n.slotName(p.Slot), Turn: k})
		}
	}
}

// showLeft shows slot's departure at turn k, once.
func (n *Node) showLeft(slot int, k uint64, why DepartReason) {
	if n.shown&(1<<slot) != 0 {
		return
	}
	n.shown |= 1 << slot
	n.emit(Event{Kind: EvPlayerLeft, Slot: slot, Name: n.slotName(slot), Turn: k, Reason: why})
}

// showSnapshotLeft shows the departures a snapshot brings that this node
// never saw as turns (it was away, or skipped them): every slot departed by
// the snapshot's turn and not shown yet, with the snapshot's reason. A node
// that held no game before (a late joiner, a process started again) only
// takes them as known: they left before it came. A departure shown on a
// branch the game discarded stays shown: its Bye goes to the winner with
// this node's Hello (byesHeld), and the turn that sequences it again must
// not show it twice.
func (n *Node) showSnapshotLeft(s *Snapshot, knew bool) {
	for i := range MaxSlots {
		if s.Departed&(1<<i) != 0 && knew && i != n.slot {
			n.showLeft(i, s.Turn, s.Reason(i))
		}
	}
	n.shown |= s.Departed
}

// HasReady reports whether Ready has anything to hand over.
func (n *Node) HasReady() bool {
	o := &n.out
	if len(o.msgs) > 0 || len(o.committed) > 0 || len(o.events) > 0 || o.restore != nil {
		return true
	}
	if len(n.snapTargets) > 0 && n.snapAsked == 0 {
		return true
	}
	return !n.hadStatus || !statusEqual(n.status(), n.lastStatus)
}

// Ready returns what the caller must do now (see the Ready type). Call
// Advance after handling it, before the next Step, Tick or Propose.
func (n *Node) Ready() Ready {
	rd := Ready{
		Messages:  n.out.msgs,
		Committed: n.out.committed,
		Restore:   n.out.restore,
		Events:    n.out.events,
		Status:    n.status(),
	}
	if len(n.snapTargets) > 0 && n.snapAsked == 0 && n.released > 0 {
		n.snapAsked = n.released
		rd.SnapshotAt = n.released
	}
	n.handed = [3]int{len(rd.Messages), len(rd.Committed), len(rd.Events)}
	return rd
}

// Advance marks the last Ready as handled. Then hand the node what the game
// produced (ReportHash, Snapshot, Loaded: see Ready); what those calls send
// goes out with the next Ready.
func (n *Node) Advance() {
	n.out.msgs = slices.Clone(n.out.msgs[n.handed[0]:])
	n.out.committed = slices.Clone(n.out.committed[min(n.handed[1], len(n.out.committed)):])
	n.out.events = slices.Clone(n.out.events[n.handed[2]:])
	n.out.restore = nil
	n.handed = [3]int{}
	n.lastStatus = n.status()
	n.hadStatus = true
}

func (n *Node) status() Status {
	return Status{
		Self: n.self, Host: n.host, IsHost: n.role == roleHost, Epoch: n.epoch, Slot: n.slot,
		Drives: n.Drives(), Turn: n.released, State: n.lobby.State, Delay: n.delay,
		Joined: n.role == roleHost || n.role == roleFollower || n.role == roleCandidate,
		Left:   n.role == roleLeft, Revision: n.lobby.Revision, Generation: n.maxGen,
		HostSilence: n.hostSilence(),
	}
}

func statusEqual(a, b Status) bool {
	return a.Host == b.Host && a.IsHost == b.IsHost && a.Epoch == b.Epoch && a.Slot == b.Slot &&
		slices.Equal(a.Drives, b.Drives) && a.State == b.State && a.Delay == b.Delay &&
		a.Joined == b.Joined && a.Left == b.Left && a.Revision == b.Revision && a.Generation == b.Generation &&
		a.HostSilence == b.HostSilence
}

// commit appends turn t (t.Number == last+1) to the history; own commands
// it holds are no longer pending.
func (n *Node) commit(t Turn) {
	n.hist.append(t, n.now)
	if len(t.Commands) > 0 && len(n.pending) > 0 {
		n.pending = slices.DeleteFunc(n.pending, func(p pendingCmd) bool {
			return p.cmd.Seq < n.hist.nextSeq[p.cmd.Slot]
		})
	}
	n.hist.prune(n.released, n.cfg.KeepTurns, n.cfg.KeepBytes)
}
