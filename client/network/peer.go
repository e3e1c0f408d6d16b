package network

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/client"
	"hostfall/game"
	"hostfall/match"
	"hostfall/p2p/transport"
	"hostfall/session"
)

// PeerOptions set up a Peer.
type PeerOptions struct {
	// GenerationFile keeps session.Status.Generation across restarts of
	// this identity (see session.Config.Generation); "" keeps nothing.
	GenerationFile string
	Name           string // player name in the lobby
	GameVersion    string // peers with another game version are refused
	Password       string // to join a session that has one
	Spectate       bool   // join as a spectator
	// Match sets up the game side (a bot for the own slot, the replay, desync
	// reports). OnDesyncReport is taken over: reports arrive as EvDesyncReport.
	Match match.Options
	// Session tunes the session engine (durations in ticks). Self, Name,
	// GameVersion, Password, Spectate and Rand are filled in by the Peer.
	Session session.Config
	Limits  transport.Limits
	// TickMillis is the session tick (default session.DefaultTickMillis).
	TickMillis int
	// TurnEvery: an EvTurn with the state hash every this many turns
	// (default 20; a multiple of the session's HashEvery).
	TurnEvery int
	// OnTurn, when set, is called on the loop goroutine after each applied
	// turn (latency measurements, tests). It must return quickly.
	OnTurn func(session.Turn, time.Time)
	// OnPropose, when set, is called on the loop goroutine for each command
	// this peer proposes for its own slot, with the sequence number the
	// command will carry in its turn (latency traces).
	OnPropose func(slot int, seq uint64, at time.Time)
	// OnCircuit, when set, is called (on a transport goroutine; it must
	// return quickly) each time the session stream to a peer is back on a
	// fresh relay circuit after a limited one ended (transport.CircuitRenewal).
	OnCircuit func(transport.CircuitRenewal)
	// SaveAt, when this peer hosts, saves the game once, after the first
	// turn at or past SaveAt; the save arrives as EvSaved.
	SaveAt uint64
	Logger *slog.Logger
}

// Errors callers branch on.
var (
	ErrClosed  = errors.New("network: the peer has stopped")
	ErrNotHost = errors.New("only the host can save the game")
)

// Peer runs one session.Node and its match.Match (a match.Driver) in one
// loop goroutine (Run) against the real network (a transport.Transport). Its
// other methods are safe from any goroutine: they hand requests to the
// loop, or read what it published.
type Peer struct {
	h    *transport.Host
	t    *transport.Transport
	opt  PeerOptions
	log  *slog.Logger
	tick time.Duration

	d    *match.Driver // loop only
	node *session.Node // d's
	m    *match.Match  // d's; View, Over and Stats are safe from any goroutine

	cfg     session.Config // what each session node of this peer starts from
	reqs    chan func()
	events  chan Event
	done    chan struct{}
	running atomic.Bool
	quiet   atomic.Bool // Abandon: stop without a goodbye

	status  atomic.Pointer[Status]
	lobby   atomic.Pointer[session.Lobby]
	gone    atomic.Uint32 // slots whose players left the game (the announcement does not count them)
	evDrops atomic.Uint64

	// Loop-only state.
	ids          map[session.PeerID]peer.ID
	st           session.Status
	lob          session.Lobby
	lostAt       map[peer.ID]time.Time
	hostMove     *Event    // host change waiting for the first turn of its epoch
	lastTurn     time.Time // when the last turn was applied
	turnEpoch    uint64    // the epoch of the last turn applied
	ended        bool
	lastRates    time.Time
	lastBytes    map[peer.ID][2]uint64
	rates        map[peer.ID][2]float64
	others       otherRows // the rows of links outside the slots, made once a second
	msgs         uint64
	ticks        int
	saveDone     bool                        // the SaveAt save was made (or refused)
	screenLoaded bool                        // the window said it shows the game (Loaded)
	clock        loopClock                   // where the loop's time goes (Status's Busy and Late)
	joinTarget   peer.ID                     // the peer the last Join asked
	redirect     peer.ID                     // the host that peer named instead (a member answers so)
	hostTurn     uint64                      // the newest turn heard of from the host
	tamper       func(*session.Message) bool // tests: rewrite or swallow outgoing messages
	admit        admission                   // who may send large frames
	gens         genKeeper                   // when the generation file is written
}

