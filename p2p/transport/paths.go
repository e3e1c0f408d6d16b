package transport

import (
	"sync"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
)

// PathWatch notes which peers are reached only through a relay and which
// went direct after that (DCUtR hole punching, or a dial that worked).
type PathWatch struct {
	mu     sync.Mutex
	paths  map[peer.ID]PathKind
	onPath func(peer.ID, PathKind)
}

// OnPath sets a function called (on a libp2p goroutine; it must return
// quickly) when another peer becomes reachable relayed or directly.
func (w *PathWatch) OnPath(fn func(peer.ID, PathKind)) {
	w.mu.Lock()
	w.onPath = fn
	w.mu.Unlock()
}

// Paths returns how each peer (relays aside) was last reached.
func (w *PathWatch) Paths() map[peer.ID]PathKind {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[peer.ID]PathKind, len(w.paths))
	for p, k := range w.paths {
		out[p] = k
	}
	return out
}

// Connected notes the path to a peer: a relayed connection, or a direct
// one to a peer that was relayed. A connection to relay is not a path.
func (w *PathWatch) Connected(c network.Conn, relay peer.ID) {
	p := c.RemotePeer()
	if p == relay {
		return
	}
	kind := PathRelayed
	if !IsCircuit(c.RemoteMultiaddr()) {
		kind = PathDirect
	}
	w.mu.Lock()
	old := w.paths[p]
	if (kind == PathDirect && old != PathRelayed) || old == PathDirect {
		w.mu.Unlock()
		return // a plain direct connection, or nothing new
	}
	if w.paths == nil {
		w.paths = map[peer.ID]PathKind{}
	}
	w.paths[p] = kind
	fn := w.onPath
	w.mu.Unlock()
	if fn != nil && old != kind {
		fn(p, kind)
	}
}

// Unlimited reports whether this peer holds a connection to p that no
// relay limits: a direct one, or a circuit through a relay without limits
// (the players' own, or a player's of the game: playerrelay.go).
func (h *Host) Unlimited(p peer.ID) bool {
	for _, c := range h.h.Network().ConnsToPeer(p) {
		if !c.Stat().Limited {
			return true
		}
	}
	return false
}

// CarriedBy is the relay whose circuit without limits carries this peer's
// connection to p, when it holds no direct one: a player of the game that
// relays for it (playerrelay.go) or a relay of the players' own; "" when
// p is reached directly, over a limited circuit only, or not at all.
func (h *Host) CarriedBy(p peer.ID) peer.ID {
	var via peer.ID
	for _, c := range h.h.Network().ConnsToPeer(p) {
		switch a := c.RemoteMultiaddr(); {
		case !IsCircuit(a):
			return ""
		case !c.Stat().Limited && via == "":
			via = relayOf(a)
		}
	}
	return via
}
