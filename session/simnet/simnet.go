// Package simnet is a deterministic simulated network for session.Node: the
// network is data (a queue of messages in flight and a table of link faults),
// pumped one tick at a time by the test. One seeded PCG chooses every delay
// and drop, every message is re-encoded through the real wire codec, and the
// invariants of the session are checked after every tick.
package simnet

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"

	"hostfall/session"
)

// envelope is one message in flight.
type envelope struct {
	at       int
	seq      uint64
	from, to session.PeerID
	data     []byte          // encoded message, or nil for a local report
	local    session.MsgKind // MsgConnected / MsgDisconnected / MsgRenewing
	closed   bool            // a MsgDisconnected for a connection the remote closed or reset
	count    uint32          // a local report's Count (MsgRenewing: the ticks allowed)
	forged   bool            // made up by a test's hostile member (Inject)
}

type linkKey struct{ a, b session.PeerID }

// link holds the faults of one direction a→b.
type link struct {
	cut        bool
	dropPerMil int
	minLat     int
	maxLat     int
	lastAt     int // keeps each link in order, like a stream
	// A stream over a lossy link: a lost packet is sent again after a
	// retransmission timeout, holding up what follows it (head of line).
	stallPerMil int
	stallTicks  int
	// A cut link whose messages wait in the sender's queue and go out when
	// it is back (see Queue): they arrive late, in one burst.
	queued bool
	held   []envelope
}

// Peer is one simulated process: a node plus the toy game it drives.
type Peer struct {
	ID          session.PeerID
	Node        *session.Node
	Up          bool
	Incarnation int
	Left        bool
	LeftWhy     string
	SaidBye     bool // this process left on purpose (Net.Leave)
	refused     bool // a host refused it (a join answered no)
	Slow        int  // extra ticks on every link touching this peer
	// Paused: the process is stopped (SIGSTOP): it neither ticks nor reads
	// its messages, which wait for it, until Resume.
	Paused bool
	// Tainted: the toy state descends from a Desync (injected here, or
	// restored from a tainted snapshot).
	Tainted  bool
	resumeAt int        // tick a timed Pause ends; 0: until Resume
	held     []envelope // what reached it while paused, in order
	savedGen uint64     // Status.Generation as the process last saved it (survives Restart)
	// LoadTicks is how long this peer takes to load a game after EvLoad
	// (a window building its game screen); 0 loads at once.
	LoadTicks int

	// The toy game: a state hash over every applied turn.
	State          uint64
	chain          uint64
	Applied        []AppliedTurn
	departed       uint32               // bit per slot: departed in a turn of Applied (kept with it)
	departedBefore uint32               // departed before the last turn of Applied
	seen           map[[2]uint64]uint64 // (slot, seq) → turn
	Events         []session.Event
	Status         session.Status
	Restores       int
	base           uint64            // the turn of the last restored snapshot
	baseChain      uint64            // the toy chain at base
	execData       map[string]uint64 // command data → turn, in this peer's history

	loaded bool
	loadAt int // tick the pending load finishes; 0 when none is pending
	// hasGame: this process holds a game to apply turns to, from an EvLoad
	// or a snapshot; a real one fails on a turn without one.
	hasGame bool
}

// AppliedTurn is a turn as the toy game applied it.
type AppliedTurn struct {
	Number, Epoch uint64
	Chain         uint64
	State         uint64 // the toy game's state after the turn
	Turn          session.Turn
}

// Net is the simulated network.
type Net struct {
	Rand  *rand.Rand
	Now   int
	Peers []*Peer
	Cfg   session.Config // template for new nodes (Self, Name, Rand are set per peer)

	MinLat, MaxLat int // default latency of a link in ticks (1..2)

	queue []envelope
	seq   uint64
	links map[linkKey]*link

	Checker *Checker
	Bytes   map[session.PeerID]int // encoded bytes sent per peer
	Msgs    int
	// OnReady, if set, sees every Ready after it was handled.
	OnReady func(p *Peer, rd session.Ready)
	// Lose, if set, loses every message it reports true for, as if its
	// link dropped that one message.
	Lose func(from session.PeerID, m session.Message) bool
	// SnapshotPad, if set, pads every toy snapshot to this many bytes (a
	// real game's state is large; the toy's is 25 bytes).
	SnapshotPad int
}

// New returns an empty network whose randomness all comes from seed.
func New(seed uint64, cfg session.Config) *Net {
	return &Net{
		Rand:   rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		Cfg:    cfg,
		MinLat: 1, MaxLat: 2,
		links:   map[linkKey]*link{},
		Bytes:   map[session.PeerID]int{},
		Checker: newChecker(),
	}
}

