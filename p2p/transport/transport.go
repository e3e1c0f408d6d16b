package transport

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
	"golang.org/x/time/rate"

	"hostfall/session"
)

// Limits bound what one peer may cost this one. The zero value of a field
// takes its DefaultLimits value.
type Limits struct {
	// Frames and bytes a peer may send, per second and in one burst. A peer
	// over the rate is throttled: its stream is read more slowly, TCP pushes
	// back, and its own bounded queue drops (session resends).
	FrameRate  float64
	FrameBurst int
	ByteRate   float64
	ByteBurst  int // at least MaxFrameSize
	// QueueFrames and QueueBytes bound each peer's send queue. A frame
	// that finds the queue full is dropped: the queue only fills when the
	// peer stopped reading, and the session resends turns, commands and
	// heartbeats. An empty queue takes one frame of any size.
	QueueFrames int
	QueueBytes  int
	// A peer that breaks the frame protocol MaxStrikes times within
	// StrikeWindow is disconnected and blocked for BlockFor.
	MaxStrikes   int
	StrikeWindow time.Duration
	BlockFor     time.Duration
	// Password proofs (session Proof messages) per remote IP address, per
	// second and in one burst. Peer IDs cost nothing to make, addresses
	// do: this caps password guessing from one machine (the session also
	// makes each peer ID wait longer after each wrong proof). Relayed peers
	// share the relay's address, so the burst lets a whole LAN party join
	// through one relay at once. Hellos are not counted: seekers send them
	// to find their game, and the session bounds what they cost.
	ProofRate  float64
	ProofBurst int
	// StrangerFrame bounds a frame from a peer the loop has not admitted
	// (see Transport.Admit): a stranger may only knock (Hello, Proof), and
	// those are small. Only members and the hosts this peer asked may send
	// turns and snapshots up to MaxFrameSize. StrangerRate bounds the bytes
	// a second a stranger's stream is read at (on top of ByteRate). Of a
	// stranger's session messages only the kind is read (session.PeekKind):
	// a knock (session.MsgKind.IsKnock) goes on to the loop, anything else
	// is dropped.
	StrangerFrame int
	StrangerRate  float64
	// Strangers and StrangersPerIP bound the inbound connections of peers
	// the loop has not admitted, in all and per remote IP address (on
	// loopback too, where go-libp2p lifts its own per-address cap); one
	// over a bound closes the oldest stranger's connection. A stranger
	// still not admitted after StrangerLinger is closed (strangers.go).
	Strangers      int
	StrangersPerIP int
	StrangerLinger time.Duration
}

// DefaultLimits are generous for a game (a follower sends ~25 frames a
// second, a host ~25 per follower) and small for a flood.
var DefaultLimits = Limits{
	FrameRate: 1000, FrameBurst: 2000,
	ByteRate: 4 << 20, ByteBurst: MaxFrameSize + 4096,
	QueueFrames:  512,
	QueueBytes:   2 * MaxFrameSize,
	MaxStrikes:   3,
	StrikeWindow: time.Minute,
	BlockFor:     time.Minute,
	ProofRate:    2, ProofBurst: 20,
	StrangerFrame: 8<<10 + 1, StrangerRate: 32 << 10,
	Strangers: 64, StrangersPerIP: 8,
	StrangerLinger: time.Minute,
}

func (l Limits) filled() Limits {
	d := DefaultLimits
	def := func(v *float64, x float64) {
		if *v <= 0 {
			*v = x
		}
	}
	defi := func(v *int, x int) {
		if *v <= 0 {
			*v = x
		}
	}
	defd := func(v *time.Duration, x time.Duration) {
		if *v <= 0 {
			*v = x
		}
	}
	def(&l.FrameRate, d.FrameRate)
	defi(&l.FrameBurst, d.FrameBurst)
	def(&l.ByteRate, d.ByteRate)
	defi(&l.ByteBurst, d.ByteBurst)
	l.ByteBurst = max(l.ByteBurst, MaxFrameSize+16)
	defi(&l.QueueFrames, d.QueueFrames)
	defi(&l.QueueBytes, d.QueueBytes)
	defi(&l.MaxStrikes, d.MaxStrikes)
	defd(&l.StrikeWindow, d.StrikeWindow)
	defd(&l.BlockFor, d.BlockFor)
	def(&l.ProofRate, d.ProofRate)
	defi(&l.ProofBurst, d.ProofBurst)
	defi(&l.StrangerFrame, d.StrangerFrame)
	def(&l.StrangerRate, d.StrangerRate)
	l.StrangerFrame = min(l.StrangerFrame, MaxFrameSize)
	defi(&l.Strangers, d.Strangers)
	defi(&l.StrangersPerIP, d.StrangersPerIP)
	defd(&l.StrangerLinger, d.StrangerLinger)
	return l
}

