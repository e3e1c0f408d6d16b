package transport

import (
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
)

// Limited relay circuits. A public relay (go-libp2p's relay service with
// its defaults, which AutoRelay finds in internet play) ends each relayed
// connection after 2 minutes or 128 KiB in either direction. Those relays
// are volunteers' (kubo nodes and the like), and the limits say what they
// are for: to connect two peers so that they can punch a hole, not to carry
// their traffic. So Hostfall uses a limited circuit only to reach the other
// side and to punch, for PunchWindow from the first limited connection to a
// peer (see punchWindows); after that it neither renews nor opens one to
// that peer, the players are told that no direct path was found and what
// works (a relay of their own, --relay), and the circuit in use lasts as
// long as its relay allows. Circuits without limits (our own `hostfall
// relay`) carry games for as long as they last. Within the window:
//
//   - Renewal. The relay states the limit with the circuit (the connection's
//     Stat().Extra), so the link knows when it will be cut. Before that, at
//     renewAt of the time or the bytes, it closes the circuit and opens a
//     stream again, which dials a fresh circuit (through any relay of the
//     peer's addresses), and each fresh circuit is one more hole punching
//     attempt. go-libp2p keeps one connection per peer (a dial returns the
//     open one), so the new circuit can only follow the old, not overlap
//     it: the gap is one circuit set-up, a few round trips.
//   - A grace period. When the last connection to a peer was a limited one
//     (renewed, or cut by the relay before that), the transport holds the
//     "disconnected" report back for limitedGrace, and a new connection
//     within it is no change at all: the session never sees the gap as a
//     lost player or host. It tells the session of the planned silence
//     (Transport.Renewing; session.MsgRenewing), so that neither the host's
//     "waiting for" nor a follower's claim comes of it. A peer that really
//     went away is still noticed by the session's heartbeats.
//
// Both sides renew: the side that dialled the circuit first (at renewAt),
// since it knows a circuit address of the other that works (a peer without
// a reservation of its own cannot be dialled at all), the other later
// (renewLate). If both dial, the usual tie-break keeps one stream and the
// next renewal closes the spare circuit too.
const (
	renewAt      = 0.8 // of a circuit's time or data limit
	renewLate    = 0.9 // the share of the side that accepted the circuit, in case the dialler does not renew
	limitedGrace = 2 * time.Second
	// Bytes the relay carries beside our frames: each flush is one yamux
	// frame (12 bytes) in one Noise message (18), with yamux's window
	// updates and pings between (36 a flush matched the relay's count on
	// loopback within 4 %, over it), and a new connection's handshake and
	// identify exchange take a few KiB.
	flushOverhead = 36
	setupOverhead = 4 << 10
	// renewCheck is how often the link looks at a limited circuit's bytes.
	renewCheck = 250 * time.Millisecond
)

// PunchWindow is how long after the first limited (public relay)
// connection to a peer Hostfall keeps trying to go direct over limited
// circuits: DCUtR makes its attempts within seconds of each relayed
// connection (the first may fail while this peer's public address is still
// unknown, and each fresh circuit brings another), and 30 s leaves room
// for a few. With a public relay's 2 minute limit no renewal falls within
// it: the circuit that connected the players is the only one.
const PunchWindow = 30 * time.Second

// maxWindows bounds the peers punchWindows remembers (strangers can open
// circuits to us): beyond it, windows that closed 10 minutes ago are
// forgotten, and a peer not remembered has an open window.
const maxWindows = 1024

// punchWindows notes when each peer was first reached over a limited
// circuit, and tells whether limited circuits to it may still be used.
type punchWindows struct {
	d     time.Duration // the window
	mu    sync.Mutex
	first map[peer.ID]time.Time
}

// limited notes a limited connection to p.
func (w *punchWindows) limited(p peer.ID) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.first[p]; ok {
		return
	}
	if w.first == nil {
		w.first = map[peer.ID]time.Time{}
	}
	if len(w.first) >= maxWindows {
		for q, at := range w.first {
			if time.Since(at) > w.d+10*time.Minute {
				delete(w.first, q)
			}
		}
	}
	if len(w.first) < maxWindows {
		w.first[p] = time.Now()
	}
}

// open reports whether limited circuits to p may be used: none was seen
// yet, or the first is less than the window old.
func (w *punchWindows) open(p peer.ID) bool { return w.openFor(p, 0) }

