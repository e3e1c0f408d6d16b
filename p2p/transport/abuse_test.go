package transport

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/internal/logbuf"
	"hostfall/internal/testwait"
	"hostfall/session"
)

// rawStream opens a session stream from a host that is not a Peer.
func rawStream(t *testing.T, from, to *Host) network.Stream {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := from.LibP2P().Connect(ctx, to.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	s, err := from.LibP2P().NewStream(ctx, to.ID(), ProtocolID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// closedByPeer reads until the stream fails; the victim's hello may come first.
func closedByPeer(t *testing.T, s network.Stream) {
	t.Helper()
	_ = s.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err := io.Copy(io.Discard, s)
	if err == nil {
		return // closed cleanly is also closed
	}
	if strings.Contains(err.Error(), "deadline") || strings.Contains(err.Error(), "timeout") {
		t.Fatalf("the peer kept the stream open: %v", err)
	}
}

func helloFrame() []byte { return appendFrame(nil, frameHello, encodeHello(nil)) }

func sessionFrame(t *testing.T, m session.Message) []byte {
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return appendFrame(nil, frameSession, b)
}

// Garbage, truncated, oversized and unexpected frames sent to a peer's
// session transport: each stream is closed with a logged reason, nothing
// crashes, a repeat offender is blocked, and a well-formed message after
// all that still arrives.
func TestBadFrames(t *testing.T) {
	logs := &logbuf.Buffer{}
	victim := newTestHost(t)
	tr := NewTransport(victim, Limits{}, logs.Logger(slog.LevelWarn))
	t.Cleanup(func() { tr.Close(0) })
	truncated := append(helloFrame(), binary.AppendUvarint(nil, 100)...)
	truncated = append(truncated, byte(frameSession), 1, 2, 3)
	for _, tc := range []struct {
		name   string
		data   []byte
		reason string
	}{
		{"garbage", bytes.Repeat([]byte("GET / HTTP/1.1 "), 10), "not a hello"},
		{"huge length", append(helloFrame(), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), "larger than the limit"},
		{"length is not a varint", append(helloFrame(), bytes.Repeat([]byte{0x80}, 11)...), "not a valid varint"},
		{"oversized", append(helloFrame(), binary.AppendUvarint(nil, MaxFrameSize+1)...), "larger than the limit"},
		{"empty frame", append(helloFrame(), 0), "length 0"},
		{"truncated", truncated, "ended inside a frame"},
		{"session message that does not decode", append(helloFrame(), appendFrame(nil, frameSession, []byte{0xff, 0x01, 0x02})...), "malformed session message"},
		{"unknown frame kind", append(helloFrame(), appendFrame(nil, 99, nil)...), "unknown frame kind"},
		{"second hello", append(helloFrame(), helloFrame()...), "second hello"},
		{"bad ping", append(helloFrame(), appendFrame(nil, framePing, []byte{1})...), "ping of 1 bytes"},
		{"hello of another version", appendFrame(nil, frameHello, []byte{0x08, 0x07}), "frame version 7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			attacker := newTestHost(t) // one strike each: none is blocked
			s := rawStream(t, attacker, victim)
			if _, err := s.Write(tc.data); err != nil {
				t.Fatal(err)
			}
			_ = s.CloseWrite()
			closedByPeer(t, s)
			testwait.For(t, "the reason in the log", 5*time.Second, func() bool { return strings.Contains(logs.String(), tc.reason) })
			if victim.Blocked(attacker.ID()) {
				t.Fatal("one bad frame got the peer blocked")
			}
		})
	}

	// A repeat offender is disconnected and blocked.
	offender := newTestHost(t)
	for i := range 3 {
		s := rawStream(t, offender, victim)
		_, _ = s.Write([]byte(fmt.Sprintf("junk %d", i)))
		_ = s.CloseWrite()
		closedByPeer(t, s)
	}
	testwait.For(t, "the offender blocked", 5*time.Second, func() bool { return victim.Blocked(offender.ID()) })
	testwait.For(t, "the offender disconnected", 5*time.Second, func() bool {
		return len(victim.LibP2P().Network().ConnsToPeer(offender.ID())) == 0
	})

	// A peer that speaks the protocol is heard: the transport moves bytes;
	// whether the sender is a member is the session's question.
	friend := newTestHost(t)
	ft := NewTransport(friend, Limits{}, testLog())
	t.Cleanup(func() { ft.Close(0) })
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := ft.Connect(ctx, victim.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	ft.Send(victim.ID(), &session.Message{Kind: session.MsgPing, Turn: 42})
	select {
	case in := <-tr.Inbound():
		if in.From != friend.ID() || in.Msg.Turn != 42 {
			t.Fatalf("got %v from %s", in.Msg.Kind, in.From)
		}
	case <-ctx.Done():
		t.Fatal("a well-formed message did not arrive")
	}
}

// Password proofs are budgeted per address: fresh peer IDs from one
// machine (here all on 127.0.0.1) share one budget, so they cannot guess
// passwords faster than it allows; other messages (Hellos too) are not
// counted, and the budget refills. The budget's clock is the test's: it
// stands still while the proofs arrive, then moves on one second.
func TestProofsAreBudgetedPerAddress(t *testing.T) {
	victim := newTestHost(t)
	tr := NewTransport(victim, Limits{ProofRate: 1, ProofBurst: 3}, testLog())
	t.Cleanup(func() { tr.Close(0) })
	var passed atomic.Int64 // nanoseconds on the budget's clock
	start := time.Now()
	tr.t.mu.Lock()
	tr.t.proofNow = func() time.Time { return start.Add(time.Duration(passed.Load())) }
	tr.t.mu.Unlock()
	send := func(kind session.MsgKind) {
		t.Helper()
		s := rawStream(t, newTestHost(t), victim) // a new peer ID each time
		frame := sessionFrame(t, session.Message{Kind: kind, Hello: &session.Hello{Name: "guesser"}, Proof: []byte("guess")})
		if _, err := s.Write(append(helloFrame(), frame...)); err != nil {
			t.Fatal(err)
		}
	}
	// count counts what arrives within a second: enough for frames sent
	// on loopback, so what has not arrived by then was dropped.
	count := func() (proofs, others int) {
		deadline := time.After(time.Second)
		for {
			select {
			case in := <-tr.Inbound():
				if in.Msg.Kind == session.MsgProof {
					proofs++
				} else {
					others++
				}
			case <-deadline:
				return proofs, others
			}
		}
	}
	for range 8 {
		send(session.MsgProof)
	}
	send(session.MsgHello)
	send(session.MsgPing)
	if proofs, others := count(); proofs != 3 || others != 2 {
		t.Errorf("%d of 8 proofs from one address and %d of a hello and a ping arrived, want the burst of 3 and both: only proofs are budgeted",
			proofs, others)
	}
	passed.Add(int64(time.Second))
	send(session.MsgProof)
	send(session.MsgProof)
	if proofs, _ := count(); proofs != 1 {
		t.Errorf("a second later %d of 2 proofs arrived, want 1", proofs)
	}
}

// A peer the loop has not admitted may only knock: a Hello arrives, a frame
// larger than Limits.StrangerFrame closes its stream with a logged reason
// before its body is read, while an admitted member's large frame (a
// snapshot) arrives whole.
func TestStrangersOnlyKnock(t *testing.T) {
	logs := &logbuf.Buffer{}
	victim := newTestHost(t)
	member := newTestHost(t)
	tr := NewTransport(victim, Limits{}, logs.Logger(slog.LevelWarn))
	t.Cleanup(func() { tr.Close(0) })
	tr.Admit(func(p peer.ID) bool { return p == member.ID() })
	snapshot := session.Message{Kind: session.MsgSnapshot, Snapshot: &session.Snapshot{Turn: 9, Data: bytes.Repeat([]byte{7}, 1<<20)}}
	hello := session.Message{Kind: session.MsgHello, Hello: &session.Hello{Name: "knock"}}
	arrives := func(want session.MsgKind, from peer.ID) {
		t.Helper()
		select {
		case in := <-tr.Inbound():
			if in.Msg.Kind != want || in.From != from {
				t.Fatalf("got %v from %s, want %v from %s", in.Msg.Kind, in.From, want, from)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("the %v from %s did not arrive", want, from)
		}
	}

	stranger := newTestHost(t)
	s := rawStream(t, stranger, victim)
	if _, err := s.Write(append(helloFrame(), sessionFrame(t, hello)...)); err != nil {
		t.Fatal(err)
	}
	arrives(session.MsgHello, stranger.ID())
	_, _ = s.Write(sessionFrame(t, snapshot))
	closedByPeer(t, s)
	testwait.For(t, "the reason in the log", 5*time.Second, func() bool {
		return strings.Contains(logs.String(), "not a member of this game")
	})

	m := rawStream(t, member, victim)
	if _, err := m.Write(append(helloFrame(), sessionFrame(t, snapshot)...)); err != nil {
		t.Fatal(err)
	}
	arrives(session.MsgSnapshot, member.ID())
}

// A stranger's session messages are read only as far as their kind: a
// Hello and a Proof reach the loop, turns, acks, claims, commands (here
// 500 of them, within the stranger's frame size) and a host's challenge
// never do, and neither does its list of other peers' addresses.
func TestStrangerMessagesStopAtTheKind(t *testing.T) {
	victim := newTestHost(t)
	tr := NewTransport(victim, Limits{}, nil)
	t.Cleanup(func() { tr.Close(0) })
	tr.Admit(func(peer.ID) bool { return false })
	stranger := newTestHost(t)
	s := rawStream(t, stranger, victim)
	cmds := make([]session.Command, 500)
	for i := range cmds {
		cmds[i] = session.Command{Slot: 1, Seq: uint64(i + 1), Data: []byte{1}}
	}
	frames := helloFrame()
	for _, m := range []session.Message{
		{Kind: session.MsgCommands, Commands: cmds},
		{Kind: session.MsgAck, Have: 3, Need: true},
		{Kind: session.MsgClaim, Epoch: 1 << 20},
		{Kind: session.MsgTurns, Turns: []session.Turn{{Number: 1}}},
		{Kind: session.MsgHello, Hello: &session.Hello{Name: "knock"}},
		{Kind: session.MsgChallenge, Nonce: []byte("n")},
		{Kind: session.MsgProof, Proof: []byte("guess")},
	} {
		frames = append(frames, sessionFrame(t, m)...)
	}
	other := newTestHost(t)
	frames = append(frames, appendFrame(nil, framePeers, encodePeers([]peer.AddrInfo{other.AddrInfo()}))...)
	if _, err := s.Write(frames); err != nil {
		t.Fatal(err)
	}
	for _, want := range []session.MsgKind{session.MsgHello, session.MsgProof} {
		select {
		case in := <-tr.Inbound():
			if in.Msg.Kind != want {
				t.Fatalf("a stranger's %v reached the loop, want its %v", in.Msg.Kind, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("the stranger's %v did not arrive", want)
		}
	}
	testwait.For(t, "the other frames read", 5*time.Second, func() bool { return tr.t.ignored.Load() >= 6 })
	select {
	case in := <-tr.Inbound():
		t.Errorf("a stranger's %v reached the loop after its knocks", in.Msg.Kind)
	default:
	}
	if addrs := victim.LibP2P().Peerstore().Addrs(other.ID()); len(addrs) > 0 {
		t.Errorf("the stranger's word put %v in the peerstore", addrs)
	}
}

// A peer this one relies on is no stranger: go-libp2p's AutoRelay protects
// the relay it holds a reservation with, and that relay's connection may be
// one the relay opened. Over the per-address bound, the strangers that
// came after it are closed and it stays.
func TestProtectedPeerIsNoStranger(t *testing.T) {
	victim := newTestHost(t)
	tr := NewTransport(victim, Limits{StrangersPerIP: 2}, nil)
	t.Cleanup(func() { tr.Close(0) })
	tr.Admit(func(peer.ID) bool { return false })
	relay := newTestHost(t)
	if err := relay.h.Connect(t.Context(), victim.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	victim.h.ConnManager().Protect(relay.ID(), "autorelay")
	for range 4 {
		s := newTestHost(t)
		if err := s.h.Connect(t.Context(), victim.AddrInfo()); err != nil {
			t.Fatal(err)
		}
	}
	testwait.For(t, "the strangers bounded to 2", 5*time.Second, func() bool { return tr.Strangers() == 2 })
	if victim.h.Network().Connectedness(relay.ID()) != network.Connected {
		t.Fatal("the protected relay's connection was closed as a stranger's")
	}
}