// Timing of the transport. Pings measure each link's round trip for the
// network panel; they cost ~60 bytes a second per peer with framing.
const (
	openTimeout  = 5 * time.Second
	writeTimeout = 5 * time.Second
	pingEvery    = 2 * time.Second
	// staleStream: a stream that brought nothing for this long (both sides
	// ping every pingEvery) no longer wins a tie against a new one: its peer
	// most likely restarted, and a QUIC connection to a killed process
	// lingers until its idle timeout.
	staleStream = 3 * pingEvery
	idleLinger  = time.Minute
	minBackoff  = 50 * time.Millisecond
	maxBackoff  = 2 * time.Second
	dialEvery   = time.Second
	addrTTL     = time.Hour
	maxBatch    = 64 << 10
)

// Inbound is a decoded session message and the peer it came from.
type Inbound struct {
	From peer.ID
	Msg  session.Message
}

// ConnChange is a change of whether this peer holds a connection to Peer.
type ConnChange struct {
	Peer peer.ID
	Up   bool
	// Closed (with Up false): the remote end closed or reset the
	// connection rather than it timing out (hangup.go). A loss reported
	// without it may be reported again with it.
	Closed bool
}

// transport carries frames between this peer and others, one stream per peer
// pair. Sending never blocks; each peer has a link goroutine that owns the
// stream's writing side and a reader goroutine per stream.
type transport struct {
	h     *Host
	self  peer.ID
	log   *slog.Logger
	lim   Limits
	start time.Time

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	in      chan Inbound  // readers → loop (blocking: back pressure)
	connSig chan struct{} // notifee → loop: connection states changed

	tamper       func(*session.Message) bool          // tests: rewrite or swallow outgoing messages
	admit        atomic.Pointer[func(peer.ID) bool]   // Admit's; nil: everyone may send large frames
	onCircuit    atomic.Pointer[func(CircuitRenewal)] // OnCircuit's
	simultaneous atomic.Int64                         // streams that met one opened the other way
	openFailed   atomic.Int64                         // stream opens that failed (tests: the tie-break had one side only)
	noRenew      atomic.Bool                          // LeaveLimitsToRelay
	ignored      atomic.Int64                         // strangers' frames dropped unread (not a knock, or peer lists)
	renewing     renewNotes                           // planned silences the session is not told of yet (circuit.go)
	relay        *playerRelay                         // this peer's relay for its game's members (playerrelay.go); nil if it did not start

	mu       sync.Mutex
	links    map[peer.ID]*link
	conns    map[peer.ID]int  // open connections per peer
	reported map[peer.ID]bool // connection state last handed to the loop
	changed  map[peer.ID]bool
	strikes  strikeBook
	limiters map[peer.ID]*peerLimiter
	byIP     map[string]*rate.Limiter   // password proofs per remote address (see Limits)
	proofNow func() time.Time           // the clock of the proof budgets: time.Now, a test's own
	dir      map[peer.ID][]ma.Multiaddr // addresses peers told us
	dialing  map[peer.ID]time.Time      // last mesh dial per peer
	held     map[peer.ID]*time.Timer    // peers whose limited circuit ended: loss not reported yet (circuit.go)
	notifee  network.Notifiee
	cutOff   bool // tests: see cut

	// How connections ended (hangup.go): the last to end per peer, those a
	// stream's read saw closed by the remote, and the peers reported so.
	lastDown    map[peer.ID]network.Conn
	closedConns map[peer.ID]map[network.Conn]bool
	closedSent  map[peer.ID]bool
	// protected are the peers protected in the connection manager;
	// strangers the inbound connections of everyone else, oldest first
	// (strangers.go).
	protected map[peer.ID]bool
	strangers []stranger
}

type peerLimiter struct {
	frames, bytes *rate.Limiter
	stranger      *rate.Limiter // bytes while the peer is no member
}

func newTransport(h *Host, lim Limits, log *slog.Logger) *transport {
	ctx, cancel := context.WithCancel(context.Background())
	t := &transport{
		h: h, self: h.ID(), log: log, lim: lim.filled(), start: time.Now(),
		ctx: ctx, cancel: cancel,
		in:      make(chan Inbound, 256),
		connSig: make(chan struct{}, 1),
		links:   map[peer.ID]*link{}, conns: map[peer.ID]int{}, reported: map[peer.ID]bool{},
		changed:  map[peer.ID]bool{},
		limiters: map[peer.ID]*peerLimiter{}, dir: map[peer.ID][]ma.Multiaddr{}, byIP: map[string]*rate.Limiter{},
		dialing: map[peer.ID]time.Time{}, held: map[peer.ID]*time.Timer{},
		lastDown: map[peer.ID]network.Conn{}, closedConns: map[peer.ID]map[network.Conn]bool{}, closedSent: map[peer.ID]bool{},
		protected: map[peer.ID]bool{}, proofNow: time.Now,
	}
	t.strikes = strikeBook{window: t.lim.StrikeWindow, at: map[peer.ID][]time.Time{}}
	t.notifee = &network.NotifyBundle{ConnectedF: t.connected, DisconnectedF: t.disconnected}
	h.h.Network().Notify(t.notifee)
	for _, c := range h.h.Network().Conns() {
		t.connected(h.h.Network(), c)
	}
	h.h.SetStreamHandler(ProtocolID, t.handle)
	t.wg.Add(1)
	go t.sweepStrangers()
	t.relay = startPlayerRelay(t)
	return t
}