// NewPeer prepares a peer on host h; call Run to start it, then Host or Join.
func NewPeer(h *transport.Host, opt PeerOptions) (*Peer, error) {
	if opt.TickMillis <= 0 {
		opt.TickMillis = session.DefaultTickMillis
	}
	if opt.TurnEvery <= 0 {
		opt.TurnEvery = 20
	}
	log := opt.Logger
	if log == nil {
		log = slog.Default()
	}
	cfg := opt.Session
	cfg.Self = session.PeerID(h.ID().String())
	cfg.Name, cfg.GameVersion, cfg.Password, cfg.Spectate = opt.Name, opt.GameVersion, opt.Password, opt.Spectate
	cfg.Rand = client.CryptoRand{}
	cfg.Generation = loadGeneration(opt.GenerationFile, log)
	node, err := session.NewNode(cfg)
	if err != nil {
		return nil, fmt.Errorf("network: %w", err)
	}
	tick := time.Duration(opt.TickMillis) * time.Millisecond
	p := &Peer{
		h: h, opt: opt, log: log, tick: tick, clock: loopClock{period: tick},
		node: node, cfg: cfg,
		reqs:   make(chan func(), 64),
		events: make(chan Event, 1024),
		done:   make(chan struct{}),
		ids:    map[session.PeerID]peer.ID{}, lostAt: map[peer.ID]time.Time{},
		lastBytes: map[peer.ID][2]uint64{}, rates: map[peer.ID][2]float64{},
	}
	mo := opt.Match
	mo.OnDesyncReport = func(r match.Report) { p.emit(Event{Kind: EvDesyncReport, Turn: r.Desync.Turn, Report: &r}) }
	step := mo.OnStep
	mo.OnStep = func(turn uint64, evs []game.Event) {
		p.pauseEvents(turn, evs)
		if step != nil {
			step(turn, evs)
		}
	}
	p.m = match.New(mo)
	p.drive(node)
	p.t = transport.NewTransport(h, opt.Limits, log)
	p.t.Admit(p.admit.admitted)
	p.admit.protect = p.t.Protect
	if opt.OnCircuit != nil {
		p.t.OnCircuit(opt.OnCircuit)
	}
	p.gens = genKeeper{path: opt.GenerationFile, log: log, saved: cfg.Generation}
	p.admit.members(nil)
	p.publishStatus()
	return p, nil
}

// ID is this peer's ID.
func (p *Peer) ID() peer.ID { return p.h.ID() }

// P2P is the libp2p host the peer runs on.
func (p *Peer) P2P() *transport.Host { return p.h }

// Events delivers what happens, in order. The loop never waits for a slow
// reader: when 1,024 events are unread, newer ones are dropped.
func (p *Peer) Events() <-chan Event { return p.events }

// Done is closed when Run has returned.
func (p *Peer) Done() <-chan struct{} { return p.done }

// Status returns the latest network status.
func (p *Peer) Status() Status { return *p.status.Load() }

// Lobby returns the latest lobby (zero before joining).
func (p *Peer) Lobby() session.Lobby {
	if l := p.lobby.Load(); l != nil {
		return l.Clone()
	}
	return session.Lobby{}
}

// View calls fn with the newest published copy of the game world; fn must
// only read it, and the peer's loop never waits for it. It reports whether
// there was a world (none before the game has loaded).
func (p *Peer) View(fn func(*game.World)) bool { return p.m.View(fn) }

// Over reports whether the game has ended.
func (p *Peer) Over() bool { return p.m.Over() }

// Hosting returns the lobby and whether this peer hosts the session now,
// for announcing it (announced).
func (p *Peer) Hosting() (session.Lobby, bool) {
	st := p.Status()
	l := p.Lobby()
	gone := p.gone.Load()
	for i := range l.Slots {
		if i < 32 && gone&(1<<i) != 0 {
			l.Slots[i].Kind = session.SlotClosed // left: no player of it any more, and no seat either
		}
	}
	return l, st.IsHost && st.Joined && !st.Left && !st.Over
}

// Host opens a session with this peer as host in slot 0 (or, resuming a
// saved game with s.Resume, in the slot the save has for this peer).
func (p *Peer) Host(s session.Settings) error {
	return p.call(func() error { return p.node.Host(s) })
}

// drive makes node this peer's session node, driven with its match.
func (p *Peer) drive(node *session.Node) {
	p.node = node
	p.d = match.NewDriver(node, p.m)
	p.d.OnPropose = p.proposed
	p.st = session.Status{Self: p.cfg.Self, Slot: -1, Generation: max(p.cfg.Generation, p.st.Generation)}
}

