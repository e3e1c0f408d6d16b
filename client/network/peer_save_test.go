package network

import (
	"context"
	"errors"
	"testing"
	"time"

	"hostfall/internal/testwait"
	"hostfall/match"
	"hostfall/session"
)

// The host saves a running game over real libp2p hosts; the save resumes
// in a new session whose players (new identities, so they are matched by
// name) start from the saved state and end with equal hashes.
func TestSaveGameAndResumeOnLoopback(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	const limit = 160
	peers := newGame(t, gameOpts{players: 2, bots: 1, turnLimit: limit})
	testwait.For(t, "turn 40", 20*time.Second, func() bool { return peers[0].Status().Turn >= 40 })
	if _, _, err := peers[1].SaveGame(); !errors.Is(err, ErrNotHost) {
		t.Fatalf("a follower saved: %v", err)
	}
	sv, hash, err := peers[0].SaveGame()
	if err != nil {
		t.Fatal(err)
	}
	if h, err := match.CheckSaved(sv); err != nil || h != hash {
		t.Fatalf("the save restores to %016x (%v); the game was at %016x", h, err, hash)
	}
	turn := sv.State.Turn
	for _, p := range peers {
		p.stop()
	}

	// p1 hosts the save; p0 comes back.
	host := startPeer(t, "p1", testPeerOptions("p1"))
	if err := host.Host(session.Settings{Resume: &sv}); err != nil {
		t.Fatal(err)
	}
	back := startPeer(t, "p0", testPeerOptions("p0"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := back.Join(ctx, host.host.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "p0 back in its slot", 10*time.Second, func() bool { return back.Status().Joined })
	if s := back.Status().Slot; s != 0 {
		t.Fatalf("p0 came back in slot %d", s)
	}
	if err := back.ready("p0"); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the start", 10*time.Second, func() bool { return host.withNode(start) == nil })
	resumed := []*tpeer{host, back}
	testwait.For(t, "the end", 60*time.Second, func() bool {
		for _, p := range resumed {
			if _, ok := p.find(EvEnd); !ok {
				return false
			}
		}
		return true
	})
	want, _ := host.find(EvEnd)
	for _, p := range resumed {
		got, _ := p.find(EvEnd)
		if got.Turn != limit || got.Hash != want.Hash {
			t.Errorf("%s ended at turn %d hash %016x; the host at %d %016x", p.name, got.Turn, got.Hash, want.Turn, want.Hash)
		}
		if ts := p.all(EvTurn); len(ts) == 0 || ts[0].Turn <= turn {
			t.Errorf("%s: turn events %v; the game resumes after turn %d", p.name, ts, turn)
		}
	}
}