// close stops every link after giving the queues up to linger to drain.
func (t *transport) close(linger time.Duration) {
	deadline := time.Now().Add(linger)
	for time.Now().Before(deadline) && !t.drained() {
		time.Sleep(5 * time.Millisecond)
	}
	t.hangUp(linger)
	t.h.h.RemoveStreamHandler(ProtocolID)
	t.h.h.Network().StopNotify(t.notifee)
	t.protect(nil)
	t.relay.close()
	t.mu.Lock() // nothing adds to wg after this (link and ensureConnected check ctx under mu)
	t.cancel()
	for p := range t.held {
		t.unhold(p)
	}
	t.mu.Unlock()
	t.wg.Wait()
}

func (t *transport) drained() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, l := range t.links {
		if len(l.out) > 0 || l.writing.Load() {
			return false
		}
	}
	return true
}

// send queues a session message for p. It never blocks.
func (t *transport) send(p peer.ID, m *session.Message) {
	if t.tamper != nil && !t.tamper(m) {
		return
	}
	b, err := m.Marshal()
	if err != nil {
		t.log.Error("session message not sent", "to", p, "kind", m.Kind, "err", err)
		return
	}
	t.sendFrame(p, appendFrame(make([]byte, 0, len(b)+8), frameSession, b))
}

func (t *transport) sendFrame(p peer.ID, frame []byte) {
	if p == t.self {
		return
	}
	l := t.link(p)
	if l == nil {
		return
	}
	l.enqueue(frame)
}

// link returns the link to p, starting it if needed; nil once closed or
// while p is blocked.
func (t *transport) link(p peer.ID) *link {
	if t.h.Blocked(p) {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ctx.Err() != nil {
		return nil
	}
	if l := t.links[p]; l != nil {
		return l
	}
	l := &link{
		t: t, p: p, sid: session.PeerID(p.String()),
		out:    make(chan []byte, t.lim.QueueFrames),
		kick:   make(chan struct{}, 1),
		adopt:  make(chan network.Stream),
		dead:   make(chan network.Stream, 4),
		reopen: make(chan struct{}, 1),
		exited: make(chan struct{}),
		hangup: make(chan struct{}, 1),
		hungUp: make(chan struct{}),
	}
	t.links[p] = l
	t.wg.Add(1)
	go l.run()
	return l
}

// handle takes an inbound session stream.
func (t *transport) handle(s network.Stream) {
	p := s.Conn().RemotePeer()
	l := t.link(p)
	if l == nil {
		s.Reset()
		return
	}
	select {
	case l.adopt <- s:
	case <-l.exited:
		s.Reset()
	case <-t.ctx.Done():
		s.Reset()
	}
}

func (t *transport) connected(_ network.Network, c network.Conn) {
	t.mu.Lock()
	p := c.RemotePeer()
	t.conns[p]++
	if t.conns[p] == 1 {
		t.changed[p] = true
	}
	t.forgetDown(p)
	t.unhold(p)
	member := t.protected[p]
	t.mu.Unlock()
	if member {
		t.h.accept.member(c.RemoteMultiaddr())
	}
	t.log.Debug("libp2p connection opened", "peer", p, "addr", c.RemoteMultiaddr(), "dir", c.Stat().Direction)
	t.signal()
	t.directConnected(c)
	t.noteStranger(c)
}

func (t *transport) disconnected(_ network.Network, c network.Conn) {
	t.forgetStranger(c)
	t.mu.Lock()
	p := c.RemotePeer()
	if t.conns[p] > 0 {
		t.conns[p]--
	}
	if t.conns[p] == 0 {
		delete(t.conns, p)
		if c.Stat().Limited && t.ctx.Err() == nil && (t.h.punch.open(p) || t.held[p] != nil) {
			t.holdDown(p) // a relay's limit (or offVolunteers) ended it: a fresh circuit follows
		} else {
			if !c.Stat().Limited { // a relay ending a circuit says nothing of the peer's process
				t.lastDown[p] = c
			}
			t.changed[p] = true
		}
	}
	closed := t.closedConns[p][c]
	t.mu.Unlock()
	t.log.Debug("libp2p connection ended", "peer", p, "addr", c.RemoteMultiaddr(), "closed by the remote", closed)
	t.signal()
}

func (t *transport) signal() {
	select {
	case t.connSig <- struct{}{}:
	default:
	}
}

// connChanges returns the connection changes the loop has not seen. A
// connection that went down and up again in between is no change.
func (t *transport) connChanges() []ConnChange {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []ConnChange
	for p := range t.changed {
		up := t.conns[p] > 0
		if !up && t.held[p] != nil {
			// A limited circuit ended and a fresh one is due: the hold's
			// timer reports the loss if none comes (holdDown). A stream's
			// end heard just before the connection's (noteStreamEnd) must
			// not report it meanwhile.
			continue
		}
		closed := t.wasClosed(p, up) && t.held[p] == nil
		if up != t.reported[p] || closed && !t.closedSent[p] {
			out = append(out, ConnChange{Peer: p, Up: up, Closed: closed})
		}
		if closed {
			t.closedSent[p] = true
		}
		if up {
			t.reported[p] = true
		} else {
			delete(t.reported, p)
		}
	}
	clear(t.changed)
	return out
}

// isConnected reports whether this peer holds a connection to p.
func (t *transport) isConnected(p peer.ID) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.conns[p] > 0
}