// ErrAnswered: Join was called again after a host had answered.
var ErrAnswered = errors.New("network: a host has answered this peer already")

// Join dials the host and asks to join its session. It returns once the
// request is sent; EvJoined or EvRefused follows. Until a host answers,
// Join may be called again to ask another peer (a player seeking its game
// asks around): the request starts over on a fresh session node, so the
// peer asked before hears no goodbye, and a late answer of its is ignored.
func (p *Peer) Join(ctx context.Context, host peer.AddrInfo) error {
	if host.ID == p.h.ID() {
		return fmt.Errorf("network: that address is this peer's own")
	}
	if err := p.t.Connect(ctx, host); err != nil {
		return err
	}
	return p.call(func() error {
		if p.joinTarget != "" {
			if p.st.Joined || p.st.Left {
				return ErrAnswered
			}
			cfg := p.cfg
			cfg.Generation = max(cfg.Generation, p.st.Generation)
			node, err := session.NewNode(cfg)
			if err != nil {
				return fmt.Errorf("network: %w", err)
			}
			p.drive(node)
		}
		p.joinTarget, p.redirect = host.ID, ""
		return p.node.Join(session.PeerID(host.ID.String()))
	})
}

// Abandon makes the peer stop, when its context ends, without saying
// goodbye: a player that gave up seeking its game must not tell a host
// that answers late that it left (a goodbye gives its slot up for good).
func (p *Peer) Abandon() { p.quiet.Store(true) }

// SaveGame saves the running game after the last turn applied: what a new
// session resumes from (session.Settings.Resume), and the world's hash then.
// Only the host saves; between two turns, so the state is consistent.
func (p *Peer) SaveGame() (sv session.Saved, hash uint64, err error) {
	err = p.call(func() error {
		sv, hash, err = p.save()
		return err
	})
	return sv, hash, err
}

// save runs on the loop goroutine between Readys: the world is at the last
// turn the node handed over.
func (p *Peer) save() (session.Saved, uint64, error) {
	if !p.st.IsHost {
		return session.Saved{}, 0, ErrNotHost
	}
	data, err := p.m.SaveState(p.st.Turn)
	if err != nil {
		return session.Saved{}, 0, err
	}
	sv, err := p.node.Save(p.st.Turn, data)
	if err != nil {
		return session.Saved{}, 0, err
	}
	return sv, p.m.World().Hash(), nil
}

// saveAt makes the SaveAt save once the game has reached that turn.
func (p *Peer) saveAt() {
	if p.saveDone || p.opt.SaveAt == 0 || p.st.State != session.StatePlaying || p.st.Turn < p.opt.SaveAt {
		return
	}
	p.saveDone = true
	sv, hash, err := p.save()
	if err != nil {
		p.emit(Event{Kind: EvSaved, Turn: p.st.Turn, Text: fmt.Sprintf("The game was not saved: %v.", err)})
		return
	}
	p.emit(Event{Kind: EvSaved, Turn: sv.State.Turn, Hash: hash, Saved: &sv})
}

// Loaded tells the session that this player's window shows the loaded game
// (PeerOptions.Match.ScreenLoads): turn 1 waits for it. Later calls, and
// calls before the game has loaded, do nothing.
func (p *Peer) Loaded() error {
	return p.call(func() error {
		if p.m.World() != nil && !p.screenLoaded {
			p.screenLoaded = true
			p.node.Loaded()
		}
		return nil
	})
}

// Leave leaves the session; Run returns soon after.
func (p *Peer) Leave() error {
	return p.call(func() error { p.node.Leave(); return nil })
}

// withNode runs fn with the session node on the loop goroutine and returns
// its error, or ErrClosed once the loop has stopped. It is how the lobby's
// requests (client.Client's SetSlot, Kick, Start…) reach the node.
func (p *Peer) withNode(fn func(n *session.Node) error) error {
	return p.call(func() error { return fn(p.node) })
}

// Propose sends the local player's order; it executes on every peer in a
// turn or two.
func (p *Peer) Propose(c game.Command) error {
	data, err := p.m.Encode(c)
	if err != nil {
		return err
	}
	return p.call(func() error { return p.d.Propose(p.st.Slot, data) })
}

