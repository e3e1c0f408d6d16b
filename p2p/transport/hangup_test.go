package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"hostfall/internal/testwait"
	"hostfall/session"
)

func TestClosedByRemote(t *testing.T) {
	reset := &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"FIN under yamux", fmt.Errorf("%w: stream reset: connection closed: %w", network.ErrReset, io.EOF), true},
		{"RST", fmt.Errorf("%w: connection closed: %w", network.ErrReset, reset), true},
		{"broken pipe", os.NewSyscallError("write", syscall.EPIPE), true},
		{"remote close with a code", &network.ConnError{Remote: true, ErrorCode: 1}, true},
		{"our own close", &network.ConnError{Remote: false}, false},
		{"keepalive timeout", fmt.Errorf("%w: connection closed: %w", network.ErrReset, errors.New("keepalive timeout")), false},
		{"deadline", os.ErrDeadlineExceeded, false},
		{"stream reset by the remote", &network.StreamError{Remote: true}, false},
	} {
		if got := closedByRemote(c.err); got != c.want {
			t.Errorf("%s: closedByRemote(%v) = %v, want %v", c.name, c.err, got, c.want)
		}
	}
}

// connectWithStream connects a to b and has a session stream carry one
// message each way, so both have a stream a connection's end can be read on.
func connectWithStream(t *testing.T, a, b *Host, ta, tb *transport) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := a.LibP2P().Connect(ctx, b.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct{ from, to *transport }{{ta, tb}, {tb, ta}} {
		m := session.Message{Kind: session.MsgPing, Turn: 1}
		d.from.send(d.to.self, &m)
		select {
		case <-d.to.in:
		case <-time.After(5 * time.Second):
			t.Fatalf("no message from %s", d.from.self)
		}
	}
}

// A peer whose process ends (its host closes every connection, as the
// kernel does for a killed process) is reported closed, not merely lost.
func TestClosedConnectionIsReportedClosed(t *testing.T) {
	a, ta := newTestTransport(t, Limits{})
	b, tb := newTestTransport(t, Limits{})
	connectWithStream(t, a, b, ta, tb)
	_ = ta.connChanges()
	start := time.Now()
	b.Close()
	var got []ConnChange
	testwait.For(t, "the loss of b reported as closed", 5*time.Second, func() bool {
		got = append(got, ta.connChanges()...)
		return len(got) > 0 && !got[len(got)-1].Up && got[len(got)-1].Closed
	})
	t.Logf("closed reported %v after b's close (%d reports: %+v)", time.Since(start).Round(time.Millisecond), len(got), got)
}

// A Bye written just before the transport closes reaches the other end:
// the stream ends with a FIN after it, never a reset that could discard it.
func TestLastMessageBeforeCloseArrives(t *testing.T) {
	for round := range 20 {
		a, ta := newTestHost(t), (*transport)(nil)
		ta = newTransport(a, Limits{}, testLog())
		b, tb := newTestTransport(t, Limits{})
		connectWithStream(t, a, b, ta, tb)
		bye := session.Message{Kind: session.MsgBye, Epoch: uint64(round)}
		ta.send(b.ID(), &bye)
		start := time.Now()
		ta.close(300 * time.Millisecond)
		took := time.Since(start)
		a.Close()
		got := false
		deadline := time.After(3 * time.Second)
		for !got {
			select {
			case in := <-tb.in:
				got = in.Msg.Kind == session.MsgBye
			case <-deadline:
				t.Fatalf("round %d: the Bye written before close never arrived", round)
			}
		}
		if round == 0 {
			t.Logf("close took %v", took.Round(time.Millisecond))
		}
	}
}