// learn records addresses a peer gave for itself (self) or for others.
func (t *transport) learn(p peer.ID, addrs []ma.Multiaddr, self bool) {
	if p == t.self || len(addrs) == 0 {
		return
	}
	t.h.h.Peerstore().AddAddrs(p, addrs, addrTTL)
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, known := t.dir[p]; self || !known {
		t.dir[p] = addrs
	}
}

// directory lists the addresses of ids (this peer's own included) for a
// Peers frame.
func (t *transport) directory(ids []peer.ID) []peer.AddrInfo {
	out := []peer.AddrInfo{t.h.AddrInfo()}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, p := range ids {
		if p == t.self {
			continue
		}
		addrs := t.dir[p]
		if len(addrs) == 0 {
			addrs = t.h.h.Peerstore().Addrs(p)
		}
		if len(addrs) > 0 && len(out) < maxPeers {
			out = append(out, peer.AddrInfo{ID: p, Addrs: addrs})
		}
	}
	return out
}

// ensureConnected dials p in the background when no connection is open
// (or only limited ones, which a player's relay can replace: see
// playerrelay.go), its addresses are known, and the last try is a while ago. The mesh of
// connections makes a migration fast: the next host is already connected
// to everyone, and a lost follower is known at once.
func (t *transport) ensureConnected(p peer.ID) {
	if p == t.self || t.h.Blocked(p) {
		return
	}
	limitedOnly := t.limitedOnly(p)
	t.mu.Lock()
	if t.conns[p] > 0 && !limitedOnly || time.Since(t.dialing[p]) < dialEvery || t.ctx.Err() != nil {
		t.mu.Unlock()
		return
	}
	t.dialing[p] = time.Now()
	t.wg.Add(1)
	t.mu.Unlock()
	go func() {
		defer t.wg.Done()
		via := t.viaMembers(p)
		addrs := append(t.h.h.Peerstore().Addrs(p), via...)
		if limitedOnly { // on a volunteer's relay: a player of the game may carry it instead
			if len(via) == 0 {
				return
			}
			addrs = via
			t.offVolunteers(p)
		}
		if len(addrs) == 0 {
			return
		}
		ctx, cancel := context.WithTimeout(t.ctx, openTimeout)
		defer cancel()
		if err := t.h.h.Connect(ctx, peer.AddrInfo{ID: p, Addrs: addrs}); err != nil {
			t.log.Debug("mesh dial failed", "peer", p, "err", err)
		}
	}()
}

// strike counts a protocol violation of p; too many and p is blocked.
func (t *transport) strike(p peer.ID, reason error) {
	t.mu.Lock()
	n := t.strikes.add(p, time.Now())
	t.mu.Unlock()
	if n >= t.lim.MaxStrikes {
		t.h.Block(p, t.lim.BlockFor, fmt.Sprintf("%d protocol violations within %v, the last: %v", n, t.lim.StrikeWindow, reason))
	}
}

// strikeBook counts each peer's protocol violations within a sliding window.
type strikeBook struct {
	window time.Duration
	at     map[peer.ID][]time.Time
}

// add records a violation at now and returns how many fall in the window.
func (b *strikeBook) add(p peer.ID, now time.Time) int {
	recent := b.at[p][:0]
	for _, at := range b.at[p] {
		if now.Sub(at) < b.window {
			recent = append(recent, at)
		}
	}
	b.at[p] = append(recent, now)
	return len(b.at[p])
}

