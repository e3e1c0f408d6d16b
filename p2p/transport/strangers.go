package transport

import (
	"maps"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Game peers and strangers. Peer IDs cost nothing to make, so a host's
// connections are a budget: the members of its game (the peers the loop
// admits, see Transport.Admit) are protected in go-libp2p's connection
// manager, which then never trims them however many others connect, and
// inbound connections from everyone else are bounded in all and per remote
// address. A stranger over either bound closes the oldest stranger's
// connection (of that address, for the per-address bound), so a flood of
// identities costs its sender its own earlier connections and never a
// member's, while a joiner who just connected is the newest and stays. A
// stranger that is still no member after StrangerLinger is closed too: it
// only holds a connection open.

// protectTag is the connection manager's protection tag of game peers.
const protectTag = "hostfall-game"

// stranger is one inbound connection from a peer the loop has not admitted.
type stranger struct {
	c  network.Conn
	p  peer.ID
	ip string // "" for a relayed connection (its address is the relay's)
	at time.Time
}

// protect makes the connection manager keep the connections of ids and
// forget the protection of peers no longer among them.
func (t *transport) protect(ids []peer.ID) {
	cm := t.h.h.ConnManager()
	t.mu.Lock()
	next := make(map[peer.ID]bool, len(ids))
	for _, p := range ids {
		if p == t.self {
			continue
		}
		next[p] = true
		if !t.protected[p] {
			cm.Protect(p, protectTag)
		}
	}
	for p := range t.protected {
		if !next[p] {
			cm.Unprotect(p, protectTag)
		}
	}
	t.protected = next
	t.relay.wake()
	t.mu.Unlock()
	t.noteMemberSources(ids)
}

// noteMemberSources tells the accept budget where the members of ids are
// connected from: those addresses keep a member's budget for a while after
// (accept.go). The protection, each new connection of a member and the
// stranger sweep refresh it.
func (t *transport) noteMemberSources(ids []peer.ID) {
	nw := t.h.h.Network()
	for _, p := range ids {
		for _, c := range nw.ConnsToPeer(p) {
			t.h.accept.member(c.RemoteMultiaddr())
		}
	}
}

// member reports whether p may stay connected without counting as a
// stranger: everyone until the loop calls Admit, then whom it admits.
func (t *transport) member(p peer.ID) bool {
	f := t.admit.Load()
	return f == nil || (*f)(p)
}

// noteStranger counts c if it is an inbound connection from a stranger,
// and closes the oldest strangers' connections that put the count over
// the limits.
func (t *transport) noteStranger(c network.Conn) {
	p := c.RemotePeer()
	if c.Stat().Direction != network.DirInbound || t.member(p) {
		return
	}
	s := stranger{c: c, p: p, at: time.Now()}
	if !IsCircuit(c.RemoteMultiaddr()) {
		s.ip = remoteIP(c.RemoteMultiaddr())
	}
	t.mu.Lock()
	if t.ctx.Err() != nil { // closed: nothing may add to wg any more (close)
		t.mu.Unlock()
		return
	}
	t.pruneStrangers()
	t.strangers = append(t.strangers, s)
	var evict []stranger
	if s.ip != "" {
		evict = t.overflow(func(o stranger) bool { return o.ip == s.ip }, t.lim.StrangersPerIP)
	}
	evict = append(evict, t.overflow(func(stranger) bool { return true }, t.lim.Strangers)...)
	t.wg.Add(len(evict)) // under mu, so close waits for these
	t.mu.Unlock()
	for _, o := range evict {
		t.log.Debug("closing a stranger's connection: too many strangers", "peer", o.p, "ip", o.ip)
		// Not on this goroutine: libp2p's notifier runs it, and closing a
		// connection notifies again.
		go func() {
			defer t.wg.Done()
			_ = o.c.Close()
		}()
	}
}

// overflow removes and returns the oldest strangers matching of while more
// than limit match. Called with t.mu held.
func (t *transport) overflow(of func(stranger) bool, limit int) []stranger {
	var out []stranger
	for {
		n := 0
		for _, o := range t.strangers {
			if of(o) {
				n++
			}
		}
		if n <= limit {
			return out
		}
		i := slices.IndexFunc(t.strangers, of) // the list is in order of arrival
		out = append(out, t.strangers[i])
		t.strangers = slices.Delete(t.strangers, i, i+1)
	}
}

// pruneStrangers forgets strangers that became members, and peers this
// one relies on: go-libp2p's AutoRelay protects the relay it holds a
// reservation with, whose connection may be one the relay opened (a DHT
// server that queried this peer). Called with t.mu held; Admit's function
// must not take it.
func (t *transport) pruneStrangers() {
	cm := t.h.h.ConnManager()
	t.strangers = slices.DeleteFunc(t.strangers, func(o stranger) bool { return t.member(o.p) || cm.IsProtected(o.p, "") })
}

// forgetStranger drops c from the strangers when it closes.
func (t *transport) forgetStranger(c network.Conn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.strangers = slices.DeleteFunc(t.strangers, func(o stranger) bool { return o.c == c })
}

// sweepStrangers closes, every strangerSweep, the connections of
// strangers that stayed strangers for StrangerLinger.
func (t *transport) sweepStrangers() {
	defer t.wg.Done()
	tk := time.NewTicker(strangerSweep)
	defer tk.Stop()
	for {
		select {
		case <-t.ctx.Done():
			return
		case now := <-tk.C:
			t.sweep(now)
		}
	}
}

// sweep refreshes the members' sources, closes the connections of
// strangers that stayed strangers for StrangerLinger, and forgets the
// records of peers that went.
func (t *transport) sweep(now time.Time) {
	t.mu.Lock()
	members := slices.Collect(maps.Keys(t.protected))
	t.mu.Unlock()
	t.noteMemberSources(members)
	t.mu.Lock()
	t.pruneStrangers()
	var old []stranger
	t.strangers = slices.DeleteFunc(t.strangers, func(o stranger) bool {
		if now.Sub(o.at) < t.lim.StrangerLinger {
			return false
		}
		old = append(old, o)
		return true
	})
	t.forgetGone(now)
	t.mu.Unlock()
	for _, o := range old {
		t.log.Debug("closing a stranger's connection: no member after a while", "peer", o.p, "held", now.Sub(o.at))
		_ = o.c.Close()
	}
}

// forgetGone drops what is kept of peers that are neither connected nor
// members: how their connections ended (and what libp2p's peerstore keeps
// of them), their rate limiters, the addresses they gave, strikes out of
// the window, old dials. Identities
// cost nothing, and each fresh one left these behind for good. A member's
// stay as long as it is one: its end tells the session whether its process
// is gone. Called with t.mu held.
func (t *transport) forgetGone(now time.Time) {
	gone := func(p peer.ID) bool { return t.conns[p] == 0 && !t.member(p) }
	ps := t.h.h.Peerstore()
	for p := range t.lastDown {
		if gone(p) {
			delete(t.lastDown, p)
			ps.RemovePeer(p) // its key, protocols and agent (identify's); addresses expire
		}
	}
	maps.DeleteFunc(t.closedSent, func(p peer.ID, _ bool) bool { return gone(p) })
	maps.DeleteFunc(t.closedConns, func(p peer.ID, _ map[network.Conn]bool) bool { return gone(p) })
	maps.DeleteFunc(t.limiters, func(p peer.ID, _ *peerLimiter) bool { return gone(p) })
	maps.DeleteFunc(t.dir, func(p peer.ID, _ []ma.Multiaddr) bool { return gone(p) })
	for p, at := range t.strikes.at {
		if len(at) == 0 || now.Sub(at[len(at)-1]) >= t.strikes.window {
			delete(t.strikes.at, p)
		}
	}
	for p, at := range t.dialing {
		if now.Sub(at) >= dialEvery {
			delete(t.dialing, p)
		}
	}
}

// strangerSweep is how often lingering strangers are looked for.
const strangerSweep = 5 * time.Second

// strangerCount is how many inbound stranger connections are open (tests).
func (t *transport) strangerCount() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pruneStrangers()
	return len(t.strangers)
}
