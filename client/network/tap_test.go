package network

import (
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/internal/testwait"
	"hostfall/p2p"
	"hostfall/session"
)

// tap records what Options.OnEvent and Options.OnReplay report.
type tap struct {
	mu      sync.Mutex
	kinds   []EventKind
	replays []string
}

func (tp *tap) options(o *Options) {
	o.OnEvent = func(p *Peer, ev Event) {
		if p == nil {
			panic("OnEvent without its peer")
		}
		tp.mu.Lock()
		tp.kinds = append(tp.kinds, ev.Kind)
		tp.mu.Unlock()
	}
	o.OnReplay = func(path string) {
		tp.mu.Lock()
		tp.replays = append(tp.replays, path)
		tp.mu.Unlock()
	}
}

func (tp *tap) saw(k EventKind) bool {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return slices.Contains(tp.kinds, k)
}

func (tp *tap) replay() string {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if len(tp.replays) == 0 {
		return ""
	}
	return tp.replays[0]
}

// The event tap sees the peer's events from joining to the end, and the
// replay's path once it is saved; JoinVia joins by a resolver (an address).
func TestEventTapAndJoinVia(t *testing.T) {
	var ta, tb tap
	ann := newClient(t, "Ann", func(o *Options) { o.TurnLimit = 60; ta.options(o) })
	bo := newClient(t, "Bo", tb.options)
	if err := ann.Create(client.CreateOptions{Name: "tap", PlayerName: "Ann", MaxPlayers: 2, MapSeed: 3, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	ai := ann.Addr()
	addr := p2p.AddrResolver(ai.Addrs[0].String() + "/p2p/" + ai.ID.String())
	if err := bo.JoinVia(addr, client.JoinOptions{PlayerName: "Bo"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo in the lobby", 10*time.Second, func() bool { _, ok := bo.Lobby(); return ok })
	if err := bo.EditSlot(session.SlotEdit{Name: "Bo", Ready: true}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo ready at the host", 5*time.Second, func() bool { l := ann.lobby(); return len(l.Slots) == 2 && l.Slots[1].Ready })
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the end and the replays", 30*time.Second, func() bool { return ta.replay() != "" && tb.replay() != "" })
	for _, c := range []struct {
		name string
		tp   *tap
	}{{"Ann", &ta}, {"Bo", &tb}} {
		for _, k := range []EventKind{EvJoined, EvLobby, EvGameStarted, EvTurn, EvEnd} {
			if !c.tp.saw(k) {
				t.Errorf("%s's tap saw no %v", c.name, k)
			}
		}
		if _, err := os.Stat(c.tp.replay()); err != nil {
			t.Errorf("%s's replay: %v", c.name, err)
		}
	}
}