func (t *transport) limiter(p peer.ID) *peerLimiter {
	t.mu.Lock()
	defer t.mu.Unlock()
	pl := t.limiters[p]
	if pl == nil {
		pl = &peerLimiter{
			frames:   rate.NewLimiter(rate.Limit(t.lim.FrameRate), t.lim.FrameBurst),
			bytes:    rate.NewLimiter(rate.Limit(t.lim.ByteRate), t.lim.ByteBurst),
			stranger: rate.NewLimiter(rate.Limit(t.lim.StrangerRate), 2*t.lim.StrangerFrame),
		}
		t.limiters[p] = pl
	}
	return pl
}

// maxAddrLimiters bounds the per-address limiters a transport keeps: past
// it, they start again (an attacker with that many addresses is not the
// one this limit is for, and memory stays bounded).
const maxAddrLimiters = 4096

// proofAllowed takes one password proof from address ip out of its
// budget; it reports false when the address has used it up.
func (t *transport) proofAllowed(ip string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	l := t.byIP[ip]
	if l == nil {
		if len(t.byIP) >= maxAddrLimiters {
			clear(t.byIP)
		}
		l = rate.NewLimiter(rate.Limit(t.lim.ProofRate), t.lim.ProofBurst)
		t.byIP[ip] = l
	}
	return l.AllowN(t.proofNow(), 1)
}

// since is the transport's monotonic clock, for pings.
func (t *transport) since() uint64 { return uint64(time.Since(t.start)) }

// link is the connection of this peer to one other: its send queue and the
// goroutine that owns the current stream's writing side.
type link struct {
	t      *transport
	p      peer.ID
	sid    session.PeerID // p as the session names it
	out    chan []byte
	kick   chan struct{}
	adopt  chan network.Stream
	dead   chan network.Stream
	reopen chan struct{} // a direct connection appeared (upgrade.go)
	exited chan struct{}
	hangup chan struct{} // the transport closes: end the stream with a FIN (hangup.go)
	hungUp chan struct{} // closed once the other end has read to it, or there is no stream

	flushes  atomic.Uint64 // writes to a stream (a limited circuit's overhead)
	frames   atomic.Uint64 // frames read
	renewals atomic.Uint64 // limited relay circuits renewed before their end
	circuits atomic.Uint64 // streams back on a fresh circuit after a limited one ended
	limited  atomic.Bool   // the current stream is on a limited circuit

	up      atomic.Bool
	writing atomic.Bool
	rtt     atomic.Int64 // nanoseconds; 0 = not measured yet
	heard   atomic.Int64 // unix nanos of the last frame read on the current stream, or of its start
	sent    atomic.Uint64
	recv    atomic.Uint64
	dropped atomic.Uint64
	queued  atomic.Int64 // bytes in out
}

