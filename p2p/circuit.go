package p2p

import (
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
)

// Limited relay circuits. A public relay (go-libp2p's relay service with
// its defaults, which AutoRelay finds in internet play) ends each relayed
// connection after 2 minutes or 128 KiB in either direction; when hole
// punching fails, the game must go on over a fresh circuit. Two things
// make the circuit's end invisible to the session:
//
//   - Renewal. The relay states the limit with the circuit (the connection's
//     Stat().Extra), so the link knows when it will be cut. Before that, at
//     renewAt of the time or the bytes, it closes the circuit and opens a
//     stream again, which dials a fresh circuit (through any relay of the
//     peer's addresses). go-libp2p keeps one connection per peer (a dial
//     returns the open one), so the new circuit can only follow the old,
//     not overlap it: the gap is one circuit set-up, a few round trips.
//   - A grace period. When the last connection to a peer was a limited one
//     (renewed, or cut by the relay before that), the transport holds the
//     "disconnected" report back for limitedGrace, and a new connection
//     within it is no change at all: the session never sees the gap as a
//     lost player or host. A peer that really went away is still noticed
//     by the session's heartbeats.
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
		if isCircuit(ranked[i].Addr) {
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
