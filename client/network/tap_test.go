package network

import (
	"context"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"hostfall/client"
	gameai "hostfall/game/ai"
	"hostfall/internal/testwait"
	"hostfall/p2p/transport"
	"hostfall/session"
)

// tap records what Options.OnEvent and Options.OnFile report.
type tap struct {
	mu      sync.Mutex
	kinds   []EventKind
	replays []string
	files   []File
	peer    *Peer
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
	o.OnSession = func(_ context.Context, p *Peer) {
		tp.mu.Lock()
		tp.peer = p
		tp.mu.Unlock()
	}
	o.OnFile = func(f File) {
		tp.mu.Lock()
		tp.files = append(tp.files, f)
		if f.Kind == FileReplay {
			tp.replays = append(tp.replays, f.Path)
		}
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
	t.Parallel() // real-time game on loopback, mostly idle
	var ta, tb tap
	ann := newClient(t, "Ann", func(o *Options) { o.TurnLimit = 60; ta.options(o) })
	bo := newClient(t, "Bo", tb.options)
	if err := ann.Create(client.CreateOptions{Name: "tap", PlayerName: "Ann", MaxPlayers: 2, MapSeed: 3, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	ai := ann.Addr()
	addr := transport.AddrResolver(ai.Addrs[0].String() + "/p2p/" + ai.ID.String())
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

func (tp *tap) file(k FileKind) (File, bool) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	for _, f := range tp.files {
		if f.Kind == k {
			return f, true
		}
	}
	return File{}, false
}

// Peers without a player (headless): bots play their own slots, the joiner
// says ready by itself, the host starts once two players are in and saves
// the game at SaveAt; nobody touches the lobby.
func TestUnattendedPeers(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	var ta, tb tap
	unattended := func(tp *tap) func(*Options) {
		return func(o *Options) {
			tp.options(o)
			o.SelfBot, o.ReadyOnJoin, o.StartWith, o.SaveAt, o.TurnLimit = true, true, 2, 40, 60
			o.SelfLevel = gameai.Hard // it decides every 10 turns: several times in this short game
		}
	}
	ann := newClient(t, "Ann", unattended(&ta))
	bo := newClient(t, "Bo", unattended(&tb))
	if err := ann.Create(client.CreateOptions{Name: "unattended", PlayerName: "Ann", MaxPlayers: 2, MapSeed: 3, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	ai := ann.Addr()
	if err := bo.JoinVia(transport.Known(ai), client.JoinOptions{PlayerName: "Bo"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the end and the replays", 30*time.Second, func() bool { return ta.replay() != "" && tb.replay() != "" })
	sv, ok := ta.file(FileSave)
	if !ok || sv.Err != nil || sv.Turn < 40 {
		t.Fatalf("the host's save: %+v (reported %v)", sv, ok)
	}
	if _, err := os.Stat(sv.Path); err != nil {
		t.Fatal(err)
	}
	if _, ok := tb.file(FileSave); ok {
		t.Error("the joiner saved; only the host does")
	}
	ta.mu.Lock()
	p := ta.peer
	ta.mu.Unlock()
	if p == nil || p.m.Stats().BotCommands == 0 {
		t.Error("no bot played the host's slot")
	}
}