func (l *link) enqueue(frame []byte) {
	n := int64(len(frame))
	if q := l.queued.Add(n); q > int64(l.t.lim.QueueBytes) && q != n {
		l.queued.Add(-n)
		l.full()
	} else {
		select {
		case l.out <- frame:
		default:
			l.queued.Add(-n)
			l.full()
		}
	}
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// taken notes that frame left the send queue.
func (l *link) taken(frame []byte) { l.queued.Add(-int64(len(frame))) }

// full counts a frame dropped for a full queue.
func (l *link) full() {
	if l.dropped.Add(1)%100 == 1 {
		l.t.log.Debug("send queue full, frame dropped (the session resends)", "peer", l.p, "dropped", l.dropped.Load())
	}
}

// opened is the outcome of opening a stream.
type opened struct {
	s   network.Stream
	err error
}

// run owns the link: it opens or adopts a stream, writes the queue to it,
// pings, and after a while without a stream or anything to send it ends.
// A stream opens on a goroutine of its own: dialing a peer's old addresses
// can take openTimeout, and meanwhile the peer (restarted elsewhere) may
// open a stream this way, which must not wait behind the dial.
func (l *link) run() {
	t := l.t
	defer t.wg.Done()
	defer close(l.exited)
	var (
		cur     network.Stream
		ours    bool
		w       *bufio.Writer
		backoff = minBackoff
		retry   *time.Timer
		idleAt  = time.Now()
		opening chan opened // the stream being opened, nil when none is
		want    bool        // open a stream even with nothing queued (a renewed circuit)
		circ    circuitLimit
		circOn  network.Conn // the connection circ is of
		use0    circuitUse   // the link's counters when the stream began on circOn
		check   *time.Ticker // while cur is on a limited circuit
		lostAt  time.Time    // when a stream on a limited circuit ended; zero when none did
		lostOn  network.Conn // that circuit
		planned bool         // it ended by renewCircuit
		hanging bool         // hung up: the stream ends with a FIN, no new one opens
		hung    bool         // l.hungUp is closed
	)
	hungUp := func() {
		if hanging && !hung {
			hung = true
			close(l.hungUp)
		}
	}
	drop := func() {
		if cur != nil {
			cur.Reset()
			if l.limited.Load() && lostAt.IsZero() {
				lostAt, lostOn = time.Now(), cur.Conn()
			}
		}
		cur, w = nil, nil
		l.up.Store(false)
		hungUp()
		if check != nil {
			check.Stop()
			check = nil
		}
	}
	use := func(s network.Stream, opened bool) {
		if cur != nil {
			if l.stale() && cur.Conn() != s.Conn() {
				// A stream that gave way for being silent: its connection
				// is most likely to a process that died; free its slot.
				_ = cur.Conn().Close()
			}
			cur.Reset()
		}
		cur, ours, w = s, opened, bufio.NewWriterSize(s, 16<<10)
		l.heard.Store(time.Now().UnixNano())
		if err := l.writeFrames(cur, w, appendFrame(nil, frameHello, encodeHello(t.h.h.Addrs()))); err != nil {
			t.log.Debug("hello not written", "peer", l.p, "err", err)
			drop()
			return
		}
		l.up.Store(true)
		backoff = minBackoff
		t.wg.Add(1)
		go t.read(l, s)
		if !lostAt.IsZero() {
			// Not a stream replaced on the same circuit, nor one on a
			// direct connection (hole punching won as the circuit ended).
			if s.Conn() != lostOn && IsCircuit(s.Conn().RemoteMultiaddr()) {
				l.circuitBack(time.Since(lostAt), planned)
			}
			lostAt, lostOn, planned = time.Time{}, nil, false
		}
		lim, ok := limitOf(s.Conn())
		l.limited.Store(ok)
		if ok {
			if s.Conn() != circOn { // a stream replaced on the same circuit keeps counting its bytes
				circ, circOn, use0 = lim, s.Conn(), l.use(circuitUse{})
			}
			if check == nil {
				check = time.NewTicker(renewCheck)
			}
		} else if check != nil {
			check.Stop()
			check = nil
		}
	}
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		if cur == nil && (len(l.out) > 0 || want) && retry == nil && opening == nil && !hanging {
			want = false
			opening = make(chan opened, 1)
			go func(done chan<- opened, relayFirst bool) {
				if relayFirst { // a limited circuit ended: the direct path failed before
					t.h.relayFirst.Add(1)
					defer t.h.relayFirst.Add(-1)
				}
				s, err := l.open()
				done <- opened{s, err}
			}(opening, !lostAt.IsZero())
		}
		var out chan []byte
		var retryC, checkC <-chan time.Time
		if cur != nil && !hanging {
			out = l.out // nothing follows the FIN of a hang-up
		}
		if check != nil {
			checkC = check.C
		}
		if retry != nil {
			retryC = retry.C
		}
		select {
		case <-t.ctx.Done():
			drop()
			if opening != nil { // open gives up with t.ctx
				if o := <-opening; o.s != nil {
					o.s.Reset()
				}
			}
			return
		case o := <-opening:
			opening = nil
			switch {
			case hanging && o.err == nil:
				o.s.Reset() // this peer is closing: no new stream
			case o.err != nil && cur == nil:
				t.openFailed.Add(1)
				t.log.Debug("cannot open a session stream", "peer", l.p, "err", o.err, "retry in", backoff)
				retry = time.NewTimer(backoff)
				backoff = min(2*backoff, maxBackoff)
			case o.err != nil:
				t.openFailed.Add(1)
			case cur == nil || !ours && t.self < l.p || l.stale():
				// A stream the peer opened meanwhile gives way as when
				// both open at once: the smaller peer ID's stays.
				use(o.s, true)
			default:
				o.s.Reset()
			}
		case s := <-l.adopt:
			if hanging {
				s.Reset() // this peer is closing: no new stream
				continue
			}
			if cur != nil {
				t.simultaneous.Add(1)
			}
			switch {
			case cur == nil:
				use(s, false)
			case ours && t.self < l.p && !l.stale():
				// Both sides opened at once: the stream opened by the
				// smaller peer ID stays, on both sides.
				s.Reset()
			default:
				use(s, false)
			}
		case s := <-l.dead:
			if s == cur {
				if l.limited.Load() {
					out, in := circ.estimate(l.use(use0))
					t.log.Debug("session stream on a limited circuit ended", "peer", l.p, "after", time.Since(circ.opened),
						"bytes out", out, "bytes in", in, "limit", circ.data)
				}
				drop()
			}
		case f := <-out:
			l.taken(f)
			if err := l.writeFrames(cur, w, f); err != nil {
				t.log.Debug("session stream write failed", "peer", l.p, "err", err)
				drop()
			}
		case <-ping.C:
			if cur != nil {
				l.enqueue(appendFrame(nil, framePing, encodePing(t.since())))
			} else if opening == nil && len(l.out) == 0 && time.Since(idleAt) > idleLinger && l.retire() {
				return
			}
		case <-retryC:
			retry = nil
		case now := <-checkC:
			if cur != nil && !t.noRenew.Load() && t.h.punch.openFor(l.p, limitedGrace) && circ.due(now, l.use(use0), renewShare(circOn)) {
				l.renewCircuit()
				drop()
				want, planned = true, true
			}
		case <-l.reopen:
			if s := l.reopenDirect(cur); s != nil {
				use(s, true)
			}
		case <-l.hangup:
			hanging = true
			if cur == nil {
				hungUp()
			} else if err := cur.CloseWrite(); err != nil {
				drop()
			}
		case <-l.kick:
		}
		if cur != nil || len(l.out) > 0 {
			idleAt = time.Now()
		}
	}
}

