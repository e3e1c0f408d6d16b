package transport

import (
	"errors"
	"io"
	"maps"
	"slices"
	"syscall"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Two things a peer's session must know about the end of a connection,
// which libp2p's notifications do not say:
//
//   - Whether the remote end closed or reset it (a TCP FIN or RST, the
//     kernel's doing when a process dies; a close sent by the remote) or
//     it went silent until a timeout (a link cut, a stopped process). A
//     closed connection's peer is gone and is not waited for
//     (session.Message.Closed).
//   - When this peer leaves, that its last words (the Bye) reached the
//     other end. Resetting a stream discards what its reader has not read
//     yet, so the transport ends each stream with a FIN after the last
//     frame, and waits a bounded time for the other end to read up to it.

// closedByRemote reports whether err, a read error on a session stream,
// says the remote end closed or reset the connection under it (not a
// timeout, and not this peer's own close).
func closedByRemote(err error) bool {
	var ce *network.ConnError
	if errors.As(err, &ce) {
		return ce.Remote
	}
	return errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// noteStreamEnd records, for a session stream whose read failed with err,
// that the remote closed its connection; the next connection report says
// so (connChanges), even if the loss was reported already.
func (t *transport) noteStreamEnd(s network.Stream, err error) {
	c := s.Conn()
	if !c.IsClosed() || !closedByRemote(err) {
		return
	}
	t.mu.Lock()
	p := c.RemotePeer()
	if t.closedConns[p] == nil {
		t.closedConns[p] = map[network.Conn]bool{}
	}
	t.closedConns[p][c] = true
	if t.held[c.RemotePeer()] == nil { // a limited circuit's end is no loss yet (circuit.go)
		t.changed[c.RemotePeer()] = true
	}
	t.mu.Unlock()
	t.signal()
}

// wasClosed reports whether p, not connected (up false), lost its last
// connection by the remote's close. Call with t.mu held.
func (t *transport) wasClosed(p peer.ID, up bool) bool {
	c := t.lastDown[p]
	if up || c == nil {
		return false
	}
	return t.closedConns[p][c]
}

// forgetDown drops what is known of p's ended connections (it connected
// again). Call with t.mu held.
func (t *transport) forgetDown(p peer.ID) {
	delete(t.lastDown, p)
	delete(t.closedSent, p)
	delete(t.closedConns, p)
}

// hangUp ends every session stream with a FIN after what was written and
// waits, up to wait, until each other end has read to it (its end of the
// stream then ends too).
func (t *transport) hangUp(wait time.Duration) {
	t.mu.Lock()
	links := slices.Collect(maps.Values(t.links))
	t.mu.Unlock()
	for _, l := range links {
		select {
		case l.hangup <- struct{}{}:
		default:
		}
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for _, l := range links {
		select {
		case <-l.hungUp:
		case <-l.exited:
		case <-timer.C:
			return
		}
	}
}