// openFor reports whether the window to p stays open for d more: a renewal
// starts only if its fresh circuit can come before the window shuts, or
// the gater would refuse it and the planned silence would end in a loss.
func (w *punchWindows) openFor(p peer.ID, d time.Duration) bool {
	if w == nil {
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	at, ok := w.first[p]
	return !ok || time.Since(at)+d < w.d
}

// renewNotes are the peers whose link went quiet for a circuit renewal
// and the session was not told yet (Transport.Renewing).
type renewNotes struct {
	mu    sync.Mutex
	peers []peer.ID
}

func (r *renewNotes) add(p peer.ID) {
	r.mu.Lock()
	r.peers = append(r.peers, p)
	r.mu.Unlock()
}

func (r *renewNotes) take() []peer.ID {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.peers
	r.peers = nil
	return out
}

// circuitLimit is what the relay allows one relayed connection; zero
// fields are unlimited.
type circuitLimit struct {
	opened time.Time
	dur    time.Duration
	data   uint64
}

// limitOf returns c's limit and whether it has one.
func limitOf(c network.Conn) (circuitLimit, bool) {
	st := c.Stat()
	if !st.Limited {
		return circuitLimit{}, false
	}
	cl := circuitLimit{opened: st.Opened}
	if d, ok := st.Extra[client.StatLimitDuration].(time.Duration); ok {
		cl.dur = d
	}
	if n, ok := st.Extra[client.StatLimitData].(uint64); ok {
		cl.data = n
	}
	return cl, cl.dur > 0 || cl.data > 0
}

// circuitUse is what a limited circuit has carried, as the link counts it.
type circuitUse struct {
	sent, recv       uint64 // frame bytes on the session stream
	flushes, frames  uint64 // writes out, frames in
	sent0, recv0     uint64 // the link's counters when the stream began
	flushes0, frame0 uint64
}

// due reports whether a circuit with limit cl, used as u, should be renewed
// now, at share of its limits.
func (cl circuitLimit) due(now time.Time, u circuitUse, share float64) bool {
	if cl.dur > 0 && now.Sub(cl.opened) >= time.Duration(share*float64(cl.dur)) {
		return true
	}
	if cl.data == 0 {
		return false
	}
	out, in := cl.estimate(u)
	return float64(max(out, in)) >= share*float64(cl.data)
}

// estimate is what the relay has carried of a circuit used as u, each
// way, by the link's count.
func (circuitLimit) estimate(u circuitUse) (out, in uint64) {
	out = u.sent - u.sent0 + flushOverhead*(u.flushes-u.flushes0) + setupOverhead
	in = u.recv - u.recv0 + flushOverhead*(u.frames-u.frame0) + setupOverhead
	return out, in
}

// holdDown keeps p's loss from the session for limitedGrace after its last
// connection, a limited one, ended: a fresh circuit follows (t.mu held).
func (t *transport) holdDown(p peer.ID) {
	if t.held[p] != nil {
		return
	}
	t.renewing.add(p)
	t.signal()
	t.held[p] = time.AfterFunc(limitedGrace, func() {
		t.mu.Lock()
		delete(t.held, p)
		if t.conns[p] == 0 {
			t.changed[p] = true
		}
		t.mu.Unlock()
		t.signal()
	})
}

// unhold ends p's grace period: a connection is back (t.mu held).
func (t *transport) unhold(p peer.ID) {
	if tm := t.held[p]; tm != nil {
		tm.Stop()
		delete(t.held, p)
	}
}

// renewCircuit closes every limited connection to l's peer (the current
// stream's and spare ones) so that the next stream dials a fresh circuit.
func (l *link) renewCircuit() {
	t := l.t
	t.mu.Lock()
	t.holdDown(l.p)
	t.mu.Unlock()
	for _, c := range t.h.h.Network().ConnsToPeer(l.p) {
		if c.Stat().Limited {
			_ = c.Close()
		}
	}
	l.renewals.Add(1)
	t.log.Debug("renewing the relay circuit before its limit", "peer", l.p)
}

// undelayRelays dials ranked's relay addresses at once.
func undelayRelays(ranked []network.AddrDelay) {
	for i := range ranked {
		if IsCircuit(ranked[i].Addr) {
			ranked[i].Delay = 0
		}
	}
}

// renewShare is the share of the limits of circuit c at which this side
// renews it.
func renewShare(c network.Conn) float64 {
	if c.Stat().Direction == network.DirOutbound {
		return renewAt
	}
	return renewLate
}

// use returns the link's counters now, with the baselines of base.
func (l *link) use(base circuitUse) circuitUse {
	return circuitUse{sent: l.sent.Load(), recv: l.recv.Load(), flushes: l.flushes.Load(), frames: l.frames.Load(),
		sent0: base.sent, recv0: base.recv, flushes0: base.flushes, frame0: base.frames}
}

// CircuitRenewal tells that the session stream to Peer is back on a fresh
// relay circuit after a limited one ended.
type CircuitRenewal struct {
	Peer    peer.ID
	Planned bool          // renewed before the limit; false: the relay (or the network) cut it first
	Gap     time.Duration // from the old stream's end to the new one
	Count   uint64        // fresh circuits of this link so far
}

// circuitBack counts a fresh circuit and reports it.
func (l *link) circuitBack(gap time.Duration, planned bool) {
	n := l.circuits.Add(1)
	l.t.log.Debug("session stream on a fresh relay circuit", "peer", l.p, "planned", planned, "gap", gap, "count", n)
	if fn := l.t.onCircuit.Load(); fn != nil && *fn != nil {
		(*fn)(CircuitRenewal{Peer: l.p, Planned: planned, Gap: gap, Count: n})
	}
}