// stale reports whether the current stream brought nothing for staleStream.
func (l *link) stale() bool {
	return time.Since(time.Unix(0, l.heard.Load())) > staleStream
}

// retire removes an idle link; false if something was queued meanwhile.
func (l *link) retire() bool {
	l.t.mu.Lock()
	defer l.t.mu.Unlock()
	if len(l.out) > 0 {
		return false
	}
	delete(l.t.links, l.p)
	return true
}

func (l *link) open() (network.Stream, error) {
	l.t.mu.Lock()
	cut := l.t.cutOff
	l.t.mu.Unlock()
	if cut {
		return nil, errors.New("cut off (test)")
	}
	ctx, cancel := context.WithTimeout(l.t.ctx, openTimeout)
	defer cancel()
	// A relayed ("limited") connection is good enough to play on; without
	// this, NewStream waits for a direct connection instead.
	ctx = network.WithAllowLimitedConn(ctx, "hostfall session")
	return l.t.h.h.NewStream(ctx, l.p, ProtocolID)
}

// writeFrames writes first and whatever else is queued (up to maxBatch) in
// one flush.
func (l *link) writeFrames(s network.Stream, w *bufio.Writer, first []byte) error {
	l.writing.Store(true)
	defer l.writing.Store(false)
	_ = s.SetWriteDeadline(time.Now().Add(writeTimeout))
	n := 0
	f := first
	for {
		if _, err := w.Write(f); err != nil {
			return err
		}
		n += len(f)
		if n >= maxBatch {
			break
		}
		select {
		case f = <-l.out:
			l.taken(f)
			continue
		default:
		}
		break
	}
	l.sent.Add(uint64(n))
	l.flushes.Add(1)
	return w.Flush()
}

// read reads one stream until it ends. A frame that breaks the protocol
// closes the stream with a logged reason and counts a strike.
func (t *transport) read(l *link, s network.Stream) {
	defer t.wg.Done()
	defer func() {
		select {
		case l.dead <- s:
		case <-l.exited:
		}
	}()
	p := l.p
	lim := t.limiter(p)
	ip := remoteIP(s.Conn().RemoteMultiaddr())
	fr := newFrameReader(s, MaxFrameSize)
	violation := func(err error) {
		t.log.Warn("closing session stream", "peer", p, "reason", err)
		s.Reset()
		t.strike(p, err)
	}
	hello := false
	for {
		fr.max = t.frameCap(p)
		kind, body, err := fr.next()
		if err != nil {
			switch {
			case errors.Is(err, ErrFrameTooLarge) && fr.max < MaxFrameSize:
				violation(fmt.Errorf("%w (it is not a member of this game: only the handshake is heard)", err))
			case errors.Is(err, ErrFrameTooLarge), errors.Is(err, ErrFrameEmpty), errors.Is(err, ErrFrameLength):
				violation(err)
			case errors.Is(err, io.ErrUnexpectedEOF):
				violation(fmt.Errorf("stream ended inside a frame: %w", err))
			default:
				t.log.Debug("session stream ended", "peer", p, "err", err)
				t.noteStreamEnd(s, err)
				s.Reset()
			}
			return
		}
		size := len(body) + 1
		l.recv.Add(uint64(size))
		l.frames.Add(1)
		l.heard.Store(time.Now().UnixNano())
		if lim.frames.Wait(t.ctx) != nil || lim.bytes.WaitN(t.ctx, size) != nil ||
			fr.max < MaxFrameSize && lim.stranger.WaitN(t.ctx, size) != nil {
			s.Reset()
			return
		}
		if !hello {
			if kind != frameHello {
				violation(fmt.Errorf("%w: the first frame is a %v, not a hello", ErrBadFrame, kind))
				return
			}
			addrs, err := decodeHello(body)
			if err != nil {
				violation(err)
				return
			}
			hello = true
			t.learn(p, addrs, true)
			continue
		}
		if err := t.frame(l, ip, kind, body); err != nil {
			violation(err)
			return
		}
		if t.ctx.Err() != nil {
			return
		}
	}
}