// proposed traces own-slot commands (the driver numbers each slot's 1, 2, 3, …).
func (p *Peer) proposed(slot int, seq uint64) {
	if slot == p.st.Slot && p.opt.OnPropose != nil {
		p.opt.OnPropose(slot, seq, time.Now())
	}
}

// proposeRaw proposes bytes for a slot (tests: forged commands).
func (p *Peer) proposeRaw(slot int, data []byte) error {
	return p.call(func() error { return p.d.Propose(slot, data) })
}

// call runs fn on the loop goroutine and returns its error.
func (p *Peer) call(fn func() error) error {
	errc := make(chan error, 1)
	select {
	case p.reqs <- func() { errc <- fn() }:
	case <-p.done:
		return ErrClosed
	}
	select {
	case err := <-errc:
		return err
	case <-p.done:
		return ErrClosed
	}
}

// pauseEvents reports the turn's pauses and resumes (on the loop).
func (p *Peer) pauseEvents(turn uint64, evs []game.Event) {
	for _, ev := range evs {
		var k EventKind
		switch ev.Kind {
		case game.EvPaused:
			k = EvPaused
		case game.EvResuming:
			k = EvResuming
		case game.EvResumed:
			k = EvResumed
		default:
			continue
		}
		slot := p.m.Slot(ev.Player)
		name := ""
		if slot >= 0 && slot < len(p.lob.Slots) {
			name = p.lob.Slots[slot].Name
		}
		p.emit(Event{Kind: k, Turn: turn, Slot: slot, Name: name, Count: int(ev.Count)})
	}
}

func (p *Peer) emit(e Event) {
	if e.At.IsZero() {
		e.At = time.Now()
	}
	select {
	case p.events <- e:
	default:
		p.evDrops.Add(1)
	}
}

// byeLinger is how long a leaving peer waits for the others to read its
// Bye before it closes its connections: closing with their frames unread
// resets the connection, and a reset can drop the Bye on their side. The
// wait ends as soon as every other end has read it (milliseconds on an idle
// machine); at load 26 the 300 ms it was lost a host's Bye in a game of three.
const byeLinger = time.Second

// Run is the peer's loop: one select over inbound messages, connection
// changes, the tick, requests from other goroutines and ctx. It returns
// when ctx is done (after leaving the session) or when the session is left.
func (p *Peer) Run(ctx context.Context) error {
	if !p.running.CompareAndSwap(false, true) {
		return errors.New("network: Run called twice")
	}
	// One thread for the loop: a pass's CPU time is that thread's
	// (Status.Busy). Waking it costs a thread switch, microseconds.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer close(p.done)
	defer func() { p.gens.flush(time.Now()) }()
	defer p.t.Close(byeLinger)
	defer p.closeReplay()
	ticker := time.NewTicker(p.tick)
	defer ticker.Stop()
	for {
		var what string
		select {
		case <-ctx.Done():
			if !p.quiet.Load() {
				p.node.Leave()
				p.ready()
			}
			return nil
		case in := <-p.t.Inbound():
			p.clock.begin(time.Now())
			p.step(in)
			what = in.Msg.Kind.String()
		case <-p.t.Changed():
			p.clock.begin(time.Now())
			// What was read before a connection ended comes first: a
			// leaving peer's Bye is read before its close, and the select
			// would otherwise pick either.
			for range len(p.t.Inbound()) {
				p.step(<-p.t.Inbound())
			}
			p.connChanges()
			what = "connections"
		case <-ticker.C:
			now := time.Now()
			p.clock.begin(now)
			p.clock.tick(now)
			p.node.Tick()
			p.m.Publish() // a copy the window held back at the last turn
			p.ticks++
			if p.ticks%50 == 0 {
				p.housekeeping()
			}
			what = "tick"
		case fn := <-p.reqs:
			p.clock.begin(time.Now())
			fn()
			what = "request"
		}
		p.ready()
		p.clock.finish(what)
		if p.st.Left {
			return nil
		}
	}
}

// step hands one inbound message to the node.
func (p *Peer) step(in transport.Inbound) {
	p.msgs++
	p.heard(in.From, &in.Msg)
	if migrationKind(in.Msg.Kind) {
		p.log.Debug("session in", "kind", in.Msg.Kind.String(), "from", in.Msg.From, "epoch", in.Msg.Epoch, "turn", in.Msg.Turn, "tick", p.ticks)
	}
	if err := p.node.Step(in.Msg); err != nil {
		p.log.Debug("message refused", "from", in.From, "err", err)
	}
}

