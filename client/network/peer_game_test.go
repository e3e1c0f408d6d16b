package network

import (
	"testing"
	"time"

	"hostfall/internal/testwait"
	"hostfall/session"
)

// A game of a few hundred turns over real libp2p hosts: every peer ends at
// the turn limit with the same state.
func TestGameOnLoopback(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	peers := newGame(t, gameOpts{players: 4, bots: 1, turnLimit: 300})
	testwait.For(t, "the end", 60*time.Second, func() bool {
		for _, p := range peers {
			if _, ok := p.find(EvEnd); !ok {
				return false
			}
		}
		return true
	})
	want, _ := peers[0].find(EvEnd)
	for _, p := range peers {
		got, _ := p.find(EvEnd)
		if got.Turn != 300 || got.Hash != want.Hash {
			t.Errorf("%s ended at turn %d hash %016x; the host at %d %016x", p.name, got.Turn, got.Hash, want.Turn, want.Hash)
		}
		turns := p.all(EvTurn)
		if len(turns) < 10 {
			t.Errorf("%s: %d turn events, want 15", p.name, len(turns))
		}
	}
	// Same hash at every reported turn on every peer.
	hashes := map[uint64]uint64{}
	for _, p := range peers {
		for _, e := range p.all(EvTurn) {
			if h, ok := hashes[e.Turn]; ok && h != e.Hash {
				t.Errorf("%s: turn %d hash %016x, another peer %016x", p.name, e.Turn, e.Hash, h)
			}
			hashes[e.Turn] = e.Hash
		}
	}
	// The mesh: every player holds a connection to every other, so the next
	// host can reach everyone.
	for _, p := range peers {
		for _, ps := range p.Status().Peers {
			if ps.Slot >= 0 && !ps.Connected {
				t.Errorf("%s is not connected to %s (slot %d)", p.name, ps.Name, ps.Slot)
			}
		}
	}
	st := peers[1].Status()
	t.Logf("follower status: host %s epoch %d turn %d delay %v in %.0f B/s out %.0f B/s peers %+v",
		st.Host, st.Epoch, st.Turn, st.Delay, st.InRate, st.OutRate, st.Peers)
	if st.Host != peers[0].ID() || st.Slot != 1 || st.State != session.StatePlaying {
		t.Errorf("follower status %+v", st)
	}
}