// Add creates a peer with a fresh node.
func (n *Net) Add(id session.PeerID, name string) *Peer {
	p := &Peer{ID: id}
	n.Peers = append(n.Peers, p)
	n.boot(p, name)
	return p
}

func (n *Net) boot(p *Peer, name string) {
	cfg := n.Cfg
	cfg.Self = p.ID
	cfg.Name = name
	cfg.Rand = rand.New(rand.NewPCG(n.Rand.Uint64(), n.Rand.Uint64()))
	cfg.Generation = p.savedGen // kept on disk with the identity
	node, err := session.NewNode(cfg)
	if err != nil {
		panic(err)
	}
	p.Node = node
	p.Up, p.Paused, p.Tainted, p.held = true, false, false, nil
	p.Left, p.SaidBye, p.refused = false, false, false
	p.Incarnation++
	p.State, p.chain = 0, 0
	p.Applied, p.departed, p.departedBefore = nil, 0, 0
	p.base, p.baseChain = 0, 0
	p.seen = map[[2]uint64]uint64{}
	p.execData = map[string]uint64{}
	p.loaded, p.loadAt, p.hasGame = false, 0, false
}

// Peer returns the peer with id, or nil.
func (n *Net) Peer(id session.PeerID) *Peer {
	for _, p := range n.Peers {
		if p.ID == id {
			return p
		}
	}
	return nil
}

func (n *Net) link(a, b session.PeerID) *link {
	k := linkKey{a, b}
	l := n.links[k]
	if l == nil {
		l = &link{minLat: n.MinLat, maxLat: n.MaxLat}
		n.links[k] = l
	}
	return l
}

func (n *Net) enqueue(from, to session.PeerID, data []byte, local session.MsgKind, delay int) {
	n.seq++
	n.queue = append(n.queue, envelope{at: n.Now + delay, seq: n.seq, from: from, to: to, data: data, local: local})
}

// report tells peer `to` (if up) that its connection to `about` changed.
func (n *Net) report(to, about session.PeerID, kind session.MsgKind) {
	if p := n.Peer(to); p != nil && p.Up {
		n.enqueue(about, to, nil, kind, 1)
	}
}

// reportClosed tells peer `to` (if up) that `about` closed or reset their
// connection, as a transport reads a TCP FIN or RST or a QUIC close.
func (n *Net) reportClosed(to, about session.PeerID) {
	if p := n.Peer(to); p != nil && p.Up {
		n.enqueue(about, to, nil, session.MsgDisconnected, 1)
		n.queue[len(n.queue)-1].closed = true
	}
}

// Send puts a message on the wire from p, re-encoding it as the real network
// would.
func (n *Net) send(from *Peer, m session.Message) {
	data, err := m.Marshal()
	if err != nil {
		n.Checker.violate(n.Now, "encode %v from %s: %v", m.Kind, from.ID, err)
		return
	}
	n.Bytes[from.ID] += len(data) + 1 + (len(data) >> 7) // plus a varint length prefix
	n.Msgs++
	if n.Lose != nil && n.Lose(from.ID, m) {
		return
	}
	l := n.link(from.ID, m.To)
	to := n.Peer(m.To)
	if l.cut && l.queued && to != nil && to.Up {
		n.seq++
		l.held = append(l.held, envelope{seq: n.seq, from: from.ID, to: m.To, data: data})
		return
	}
	if l.cut || to == nil || !to.Up {
		return
	}
	if l.dropPerMil > 0 && n.Rand.IntN(1000) < l.dropPerMil {
		return
	}
	lat := l.minLat
	if l.maxLat > l.minLat {
		lat += n.Rand.IntN(l.maxLat - l.minLat + 1)
	}
	lat += from.Slow + to.Slow
	if l.stallPerMil > 0 && n.Rand.IntN(1000) < l.stallPerMil {
		lat += l.stallTicks
	}
	at := max(n.Now+lat, l.lastAt)
	l.lastAt = at
	n.seq++
	n.queue = append(n.queue, envelope{at: at, seq: n.seq, from: from.ID, to: m.To, data: data})
}