// heard notes, from a message about to be stepped, what the node keeps to
// itself: how far the host's game is (a rejoining player shows how far it
// has caught up), and a member's answer to a Hello that names its host.
func (p *Peer) heard(from peer.ID, m *session.Message) {
	switch {
	case m.Kind == session.MsgReject && !p.st.Joined && from == p.joinTarget && len(m.Targets) == 1:
		if id, err := peer.Decode(string(m.Targets[0])); err == nil && id != p.h.ID() {
			p.redirect = id
		}
	case m.Kind == session.MsgTurns || m.Kind == session.MsgPing || m.Kind == session.MsgSnapshot:
		if m.Kind != session.MsgSnapshot && session.PeerID(from.String()) != p.st.Host {
			return
		}
		t := m.Turn // a ping's: the host's last turn
		if n := len(m.Turns); n > 0 {
			t = max(t, m.Turns[n-1].Number)
		}
		p.hostTurn = max(p.hostTurn, t)
	}
}

func (p *Peer) connChanges() {
	p.stepConnChanges(p.t.ConnChanges())
	// A relay circuit being renewed: a planned silence (p2p/transport/circuit.go).
	allow := uint32(transport.RenewalSilence / p.tick)
	for _, id := range p.t.Renewing() {
		p.log.Debug("relay circuit renewing: its silence is planned", "peer", id)
		_ = p.node.Step(session.Message{Kind: session.MsgRenewing, From: session.PeerID(id.String()), Count: allow})
	}
}

// maxIDs bounds the peer IDs the loop caches: strangers come with fresh
// ones, and each answer to one would otherwise stay.
const maxIDs = 1024

// stepConnChanges hands the node the transport's connection changes. The
// time of a loss is kept for members only (a host change's Took).
func (p *Peer) stepConnChanges(changes []transport.ConnChange) {
	for _, c := range changes {
		from := session.PeerID(c.Peer.String())
		kind := session.MsgConnected
		if !c.Up {
			kind = session.MsgDisconnected
			if p.admit.admitted(c.Peer) {
				p.lostAt[c.Peer] = time.Now()
			}
		}
		p.log.Debug("connection", "peer", c.Peer, "up", c.Up, "closed", c.Closed)
		_ = p.node.Step(session.Message{Kind: kind, From: from, Closed: c.Closed})
	}
}

// ready hands the node's Readys to the driver, which applies the game side
// first; the loop's side follows for each (messages, then events), and
// the SaveAt save once the game has reached that turn.
func (p *Peer) ready() {
	if !p.node.HasReady() {
		return
	}
	turned := false
	handled := func(rd *session.Ready, hashes []session.HashReport) {
		turned = turned || len(rd.Committed) > 0
		p.handled(rd, hashes)
	}
	if err := p.d.Handle(handled); err != nil && recoverable(err) && p.node.Resync(p.m.World() != nil) {
		// A fault on this side (no game loaded, a turn missing): the
		// player takes the game back from its host by snapshot rather
		// than leave it.
		p.log.Warn("game fell out of step with the session; taking it back from the host", "err", err)
		_ = p.d.Handle(handled) // the Hello
	} else if err != nil {
		p.log.Error("game cannot follow the session", "err", err)
		p.emit(Event{Kind: EvLeft, Text: fmt.Sprintf("The game could not go on here: %v.", err)})
		p.node.Leave()
		_ = p.d.Handle(handled) // the goodbyes
		turned = false
	}
	if turned {
		p.saveAt()
	}
	p.publishStatus()
}

// claims reports whether this Ready claims a new epoch for this peer: a
// claim goes out, or it hosts an epoch of the newest generation.
func claims(rd *session.Ready) bool {
	for _, m := range rd.Messages {
		if m.Kind == session.MsgClaim {
			return true
		}
	}
	return rd.Status.IsHost && session.EpochGeneration(rd.Status.Epoch) >= rd.Status.Generation
}

// recoverable reports whether err is a fault of this side's game, or a
// repair snapshot that does not restore (a bad source), that a snapshot from
// the host mends.
func recoverable(err error) bool {
	return errors.Is(err, match.ErrNotLoaded) || errors.Is(err, match.ErrTurnGap) || errors.Is(err, match.ErrBadSnapshot)
}