// frameCap is the largest frame p may send now: members and the hosts
// this peer asked may send snapshots, strangers only knock. It is read
// before each frame, so a joiner welcomed mid-stream may send more at once.
func (t *transport) frameCap(p peer.ID) int {
	if f := t.admit.Load(); f != nil && !(*f)(p) {
		return t.lim.StrangerFrame
	}
	return MaxFrameSize
}

// frame handles one frame after the hello; ip is the sender's address. A
// stranger's session message goes on only if its kind is a knock, and a
// password guess only within its address's budget: the session says which
// kinds those are (MsgKind.IsKnock, IsGuess).
func (t *transport) frame(l *link, ip string, kind frameKind, body []byte) error {
	member := t.member(l.p)
	switch kind {
	case frameSession:
		if !member {
			k, err := session.PeekKind(body)
			if err != nil {
				return err
			}
			if !k.IsKnock() {
				l.t.ignored.Add(1)
				return nil // a stranger's turns, acks or claims: nothing of its business
			}
		}
		m, err := session.UnmarshalMessage(body)
		if err != nil {
			return err
		}
		if m.Kind.IsGuess() && !t.proofAllowed(ip) {
			t.log.Debug("password proof dropped: its address is over its budget", "peer", l.p, "ip", ip)
			return nil // the joiner's challenge expires and it says Hello again; a guesser waits
		}
		m.From = l.sid
		select {
		case t.in <- Inbound{From: l.p, Msg: m}:
		case <-t.ctx.Done():
		}
	case framePeers:
		if !member {
			l.t.ignored.Add(1)
			return nil // only members tell where others are
		}
		infos, err := decodePeers(body)
		if err != nil {
			return err
		}
		for _, ai := range infos {
			t.learn(ai.ID, ai.Addrs, ai.ID == l.p)
		}
	case framePing:
		v, err := decodePing(body)
		if err != nil {
			return err
		}
		l.enqueue(appendFrame(nil, framePong, encodePing(v)))
	case framePong:
		v, err := decodePing(body)
		if err != nil {
			return err
		}
		if now := t.since(); v <= now {
			l.rtt.Store(int64(now - v))
		}
	case frameHello:
		return fmt.Errorf("%w: a second hello", ErrBadFrame)
	default:
		return fmt.Errorf("%w: unknown frame kind %d", ErrBadFrame, byte(kind))
	}
	return nil
}

// LinkStats is one link's counters for the network status.
type LinkStats struct {
	Peer      peer.ID
	Stream    bool // the session stream is up
	RTT       time.Duration
	Sent      uint64 // bytes
	Recv      uint64
	Dropped   uint64 // frames dropped because the queue was full
	Connected bool   // a libp2p connection is open
	// Limited: the session stream runs over a relay circuit with a time or
	// data limit; Renewals counts such circuits replaced before their end.
	Limited  bool
	Renewals uint64
	Circuits uint64 // fresh circuits after a limited one ended (renewed or cut)
}

func (t *transport) stats() []LinkStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]LinkStats, 0, len(t.links))
	for p, l := range t.links {
		out = append(out, t.linkStats(p, l))
	}
	return out
}

// linkStats is p's link l's figures. Called with t.mu held.
func (t *transport) linkStats(p peer.ID, l *link) LinkStats {
	return LinkStats{Peer: p, Stream: l.up.Load(), RTT: time.Duration(l.rtt.Load()),
		Sent: l.sent.Load(), Recv: l.recv.Load(), Dropped: l.dropped.Load(), Connected: t.conns[p] > 0,
		Limited: l.limited.Load(), Renewals: l.renewals.Load(), Circuits: l.circuits.Load()}
}

// statsOf is stats for the peers in ids only.
func (t *transport) statsOf(ids []peer.ID) []LinkStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]LinkStats, 0, len(ids))
	for _, p := range ids {
		if l := t.links[p]; l != nil {
			out = append(out, t.linkStats(p, l))
		}
	}
	return out
}

// cut simulates a network that fails under the connections (tests): every
// session stream is reset and no new one opens, while libp2p's connections
// stay up, so only the session's heartbeats can notice.
func (t *transport) cut() {
	t.h.h.SetStreamHandler(ProtocolID, func(s network.Stream) { s.Reset() })
	t.mu.Lock()
	t.cutOff = true
	t.mu.Unlock()
	for _, c := range t.h.h.Network().Conns() {
		for _, s := range c.GetStreams() {
			if s.Protocol() == ProtocolID {
				s.Reset()
			}
		}
	}
}

// linkUp reports whether the session stream to p is up.
func (t *transport) linkUp(p peer.ID) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	l := t.links[p]
	return l != nil && l.up.Load()
}

// remoteIP is the IP address of a connection's far end ("" when it has none).
func remoteIP(a ma.Multiaddr) string {
	ip, err := manet.ToIP(a)
	if err != nil {
		return ""
	}
	return ip.String()
}
