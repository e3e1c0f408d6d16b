package transport

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// goneConn is an inbound connection, closed by its remote, as libp2p's
// notifications hand it over (only what the transport reads of it).
type goneConn struct {
	network.Conn
	p peer.ID
}

func (c *goneConn) RemotePeer() peer.ID { return c.p }
func (c *goneConn) RemoteMultiaddr() ma.Multiaddr {
	return ma.StringCast("/ip4/10.9.0.1/tcp/4001")
}
func (c *goneConn) Stat() network.ConnStats {
	return network.ConnStats{Stats: network.Stats{Direction: network.DirInbound}}
}
func (c *goneConn) IsClosed() bool { return true }
func (c *goneConn) Close() error   { return nil }

// goneStream is a session stream on a goneConn.
type goneStream struct {
	network.Stream
	c *goneConn
}

func (s *goneStream) Conn() network.Conn { return s.c }

// 10,000 fresh identities that connect, say hello, break the protocol once
// and go leave nothing behind once swept, while a member's record of how
// its connection ended stays: the session needs it.
func TestGoneStrangersLeaveNoRecords(t *testing.T) {
	h := newTestHost(t)
	tr := newTransport(h, Limits{Strangers: 1 << 20, StrangersPerIP: 1 << 20}, testLog())
	t.Cleanup(func() { tr.close(0) })
	member := peer.ID("member")
	tr.admit.Store(&[]func(peer.ID) bool{func(p peer.ID) bool { return p == member }}[0])
	end := func(p peer.ID) {
		c := &goneConn{p: p}
		tr.connected(nil, c)
		tr.limiter(p)
		tr.learn(p, []ma.Multiaddr{c.RemoteMultiaddr()}, true)
		tr.mu.Lock()
		tr.strikes.add(p, time.Now())
		tr.mu.Unlock()
		tr.noteStreamEnd(&goneStream{c: c}, io.EOF)
		tr.disconnected(nil, c)
		tr.connChanges()
	}
	end(member)
	for i := range 10_000 {
		end(peer.ID(fmt.Sprintf("stranger %d", i))) // IDs are bytes: any will do here
	}
	sizes := func() string {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		return fmt.Sprintf("lastDown %d, closedSent %d, closedConns %d, limiters %d, dir %d, strikes %d, strangers %d",
			len(tr.lastDown), len(tr.closedSent), len(tr.closedConns), len(tr.limiters), len(tr.dir), len(tr.strikes.at), len(tr.strangers))
	}
	t.Logf("FIGURE before the sweep: %s", sizes())
	tr.sweep(time.Now().Add(2 * time.Minute))
	want := "lastDown 1, closedSent 1, closedConns 1, limiters 1, dir 1, strikes 0, strangers 0"
	if got := sizes(); got != want {
		t.Fatalf("after the sweep: %s; want %s", got, want)
	}
	tr.mu.Lock()
	closed := tr.wasClosed(member, false)
	tr.mu.Unlock()
	if !closed {
		t.Fatal("the member's closed connection was forgotten")
	}
}