// Tick advances virtual time by one tick: deliver what is due, tick every
// node, handle every Ready, check the invariants.
func (n *Net) Tick() {
	n.Now++
	slices.SortStableFunc(n.queue, func(a, b envelope) int {
		if a.at != b.at {
			return a.at - b.at
		}
		return int(a.seq - b.seq)
	})
	for _, p := range n.Peers {
		if p.Paused && p.resumeAt > 0 && n.Now >= p.resumeAt {
			n.Resume(p.ID)
		}
	}
	i := 0
	for ; i < len(n.queue) && n.queue[i].at <= n.Now; i++ {
		if p := n.Peer(n.queue[i].to); p != nil && p.Paused {
			p.held = append(p.held, n.queue[i]) // read when it runs again
			continue
		}
		n.deliver(n.queue[i])
	}
	n.queue = slices.Delete(n.queue, 0, i)
	for _, p := range n.Peers {
		if p.Paused {
			continue
		}
		if p.Up && p.loadAt != 0 && n.Now >= p.loadAt {
			p.loadAt = 0
			p.Node.Loaded()
		}
		if p.Up {
			p.Node.Tick()
		}
	}
	n.drain()
	n.Checker.check(n)
}

// Run ticks k times.
func (n *Net) Run(k int) {
	for range k {
		n.Tick()
	}
}

func (n *Net) deliver(e envelope) {
	p := n.Peer(e.to)
	if p == nil || !p.Up {
		return
	}
	var m session.Message
	if e.data == nil {
		m = session.Message{Kind: e.local, Closed: e.closed, Count: e.count}
	} else {
		var err error
		if m, err = session.UnmarshalMessage(e.data); err != nil {
			n.Checker.violate(n.Now, "decode at %s: %v", e.to, err)
			return
		}
		if l := n.links[linkKey{e.from, e.to}]; l != nil && l.cut {
			return // cut while in flight
		}
	}
	m.From, m.To = e.from, e.to
	if err := p.Node.Step(m); err != nil && !e.forged {
		n.Checker.violate(n.Now, "step %v at %s: %v", m.Kind, p.ID, err)
	}
}

func (n *Net) drain() {
	for range 8 {
		busy := false
		for _, p := range n.Peers {
			if p.Up && !p.Paused && p.Node.HasReady() {
				busy = true
				n.handle(p)
			}
		}
		if !busy {
			return
		}
	}
}

// handle does what a real caller does with a Ready.
func (n *Net) handle(p *Peer) {
	rd := p.Node.Ready()
	// A caller loads on EvLoad before it restores or applies (match.Apply).
	p.hasGame = p.hasGame || rd.Restore != nil ||
		slices.ContainsFunc(rd.Events, func(e session.Event) bool { return e.Kind == session.EvLoad })
	if len(rd.Committed) > 0 && !p.hasGame {
		n.Checker.violate(n.Now, "no game loaded: %s got turn %d without an EvLoad or a snapshot", p.ID, rd.Committed[0].Number)
		p.hasGame = true // said once
	}
	if rd.Restore != nil {
		clean := !p.Tainted
		p.restore(rd.Restore, n.Checker)
		repair := slices.ContainsFunc(rd.Events, func(e session.Event) bool { return e.Kind == session.EvDesyncRepaired })
		n.Checker.restored(n, p, rd.Restore.Turn, clean && repair)
	}
	var hashes []session.HashReport // handed to the node after Advance
	for _, t := range rd.Committed {
		p.apply(t)
		n.Checker.applied(n, p, t)
		if t.WantHash {
			hashes = append(hashes, session.HashReport{Turn: t.Number, Hash: p.State})
		}
	}
	var snap []byte
	if rd.SnapshotAt != 0 {
		snap = p.snapshot(rd.SnapshotAt)
		if len(snap) < n.SnapshotPad {
			snap = append(snap, make([]byte, n.SnapshotPad-len(snap))...)
		}
	}
	load := false
	for _, m := range rd.Messages {
		n.send(p, m)
	}
	for _, e := range rd.Events {
		p.Events = append(p.Events, e)
		switch e.Kind {
		case session.EvLoad:
			if !p.loaded {
				p.loaded = true
				if p.LoadTicks > 0 {
					p.loadAt = n.Now + p.LoadTicks
				} else {
					load = true
				}
			}
		case session.EvRefused:
			p.refused = true
		case session.EvLeft:
			p.Left, p.LeftWhy = true, e.Text
			if !p.SaidBye && !p.refused {
				n.Checker.violate(n.Now, "forced out: %s left the game without leaving (%q)", p.ID, e.Text)
			}
		}
	}
	p.Status = rd.Status
	p.savedGen = rd.Status.Generation
	p.Node.Advance()
	for _, h := range hashes {
		p.Node.ReportHash(h.Turn, h.Hash)
	}
	if rd.SnapshotAt != 0 {
		if err := p.Node.Snapshot(rd.SnapshotAt, snap); err != nil {
			n.Checker.violate(n.Now, "snapshot at %s: %v", p.ID, err)
		}
	}
	if load {
		p.Node.Loaded()
	}
	if n.OnReady != nil {
		n.OnReady(p, rd)
	}
}

