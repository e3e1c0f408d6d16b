package simnet

import (
	"slices"

	"hostfall/session"
)

// The fault verbs. Connection-level faults (Cut, Isolate, Crash, Reset,
// Heal, Restart) are reported to the nodes the way a transport would: a
// local MsgDisconnected / MsgConnected one tick later. A Crash or Reset is
// reported with Closed set (the remote end closed or reset the connection:
// a TCP RST or FIN, a QUIC close); a Cut or Isolate without it (a transport
// that gave up on a silent link). Hang, Drop, Delay and Slow are silent:
// only heartbeats can notice them.

func (n *Net) setCut(a, b session.PeerID, cut bool) { n.cutLink(a, b, cut, false) }

// Reset closes the connection between a and b while both processes live
// (a middlebox's RST, a transport that hung up): each is told the other
// closed it, and they stay apart until Heal, which reconnects them.
func (n *Net) Reset(a, b session.PeerID) { n.cutLink(a, b, true, true) }

func (n *Net) cutLink(a, b session.PeerID, cut, closed bool) {
	for _, k := range []linkKey{{a, b}, {b, a}} {
		l := n.link(k.a, k.b)
		if l.cut == cut {
			continue
		}
		l.cut = cut
		if !cut {
			for _, e := range l.held {
				e.at = n.Now + 1
				n.queue = append(n.queue, e)
			}
			l.held, l.queued = nil, false
		}
		kind := session.MsgDisconnected
		if !cut {
			kind = session.MsgConnected
		}
		if pa, pb := n.Peer(k.a), n.Peer(k.b); pa != nil && pb != nil && pa.Up && pb.Up {
			if closed {
				n.reportClosed(k.a, k.b)
			} else {
				n.report(k.a, k.b, kind)
			}
		}
	}
	if cut {
		n.dropInFlight(func(e envelope) bool {
			return e.data != nil && (e.from == a && e.to == b || e.from == b && e.to == a)
		})
	}
}

func (n *Net) dropInFlight(f func(envelope) bool) {
	keep := n.queue[:0]
	for _, e := range n.queue {
		if !f(e) {
			keep = append(keep, e)
		}
	}
	n.queue = keep
}

// Cut breaks the connection between a and b in both directions.
func (n *Net) Cut(a, b session.PeerID) { n.setCut(a, b, true) }

// Queue cuts a and b apart like Cut, but what either sends the other
// meanwhile waits in its sender's queue and is delivered, late and in one
// burst, when the link is back: a transport whose send queue outlived the
// connection (a stale claim, old turns).
func (n *Net) Queue(a, b session.PeerID) {
	n.setCut(a, b, true)
	n.link(a, b).queued = true
	n.link(b, a).queued = true
}

// Isolate cuts id off from every other peer.
func (n *Net) Isolate(id session.PeerID) {
	for _, p := range n.Peers {
		if p.ID != id {
			n.setCut(id, p.ID, true)
		}
	}
}

// Partition cuts every link between the peers in side and the rest.
func (n *Net) Partition(side []session.PeerID) {
	for _, p := range n.Peers {
		if slices.Contains(side, p.ID) {
			continue
		}
		for _, q := range side {
			n.setCut(p.ID, q, true)
		}
	}
}

// Pause stops id's process (SIGSTOP, a laptop lid) for ticks (until Resume
// when ticks ≤ 0): it does nothing and reads nothing, its connections stay
// open and what is sent to it waits.
func (n *Net) Pause(id session.PeerID, ticks int) {
	if p := n.Peer(id); p != nil && p.Up {
		p.Paused = true
		p.resumeAt = 0
		if ticks > 0 {
			p.resumeAt = n.Now + ticks
		}
	}
}

// Resume continues a paused process where it stopped: it reads what
// waited for it at once, in the order it arrived.
func (n *Net) Resume(id session.PeerID) {
	p := n.Peer(id)
	if p == nil || !p.Paused {
		return
	}
	p.Paused = false
	for _, e := range p.held {
		e.at = n.Now
		n.queue = append(n.queue, e)
	}
	p.held = nil
}

// Connected reports whether a and b are both running and the link between
// them is not cut: a fork between them must heal.
func (n *Net) Connected(a, b *Peer) bool {
	if !a.Up || !b.Up || a.Paused || b.Paused {
		return false
	}
	return !n.link(a.ID, b.ID).cut && !n.link(b.ID, a.ID).cut
}

// Heal restores every link and removes drop, delay and slowness faults.
func (n *Net) Heal() {
	for k, l := range n.links {
		if l.cut {
			n.setCut(k.a, k.b, false)
		}
		l.dropPerMil = 0
		l.stallPerMil = 0
		l.minLat, l.maxLat = n.MinLat, n.MaxLat
	}
	for _, p := range n.Peers {
		p.Slow = 0
	}
}

// Drop loses each message from→to with probability perMil/1000.
func (n *Net) Drop(from, to session.PeerID, perMil int) { n.link(from, to).dropPerMil = perMil }

