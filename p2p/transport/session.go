package transport

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/session"
)

// Transport carries one peer's session messages to the other members and
// back, one stream per peer pair, and tells which peers it holds a
// connection to. It moves bytes and reports connectivity; what the messages
// mean is the session's (the loop above p2p runs the node and the game).
//
// Send never blocks. Inbound and Changed are read by one loop goroutine;
// the other methods are safe from any goroutine.
type Transport struct {
	t      *transport
	dirSig string // the last address directory shared (ShareDirectory)
}

// NewTransport starts the session protocol on h: it answers and opens
// session streams until Close.
func NewTransport(h *Host, lim Limits, log *slog.Logger) *Transport {
	if log == nil {
		log = h.log
	}
	return &Transport{t: newTransport(h, lim, log)}
}

// Admit tells the transport which peers may send large frames (turns,
// snapshots, command batches): admitted(p) is called from reader goroutines
// before each frame, so it must be fast and safe for concurrent use. Other
// peers may send frames up to Limits.StrangerFrame, enough to join; a
// larger one closes their stream with a logged reason and counts a strike.
// Until Admit is called everyone is admitted.
func (t *Transport) Admit(admitted func(peer.ID) bool) { t.t.admit.Store(&admitted) }

// Protect tells the transport the peers of this peer's game (players,
// spectators, the host it joins): go-libp2p's connection manager never
// trims their connections, and they do not count as strangers. Peers of
// an earlier call that are not in ids lose that protection. Call it from
// one goroutine.
func (t *Transport) Protect(ids []peer.ID) { t.t.protect(ids) }

// Strangers is how many inbound connections of peers that are no members
// are open.
func (t *Transport) Strangers() int { return t.t.strangerCount() }

// Inbound delivers decoded session messages with their sender. Readers
// wait when it is full, so a slow loop slows the senders, not the memory.
func (t *Transport) Inbound() <-chan Inbound { return t.t.in }

// Changed signals that ConnChanges has something new.
func (t *Transport) Changed() <-chan struct{} { return t.t.connSig }

// ConnChanges returns the connection changes not yet returned; a
// connection that went down and up again in between is no change.
func (t *Transport) ConnChanges() []ConnChange { return t.t.connChanges() }

// Send queues m for p; it never blocks (a full queue drops, and counts).
func (t *Transport) Send(p peer.ID, m *session.Message) { t.t.send(p, m) }

// Introduce tells p where the peers ids are reachable, ahead of a message
// that sends p to them (which messages do is the session's to know): a
// process restarted mid-game knows only the peer it dialled.
func (t *Transport) Introduce(p peer.ID, ids []peer.ID) {
	ids = slices.DeleteFunc(slices.Clone(ids), func(id peer.ID) bool { return id == p })
	if len(ids) > 0 {
		t.t.sendFrame(p, appendFrame(nil, framePeers, encodePeers(t.t.directory(ids))))
	}
}

// Connect dials a peer whose addresses are given (a host to join).
func (t *Transport) Connect(ctx context.Context, info peer.AddrInfo) error {
	t.t.learn(info.ID, info.Addrs, true)
	if err := t.t.h.h.Connect(ctx, info); err != nil {
		return fmt.Errorf("cannot reach the host %s: %w", info.ID, err)
	}
	return nil
}

// Mesh dials, in the background, each member this peer holds no
// connection to (at most once a second each): the next host is then
// already connected to everyone when a host fails.
func (t *Transport) Mesh(members []peer.ID) {
	for _, id := range members {
		t.t.ensureConnected(id)
	}
}

// ShareDirectory sends the members the addresses this peer knows of them
// all (the host does, so followers can mesh), when they changed since the
// last time. Call it from one goroutine.
func (t *Transport) ShareDirectory(members []peer.ID) {
	dir := t.t.directory(members)
	sig := fmt.Sprint(dir)
	if sig == t.dirSig {
		return
	}
	t.dirSig = sig
	frame := appendFrame(nil, framePeers, encodePeers(dir))
	for _, id := range members {
		t.t.sendFrame(id, frame)
	}
}

// Renewing returns the peers whose link went quiet for a relay circuit
// renewal since the last call (Changed signals it too): tell the session
// (session.MsgRenewing) to allow each RenewalSilence.
func (t *Transport) Renewing() []peer.ID { return t.t.renewing.take() }

// RenewalSilence is how long a renewal may keep a link quiet: the
// transport holds the loss back that long (circuit.go).
const RenewalSilence = limitedGrace

// OnCircuit sets a function called (on a link's goroutine; it must return
// quickly) each time a session stream is back on a fresh relay circuit
// after a limited one ended.
func (t *Transport) OnCircuit(fn func(CircuitRenewal)) { t.t.onCircuit.Store(&fn) }

// LeaveLimitsToRelay makes this transport keep a limited relay circuit
// until the relay ends it, for measurements of how long one lasts.
func (t *Transport) LeaveLimitsToRelay() {
	t.t.noRenew.Store(true)
}

// IsConnected reports whether this peer holds a connection to p.
func (t *Transport) IsConnected(p peer.ID) bool { return t.t.isConnected(p) }

// Links returns every link's counters, ordered by peer.
func (t *Transport) Links() []LinkStats {
	out := t.t.stats()
	slices.SortFunc(out, func(a, b LinkStats) int {
		switch {
		case a.Peer < b.Peer:
			return -1
		case a.Peer > b.Peer:
			return 1
		}
		return 0
	})
	return out
}

// LinksOf is what Links says of the peers in ids that have a link, in the
// order of ids: the loop lists its members' on each pass and everyone's
// once a second.
func (t *Transport) LinksOf(ids []peer.ID) []LinkStats { return t.t.statsOf(ids) }

// Close stops every link after giving the queues up to linger to drain.
func (t *Transport) Close(linger time.Duration) { t.t.close(linger) }

// Cut makes the network fail under the connections, for tests of what the
// session notices: every session stream is reset and no new one opens,
// while libp2p's connections stay up, so only the heartbeats can tell.
func (t *Transport) Cut() { t.t.cut() }