func mix(h uint64, vs ...uint64) uint64 {
	if h == 0 {
		h = 14695981039346656037
	}
	for _, v := range vs {
		for range 8 {
			h ^= v & 0xff
			h *= 1099511628211
			v >>= 8
		}
	}
	return h
}

func turnHash(t session.Turn) uint64 {
	h := mix(0, t.Epoch, t.Number)
	for _, c := range t.Commands {
		h = mix(h, uint64(c.Slot), c.Seq)
		for _, b := range c.Data {
			h = mix(h, uint64(b))
		}
	}
	for _, d := range t.Departures {
		h = mix(h, 1000+uint64(d.Slot), uint64(d.Reason))
	}
	return h
}

func (p *Peer) apply(t session.Turn) {
	th := turnHash(t)
	p.State = mix(p.State, th)
	p.chain = mix(p.chain, th)
	p.Applied = append(p.Applied, AppliedTurn{Number: t.Number, Epoch: t.Epoch, Chain: p.chain, State: p.State, Turn: t})
	p.departedBefore = p.departed
	for _, d := range t.Departures {
		p.departed |= 1 << d.Slot
	}
}

func (p *Peer) snapshot(turn uint64) []byte {
	b := make([]byte, 25)
	if p.Tainted {
		b[24] = 1
	}
	binary.LittleEndian.PutUint64(b, p.State)
	binary.LittleEndian.PutUint64(b[8:], p.chain)
	binary.LittleEndian.PutUint64(b[16:], turn)
	return b
}

// SnapshotData is the toy game's state after the last turn p applied, as
// Node.Snapshot and Node.Save take it (saving a game in tests).
func (p *Peer) SnapshotData() []byte { return p.snapshot(p.Last()) }

// restore adopts a snapshot: the toy state, and the history it stands
// for. A peer that rejoins from a branch the game discarded drops its whole
// history; what it executed there does not count (see Checker.history).
func (p *Peer) restore(s *session.Snapshot, c *Checker) {
	p.Restores++
	p.base = s.Turn
	if len(s.Data) >= 24 {
		p.State = binary.LittleEndian.Uint64(s.Data)
		p.chain = binary.LittleEndian.Uint64(s.Data[8:])
		p.Tainted = len(s.Data) > 24 && s.Data[24] == 1
	}
	p.baseChain = p.chain
	k := 0
	for k < len(p.Applied) && p.Applied[k].Number <= s.Turn {
		k++
	}
	if k > 0 && p.Applied[k-1].Chain != p.chain {
		k = 0 // another branch
	}
	p.Applied = p.Applied[:k]
	p.departed, p.departedBefore = 0, 0
	for _, a := range p.Applied {
		p.departedBefore = p.departed
		for _, d := range a.Turn.Departures {
			p.departed |= 1 << d.Slot
		}
	}
	p.seen, p.execData = c.history(p.chain)
}

// Leave has p leave the session on purpose.
func (n *Net) Leave(p *Peer) {
	p.SaidBye = true
	p.Node.Leave()
}

// Propose has p's node propose data for slot and registers it for the
// exactly-once check.
func (n *Net) Propose(p *Peer, slot int, data []byte) error {
	if !p.Up {
		return fmt.Errorf("simnet: %s is down", p.ID)
	}
	if err := p.Node.Propose(slot, data); err != nil {
		return err
	}
	n.Checker.proposed(p, slot, data)
	return nil
}

// Last returns the last turn p applied (0 if none).
func (p *Peer) Last() uint64 {
	if len(p.Applied) == 0 {
		return 0
	}
	return p.Applied[len(p.Applied)-1].Number
}

// LastEpoch returns the epoch of the last turn p applied.
func (p *Peer) LastEpoch() uint64 {
	if len(p.Applied) == 0 {
		return 0
	}
	return p.Applied[len(p.Applied)-1].Epoch
}

// Live reports whether p is up and still in the session.
func (p *Peer) Live() bool { return p.Up && !p.Left }

// HasEvent reports whether p saw an event of kind k.
func (p *Peer) HasEvent(k session.EventKind) bool {
	return slices.ContainsFunc(p.Events, func(e session.Event) bool { return e.Kind == k })
}
