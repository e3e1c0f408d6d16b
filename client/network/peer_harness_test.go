package network

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"

	"hostfall/game/ai"
	"hostfall/internal/testwait"
	"hostfall/match"
	"hostfall/p2p/transport"
	"hostfall/session"
)

// tpeer is one in-process peer with its event log.
type tpeer struct {
	*Peer
	host   *transport.Host
	name   string
	cancel context.CancelFunc

	mu     sync.Mutex
	events []Event
	turns  map[uint64]session.Turn
}

// ready says that p's player, under name, is ready.
func (p *tpeer) ready(name string) error {
	return p.withNode(func(n *session.Node) error { return n.EditSlot(session.SlotEdit{Name: name, Ready: true}) })
}

type gameOpts struct {
	players   int
	bots      int
	turnLimit uint64
	seed      uint64
	size      uint32
	tweak     func(i int, o *PeerOptions)
	libp2p    func(i int) []libp2p.Option // options of peer i's libp2p host
}

func testPeerOptions(name string) PeerOptions {
	return PeerOptions{
		Name: name, GameVersion: testVersion,
		Match:   match.Options{SelfBot: true, SelfLevel: ai.Easy},
		Session: session.Config{CountdownTicks: 2},
		Logger:  testLog(),
	}
}

// startPeer starts a peer on a new loopback host.
func startPeer(t testing.TB, name string, opt PeerOptions) *tpeer {
	t.Helper()
	return startPeerOn(t, newTestHost(t), name, opt)
}

// startPeerOn starts a peer on host h.
func startPeerOn(t testing.TB, h *transport.Host, name string, opt PeerOptions) *tpeer {
	t.Helper()
	p, err := NewPeer(h, opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	tp := &tpeer{Peer: p, host: h, name: name, cancel: cancel, turns: map[uint64]session.Turn{}}
	go p.Run(ctx)
	go func() {
		for {
			select {
			case e := <-p.Events():
				tp.mu.Lock()
				tp.events = append(tp.events, e)
				tp.mu.Unlock()
			case <-p.Done():
				return
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-p.Done():
		case <-time.After(5 * time.Second):
			t.Errorf("%s: Run did not return", name)
		}
	})
	return tp
}

// stop ends the peer's loop and closes its host.
func (tp *tpeer) stop() {
	tp.cancel()
	<-tp.Done()
	tp.host.Close()
}

func (tp *tpeer) find(kind EventKind) (Event, bool) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	for _, e := range tp.events {
		if e.Kind == kind {
			return e, true
		}
	}
	return Event{}, false
}

func (tp *tpeer) all(kind EventKind) []Event {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	var out []Event
	for _, e := range tp.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// newGame starts a host and players-1 joiners, fills bots, starts the game
// and waits until every peer plays.
func newGame(t testing.TB, o gameOpts) []*tpeer {
	t.Helper()
	if o.size == 0 {
		o.size = 64
	}
	if o.seed == 0 {
		o.seed = 7
	}
	var peers []*tpeer
	for i := range o.players {
		opt := testPeerOptions(fmt.Sprintf("p%d", i))
		if o.tweak != nil {
			o.tweak(i, &opt)
		}
		var lo []libp2p.Option
		if o.libp2p != nil {
			lo = o.libp2p(i)
		}
		peers = append(peers, startPeerOn(t, newTestHost(t, lo...), opt.Name, opt))
	}
	host := peers[0]
	err := host.Host(session.Settings{Name: "test", MapSeed: o.seed, MapSize: o.size,
		MaxPlayers: uint32(o.players + o.bots), TurnLimit: o.turnLimit})
	if err != nil {
		t.Fatal(err)
	}
	for i := range o.bots {
		if err := host.withNode(func(n *session.Node) error { return n.SetSlot(o.players+i, session.SlotBot, uint8(ai.Easy)) }); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range peers[1:] {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := p.Join(ctx, host.host.AddrInfo())
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		testwait.For(t, p.name+" joined", 10*time.Second, func() bool { return p.Status().Joined })
		if err := p.ready(p.name); err != nil {
			t.Fatal(err)
		}
	}
	testwait.For(t, "everyone ready", 10*time.Second, func() bool {
		l := host.Lobby()
		n := 0
		for i, s := range l.Slots {
			if s.Kind == session.SlotHuman && (s.Ready || i == 0) {
				n++
			}
		}
		return n == o.players
	})
	if err := host.withNode(start); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "game start", 20*time.Second, func() bool {
		for _, p := range peers {
			if p.Status().Turn == 0 {
				return false
			}
		}
		return true
	})
	return peers
}

// tamperOnce installs a hook on the peer's outgoing messages (a modified
// client). The hook returns whether to send the message.
func (tp *tpeer) tamperOnce(fn func(*session.Message) bool) {
	done := make(chan struct{})
	tp.reqs <- func() { tp.tamper = fn; close(done) }
	<-done
}

// newTestHost starts a host on loopback TCP and QUIC with a fresh identity.
func newTestHost(t testing.TB, lo ...libp2p.Option) *transport.Host {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := transport.NewHost(t.Context(), transport.Options{Identity: k, Listen: []string{"/ip4/127.0.0.1/tcp/0", "/ip4/127.0.0.1/udp/0/quic-v1"}, Libp2p: lo})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}
