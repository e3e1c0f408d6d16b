package p2p

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"hostfall/game"
	"hostfall/internal/testwait"
	"hostfall/session"
)

// logBuffer collects a peer's log lines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// rawStream opens a session stream from a host that is not a Peer.
func rawStream(t *testing.T, from *Host, to *tpeer) network.Stream {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := from.LibP2P().Connect(ctx, to.host.AddrInfo()); err != nil {
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

// Garbage, truncated, oversized and unexpected frames sent to the host of a
// running game: each stream is closed with a logged reason, nothing crashes,
// a repeat offender is blocked, and the game goes on with equal states.
func TestBadFramesToTheHost(t *testing.T) {
	logs := &logBuffer{}
	marker := []byte{1, byte(game.CmdMove), 0, 0x55, 0x55} // a stranger's command
	var strangerCmd atomic.Bool
	peers := newGame(t, gameOpts{players: 3, turnLimit: 260, tweak: func(i int, o *PeerOptions) {
		if i == 0 {
			o.Logger = logs.logger()
		}
		o.OnTurn = func(tr session.Turn, _ time.Time) {
			for _, c := range tr.Commands {
				if bytes.Equal(c.Data, marker) {
					strangerCmd.Store(true)
				}
			}
		}
	}})
	host := peers[0]
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
			s := rawStream(t, attacker, host)
			if _, err := s.Write(tc.data); err != nil {
				t.Fatal(err)
			}
			_ = s.CloseWrite()
			closedByPeer(t, s)
			testwait.For(t, "the reason in the log", 5*time.Second, func() bool { return strings.Contains(logs.String(), tc.reason) })
			if host.host.Blocked(attacker.ID()) {
				t.Fatal("one bad frame got the peer blocked")
			}
		})
	}

	// A stranger speaks the protocol well but is no member: it is ignored.
	stranger := newTestHost(t)
	s := rawStream(t, stranger, host)
	var msgs []byte
	msgs = append(msgs, helloFrame()...)
	msgs = append(msgs, sessionFrame(t, session.Message{Kind: session.MsgCommands, Epoch: host.Status().Epoch,
		Commands: []session.Command{{Slot: 1, Seq: 1, Data: marker}}})...)
	msgs = append(msgs, sessionFrame(t, session.Message{Kind: session.MsgTurns, Epoch: host.Status().Epoch,
		Turns: []session.Turn{{Epoch: host.Status().Epoch, Number: host.Status().Turn + 1, Commands: []session.Command{{Slot: 1, Seq: 1, Data: marker}}}}})...)
	if _, err := s.Write(msgs); err != nil {
		t.Fatal(err)
	}

	// A repeat offender is disconnected and blocked.
	offender := newTestHost(t)
	for i := range 3 {
		s := rawStream(t, offender, host)
		_, _ = s.Write([]byte(fmt.Sprintf("junk %d", i)))
		_ = s.CloseWrite()
		closedByPeer(t, s)
	}
	testwait.For(t, "the offender blocked", 5*time.Second, func() bool { return host.host.Blocked(offender.ID()) })
	testwait.For(t, "the offender disconnected", 5*time.Second, func() bool {
		return len(host.host.LibP2P().Network().ConnsToPeer(offender.ID())) == 0
	})

	survivorsAgree(t, peers, 260, 0)
	if strangerCmd.Load() {
		t.Error("a stranger's command was sequenced")
	}
}

// A modified client forges commands: orders for another player's units, a
// command frame that claims another slot, a proposal for a slot it does not
// drive. Every peer rejects them the same way and the states stay equal.
func TestForgedCommands(t *testing.T) {
	const forger = 2
	var holders [3]atomic.Pointer[Peer]
	var mu sync.Mutex
	seen := map[string][]int{}   // marker → slots it was sequenced for
	rejected := map[string]int{} // peer name → forged orders seen rejected as not owned
	ownMove := game.Command{Kind: game.CmdMove, X: 3, Y: 3}
	var ownMarker []byte
	peers := newGame(t, gameOpts{players: 3, turnLimit: 260, tweak: func(i int, o *PeerOptions) {
		name := o.Name
		o.OnTurn = func(tr session.Turn, _ time.Time) {
			for _, c := range tr.Commands {
				if c.Slot != forger {
					continue
				}
				cmd, err := game.DecodeCommand(0, c.Data)
				if err != nil || cmd.Kind != game.CmdMove || cmd.X != 3 && cmd.X != 5 {
					continue
				}
				mu.Lock()
				seen[fmt.Sprint(cmd.X)] = append(seen[fmt.Sprint(cmd.X)], c.Slot)
				mu.Unlock()
				p := holders[i].Load()
				p.View(func(w *game.World) {
					if uint64(w.Turn()) != tr.Number {
						return // a later turn of the same batch was applied too
					}
					for _, ev := range w.Events() {
						if ev.Kind == game.EvRejected && ev.Reason == game.RejNotOwner && ev.Player == forger {
							mu.Lock()
							rejected[name]++
							mu.Unlock()
						}
					}
				})
			}
		}
	}})
	for i, p := range peers {
		holders[i].Store(p.Peer)
	}
	// Units of player 0: the forger orders them about.
	var victims []game.UnitID
	peers[forger].View(func(w *game.World) {
		u := w.Units()
		for i := range u.Len() {
			if u.Alive(i) && u.Owner(i) == 0 && !u.IsBuilding(i) {
				victims = append(victims, u.ID(i))
			}
		}
	})
	if len(victims) == 0 {
		t.Fatal("player 0 has no units")
	}
	forged := game.Command{Kind: game.CmdMove, Units: victims, X: 5, Y: 5}
	if err := peers[forger].Propose(forged); err != nil {
		t.Fatal(err)
	}
	// A command frame claiming slot 1: the host attributes it to the sender.
	peers[forger].tamperOnce(func(m *session.Message) bool {
		if m.Kind != session.MsgCommands {
			return true
		}
		for i := range m.Commands {
			m.Commands[i].Slot = 1
		}
		return true
	})
	ownMove.Units = victims
	ownMarker, _ = ownMove.AppendBinary(nil)
	if err := peers[forger].proposeRaw(forger, ownMarker); err != nil {
		t.Fatal(err)
	}
	// The session itself refuses to propose for a slot this peer does not drive.
	if err := peers[forger].proposeRaw(1, ownMarker); err == nil {
		t.Error("a follower proposed for another player's slot")
	}

	survivorsAgree(t, peers, 260, 0)
	mu.Lock()
	defer mu.Unlock()
	for _, x := range []string{"3", "5"} {
		if len(seen[x]) != len(peers) {
			t.Errorf("forged order to x=%s was applied %d times over %d peers", x, len(seen[x]), len(peers))
		}
	}
	if rejected[peers[0].name] == 0 {
		t.Errorf("the host did not see the forged orders rejected: %v", rejected)
	}
	t.Logf("forged orders rejected as not owned, per peer: %v", rejected)
}