// introduces lists the peers m sends its receiver to (a member naming its
// host, a host naming the game that goes on): the transport tells the
// receiver their addresses first.
func introduces(m *session.Message) []peer.ID {
	if m.Kind != session.MsgReject && m.Kind != session.MsgMerge {
		return nil
	}
	var ids []peer.ID
	for _, target := range m.Targets {
		if id, err := peer.Decode(string(target)); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// handled does the loop's side of one Ready: send, then tell.
func (p *Peer) handled(rd *session.Ready, hashes []session.HashReport) {
	if rd.Status.Generation > p.gens.saved { // rare: look for a claim only then
		p.gens.note(rd.Status.Generation, claims(rd), time.Now())
	}
	p.st = rd.Status
	for i := range rd.Messages {
		m := &rd.Messages[i]
		if migrationKind(m.Kind) {
			p.log.Debug("session out", "kind", m.Kind.String(), "to", m.To, "epoch", m.Epoch, "turn", m.Turn, "tick", p.ticks)
		}
		to, err := p.peerID(m.To)
		if err != nil {
			p.log.Error("message to a peer that is not a libp2p peer", "to", m.To, "err", err)
			continue
		}
		p.admit.sent(to, m.Kind)
		if p.tamper == nil || p.tamper(m) {
			if ids := introduces(m); len(ids) > 0 {
				p.t.Introduce(to, ids)
			}
			p.t.Send(to, m)
		}
	}
	now := time.Now()
	if p.opt.OnTurn != nil {
		for _, t := range rd.Committed {
			p.opt.OnTurn(t, now)
		}
	}
	for _, ev := range rd.Events {
		if ev.Kind != session.EvLobbyChanged && ev.Kind != session.EvChat {
			p.log.Debug("session event", "kind", ev.Kind.String(), "turn", ev.Turn, "slot", ev.Slot,
				"reason", ev.Reason.String(), "text", ev.Text, "host", ev.NewHost, "epoch", ev.Epoch, "tick", p.ticks)
		}
		if ev.Kind == session.EvHostChanged {
			p.hostChanged(ev)
		}
	}
	p.turnEvents(rd, hashes)
	for _, ev := range rd.Events {
		p.event(ev)
	}
	if !p.ended && p.m.Over() {
		p.ended = true
		p.closeReplay()
		p.endEvent()
	}
}

func (p *Peer) peerID(s session.PeerID) (peer.ID, error) {
	if id, ok := p.ids[s]; ok {
		return id, nil
	}
	id, err := peer.Decode(string(s))
	if err != nil {
		return "", err
	}
	if len(p.ids) >= maxIDs {
		clear(p.ids)
	}
	p.ids[s] = id
	return id, nil
}

func (p *Peer) turnEvents(rd *session.Ready, hashes []session.HashReport) {
	host, _ := p.peerID(rd.Status.Host)
	for _, h := range hashes {
		if h.Turn%uint64(p.opt.TurnEvery) == 0 && !p.ended {
			p.emit(Event{Kind: EvTurn, Turn: h.Turn, Epoch: rd.Status.Epoch, Host: host, Hash: h.Hash})
		}
	}
	if hc := p.hostMove; hc != nil {
		for _, t := range rd.Committed {
			if t.Epoch < hc.Epoch {
				continue
			}
			// Took runs from the loss (the connection drop, or else the
			// last turn of the old host) to this first turn of the new one:
			// the time the game stood still.
			hc.Turn = t.Number
			hc.At = time.Now()
			from := p.lastTurn
			if lost, ok := p.lostAt[hc.OldHost]; ok && lost.After(from) {
				from = lost
			}
			if !from.IsZero() {
				hc.Took = hc.At.Sub(from)
			}
			p.emit(*hc)
			p.hostMove = nil
			break
		}
	}
	if n := len(rd.Committed); n > 0 {
		p.lastTurn, p.turnEpoch = time.Now(), rd.Committed[n-1].Epoch
	}
}

// hostChanged notes a host change; it is shown with the first turn the
// new host sequenced, so Took measures the loss until the game went on.
func (p *Peer) hostChanged(ev session.Event) {
	old, _ := p.peerID(ev.OldHost)
	nw, _ := p.peerID(ev.NewHost)
	p.hostMove = &Event{Kind: EvHostChanged, OldHost: old, Host: nw, Epoch: ev.Epoch, OldEpoch: p.turnEpoch,
		Took: time.Duration(ev.Ticks) * p.tick}
}

// migrationKind reports the message kinds worth a debug line: the few of a
// host migration and of leaving, not the steady flow of turns and acks.
func migrationKind(k session.MsgKind) bool {
	switch k {
	case session.MsgClaim, session.MsgFollow, session.MsgReject, session.MsgRefuse, session.MsgBye:
		return true
	}
	return false
}

// eventKinds maps the session's events to the Peer's; EvHostChanged is
// shown later (hostChanged) and EvLoad is match's.
var eventKinds = map[session.EventKind]EventKind{
	session.EvJoined: EvJoined, session.EvRefused: EvRefused, session.EvLobbyChanged: EvLobby,
	session.EvChat: EvChat, session.EvCountdown: EvCountdown, session.EvGameStarted: EvGameStarted,
	session.EvWaiting: EvWaiting, session.EvWaitOver: EvWaitOver, session.EvPlayerLeft: EvPlayerLeft,
	session.EvDesync: EvDesync, session.EvDesyncRepaired: EvDesyncRepaired, session.EvLeft: EvLeft,
	session.EvPlayerAway: EvPlayerAway, session.EvPlayerBack: EvPlayerBack,
}

func (p *Peer) event(ev session.Event) {
	kind, ok := eventKinds[ev.Kind]
	if !ok {
		return
	}
	e := Event{Kind: kind, Slot: ev.Slot, Name: ev.Name, Turn: ev.Turn, Epoch: ev.Epoch, Count: ev.Count,
		Reason: ev.Reason, Text: ev.Text, Chat: ev.Chat, Lobby: ev.Lobby, Desync: ev.Desync,
		Left: time.Duration(ev.TicksLeft) * p.tick}
	switch {
	case kind == EvLobby && ev.Lobby != nil:
		l := ev.Lobby.Clone()
		p.setLobby(l)
	case kind == EvJoined:
		// The lobby the host welcomed this peer into: the host's next
		// revision may come only after this peer's first edit.
		l := p.node.Lobby()
		p.setLobby(l)
		e.Lobby = &l
	case kind == EvDesync && ev.Desync != nil:
		e.Turn = ev.Desync.Turn
	case kind == EvPlayerLeft && ev.Slot >= 0 && ev.Slot < len(p.lob.Slots):
		if ev.Slot < 32 {
			p.gone.Or(1 << ev.Slot)
		}
		if id, err := p.peerID(p.lob.Slots[ev.Slot].Peer); err == nil && id != p.h.ID() {
			p.admit.departed(id)
		}
	}
	p.emit(e)
}

// setLobby publishes the lobby and admits its members' large frames.
func (p *Peer) setLobby(l session.Lobby) {
	p.lob = l
	p.lobby.Store(&l)
	p.admit.members(p.memberIDs())
}

// memberIDs are the lobby's players and spectators but this peer.
func (p *Peer) memberIDs() []peer.ID {
	var members []peer.ID
	add := func(s session.PeerID) {
		if id, err := p.peerID(s); err == nil && id != p.h.ID() {
			members = append(members, id)
		}
	}
	for _, s := range p.lob.Slots {
		if s.Kind == session.SlotHuman {
			add(s.Peer)
		}
	}
	for _, s := range p.lob.Spectators {
		add(s)
	}
	return members
}

// closeReplay ends the replay (at the game's end, or when leaving).
func (p *Peer) closeReplay() {
	if err := p.m.CloseReplay(); err != nil {
		p.log.Error("replay not finished", "err", err)
	}
}

func (p *Peer) endEvent() {
	e := Event{Kind: EvEnd, Winner: -1}
	if w := p.m.World(); w != nil {
		e.Turn = uint64(w.Turn())
		e.Time = w.Time()
		e.Hash = w.Hash()
		if t, ok := w.Winner(); ok {
			e.Winner = int(t)
			e.Winners = w.Winners()
		}
		for pl := range w.NumPlayers() {
			info := w.Player(game.PlayerID(pl))
			e.Players = append(e.Players, EndPlayer{Slot: p.m.Slot(game.PlayerID(pl)), Units: info.Units,
				Buildings: info.Buildings, Out: info.Out})
		}
	}
	p.emit(e)
}

// housekeeping runs every half second: the connection mesh, the address
// directory, byte rates.
func (p *Peer) housekeeping() {
	if !p.st.Joined {
		return
	}
	members := p.memberIDs()
	if p.lob.State >= session.StateLoading {
		p.t.Mesh(members)
	}
	if p.st.IsHost {
		p.t.ShareDirectory(members)
	}
}

func (p *Peer) publishStatus() {
	st := &Status{
		Self: p.h.ID(), IsHost: p.st.IsHost, Joined: p.st.Joined, Left: p.st.Left,
		State: p.st.State, Epoch: p.st.Epoch, Turn: p.st.Turn, Slot: p.st.Slot,
		Delay: time.Duration(p.st.Delay) * time.Duration(max(p.lob.TurnTicks, 1)) * p.tick,
		Over:  p.ended, Messages: p.msgs, Stall: p.clock.stall,
		Busy: p.clock.busy, BusyIn: p.clock.what, Late: p.clock.late,
		Redirect: p.redirect, HostTurn: max(p.hostTurn, p.st.Turn),
	}
	st.Host, _ = p.peerID(p.st.Host)
	if p.t != nil {
		p.peerStatuses(st)
	}
	p.status.Store(st)
}

// otherRows are the status rows of the links to peers in no slot
// (spectators, and strangers: up to Limits.Strangers of them), with their
// sums, kept from one full listing to the next; slots are the peers in
// slots then (others when they change, so no peer has two rows).
type otherRows struct {
	slots   []peer.ID
	rows    []PeerStatus
	in, out float64
	dropped uint64
}

// peerStatuses lists the slots' peers on every pass, and every link (up to
// 64 strangers' among them) at most once a second, with the byte rates:
// the loop publishes a status on each pass with Readys, and listing the
// strangers each time was the largest part of its own CPU in a flood.
func (p *Peer) peerStatuses(st *Status) {
	now := time.Now()
	var slots []peer.ID
	var names []string
	var at []int
	for i, s := range p.lob.Slots {
		if s.Kind == session.SlotHuman {
			if id, err := p.peerID(s.Peer); err == nil && id != p.h.ID() && !slices.Contains(slots, id) {
				slots, names, at = append(slots, id), append(names, s.Name), append(at, i)
			}
		}
	}
	second := now.Sub(p.lastRates) >= time.Second
	full := second || !slices.Equal(slots, p.others.slots)
	var links []transport.LinkStats
	if full {
		links = p.t.Links()
		if second {
			p.noteRates(links, now)
		}
	} else {
		links = p.t.LinksOf(slots)
	}
	byID := make(map[peer.ID]transport.LinkStats, len(links))
	for _, l := range links {
		byID[l.Peer] = l
	}
	for k, id := range slots {
		l := byID[id]
		st.Dropped += l.Dropped
		st.Peers = append(st.Peers, p.row(id, names[k], at[k], l))
		st.InRate += p.rates[id][0]
		st.OutRate += p.rates[id][1]
	}
	if full {
		p.others = otherRows{slots: slots}
		for _, l := range links { // ordered by peer
			if l.Peer == p.h.ID() || slices.Contains(slots, l.Peer) {
				continue
			}
			p.others.rows = append(p.others.rows, p.row(l.Peer, "", -1, l))
			p.others.in += p.rates[l.Peer][0]
			p.others.out += p.rates[l.Peer][1]
			p.others.dropped += l.Dropped
		}
	}
	st.Peers = append(st.Peers, p.others.rows...)
	st.InRate += p.others.in
	st.OutRate += p.others.out
	st.Dropped += p.others.dropped
}

// noteRates makes the byte rates anew from the links there are (a retired
// link's peer goes).
func (p *Peer) noteRates(links []transport.LinkStats, now time.Time) {
	dt := now.Sub(p.lastRates).Seconds()
	rates, bytes := make(map[peer.ID][2]float64, len(links)), make(map[peer.ID][2]uint64, len(links))
	for _, l := range links {
		last := p.lastBytes[l.Peer]
		rates[l.Peer] = [2]float64{float64(l.Recv-last[0]) / dt, float64(l.Sent-last[1]) / dt}
		bytes[l.Peer] = [2]uint64{l.Recv, l.Sent}
	}
	p.rates, p.lastBytes, p.lastRates = rates, bytes, now
}

// row is id's status row from its link l.
func (p *Peer) row(id peer.ID, name string, slot int, l transport.LinkStats) PeerStatus {
	r := p.rates[id]
	return PeerStatus{ID: id, Name: name, Slot: slot,
		Connected: p.t.IsConnected(id), Stream: l.Stream, RTT: l.RTT, InRate: r[0], OutRate: r[1],
		Limited: l.Limited, Circuits: l.Circuits}
}