// Lossy makes from→to a stream over a lossy link: each message is lost with
// probability perMil/1000 and sent again rto ticks later, and the messages
// behind it wait (TCP's or QUIC's retransmission, as netem loss causes).
func (n *Net) Lossy(from, to session.PeerID, perMil, rto int) {
	l := n.link(from, to)
	l.stallPerMil, l.stallTicks = perMil, rto
}

// Delay sets the latency of from→to to min..max ticks (jitter = max-min).
func (n *Net) Delay(from, to session.PeerID, minT, maxT int) {
	l := n.link(from, to)
	l.minLat, l.maxLat = minT, max(minT, maxT)
}

// Slow adds extra ticks of latency to everything id sends or receives.
func (n *Net) Slow(id session.PeerID, extra int) {
	if p := n.Peer(id); p != nil {
		p.Slow = extra
	}
}

// Crash kills id's process: its connections reset (the others are told) and
// its messages in flight are lost.
func (n *Net) Crash(id session.PeerID) { n.crash(id, true) }

// Hang stops id without closing its connections (power cut, frozen process):
// the others only notice by missing heartbeats.
func (n *Net) Hang(id session.PeerID) { n.crash(id, false) }

func (n *Net) crash(id session.PeerID, report bool) {
	p := n.Peer(id)
	if p == nil || !p.Up {
		return
	}
	p.Up = false
	n.dropInFlight(func(e envelope) bool { return e.from == id || e.to == id })
	for k, l := range n.links {
		if k.a == id || k.b == id {
			l.held = nil // a crashed process's queues die with it
		}
	}
	if report {
		for _, q := range n.Peers {
			if q.ID != id {
				n.reportClosed(q.ID, id) // the kernel closes a dead process's sockets
			}
		}
	}
	n.Checker.crashed(p)
}

// Exit ends id's process after what it sent: its messages in flight still
// arrive (the kernel sends what was written before the FIN), but each other
// peer is told of the close one tick later, which may be before them, as a
// transport's close notice can overtake the last frames still being read.
func (n *Net) Exit(id session.PeerID) {
	p := n.Peer(id)
	if p == nil || !p.Up {
		return
	}
	if p.Node.HasReady() {
		n.handle(p) // its last words go out first
	}
	p.Up = false
	for _, q := range n.Peers {
		if q.ID != id {
			n.reportClosed(q.ID, id)
		}
	}
	n.Checker.crashed(p)
}

// Restart boots a fresh node for id (all state lost) and has it join host.
func (n *Net) Restart(id session.PeerID, host session.PeerID) {
	p := n.Peer(id)
	if p == nil || p.Up {
		return
	}
	for k, l := range n.links {
		if k.a == id || k.b == id {
			l.cut = false
		}
	}
	n.boot(p, string(id))
	for _, q := range n.Peers {
		if q.ID != id && q.Up {
			n.report(q.ID, id, session.MsgConnected)
		}
	}
	_ = p.Node.Join(host)
}

// Desync corrupts id's game state, as a simulation bug would.
func (n *Net) Desync(id session.PeerID) {
	if p := n.Peer(id); p != nil && p.Up {
		p.State ^= mix(0x5eed_bad_c0ffee, uint64(n.Now)) // distinct per injection: two never cancel
		p.Tainted = true
		n.Checker.desynced(n, p)
	}
}

// Inject delivers a message that peer from makes up, on the next tick: what
// a hostile member (or one with a bug) can send. It is encoded and decoded
// as the real network would; a node refusing it with an error is not a
// violation, as it would be for an honest peer's message.
func (n *Net) Inject(from, to session.PeerID, m session.Message) {
	m.To = to
	data, err := m.Marshal()
	if err != nil {
		n.Checker.violate(n.Now, "encode injected %v from %s: %v", m.Kind, from, err)
		return
	}
	n.seq++
	n.queue = append(n.queue, envelope{at: n.Now + 1, seq: n.seq, from: from, to: to, data: data, forged: true})
}

// Renew replaces the relay circuit between a and b as p2p/transport/circuit.go does:
// the transport tells both nodes (MsgRenewing, allow ticks), what is in
// flight is lost and what either sends waits in its queue until Renewed. No
// connection loss is reported: the transport holds it back.
func (n *Net) Renew(a, b session.PeerID, allow int) {
	for _, k := range []linkKey{{a, b}, {b, a}} {
		l := n.link(k.a, k.b)
		l.cut, l.queued = true, true
		if p := n.Peer(k.b); p != nil && p.Up {
			n.seq++
			n.queue = append(n.queue, envelope{at: n.Now + 1, seq: n.seq, from: k.a, to: k.b,
				local: session.MsgRenewing, count: uint32(allow)})
		}
	}
	n.dropInFlight(func(e envelope) bool {
		return e.data != nil && (e.from == a && e.to == b || e.from == b && e.to == a)
	})
}

// Renewed ends a Renew: the fresh circuit is up and the queues go out.
func (n *Net) Renewed(a, b session.PeerID) {
	for _, k := range []linkKey{{a, b}, {b, a}} {
		l := n.link(k.a, k.b)
		for _, e := range l.held {
			e.at = n.Now + 1
			n.queue = append(n.queue, e)
		}
		l.cut, l.queued, l.held = false, false, nil
	}
}
