package session_test

import (
	"fmt"
	"testing"

	"hostfall/session"
	"hostfall/session/simnet"
)

// The follower's failure detector on a lossy link: the host's messages to
// the followers are held up by a retransmission (450 ms) now and then. The
// first stalls make followers suspect a live host; each such mistake
// lengthens the silence they allow (Status.HostSilence), so the claims die
// out, and a host that then really hangs is still replaced within the
// capped silence (4 × FailTicks) plus the usual election time.
func TestFalseSuspicionsLengthenTheHostSilence(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 4, 5, 6} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			cfg := simConfig()
			n := gameOf(t, seed, 4, cfg)
			host := n.Peers[0]
			for _, p := range n.Peers[1:] {
				n.Lossy(host.ID, p.ID, 60, 45)
			}
			claims := make([]int, 4) // per 10 s of play
			n.OnReady = func(p *simnet.Peer, rd session.Ready) {
				for _, m := range rd.Messages {
					if m.Kind == session.MsgClaim {
						claims[min((n.Now-1)/1000, 3)]++
					}
				}
			}
			start := n.Now
			for n.Now < start+4000 {
				proposeAll(n)
				n.Run(5)
			}
			t.Logf("claims per 10 s: %v", claims)
			if claims[0] == 0 {
				t.Fatalf("no false suspicion in the first 10 s: the link is not lossy enough to test anything")
			}
			if claims[3] > claims[0]/4 {
				t.Errorf("claims per 10 s %v: the detector did not learn the link (last 10 s > a quarter of the first)", claims)
			}
			if !host.Status.IsHost || host.Status.Epoch != n.Peers[1].Status.Epoch {
				t.Errorf("peer-0 no longer hosts the game: %+v", n.Peers[1].Status)
			}
			silence := 0
			for _, p := range n.Peers[1:] {
				silence = max(silence, p.Status.HostSilence)
			}
			fail := 30 // FailTicks' default
			if silence <= fail || silence > 4*fail {
				t.Errorf("largest HostSilence %d, want above FailTicks %d and at most %d", silence, fail, 4*fail)
			}
			epoch := host.Status.Epoch
			n.Heal()
			n.Hang(host.ID)
			hung := n.Now
			for n.Now < hung+1000 && !resumed(n, epoch) {
				n.Run(1)
			}
			took := n.Now - hung
			bound := silence + livenessBound(filled(cfg), n.MaxLat)
			t.Logf("host hung: a turn of the new epoch after %d ticks (HostSilence %d, bound %d)", took, silence, bound)
			if took > bound {
				t.Errorf("a hung host was replaced after %d ticks, bound %d", took, bound)
			}
			n.Run(500) // the commands in flight find the new host
			noViolations(t, n)
		})
	}
}

// A player whose game fell out of step with the session (no game loaded, a
// turn missing: a fault on its side) takes the game back from its host by
// snapshot instead of leaving: Resync. Without a game it is told to load
// first. The host has nobody to take the game from and must leave.
func TestResyncTakesTheGameBack(t *testing.T) {
	for _, haveGame := range []bool{true, false} {
		t.Run(fmt.Sprint("have game ", haveGame), func(t *testing.T) {
			n := gameOf(t, 9, 3, simConfig())
			for range 40 {
				proposeAll(n)
				n.Run(5)
			}
			p := n.Peers[2]
			if n.Peers[0].Node.Resync(haveGame) {
				t.Fatal("the host resynced: it has nobody to take the game from")
			}
			restores, events := p.Restores, len(p.Events)
			if !p.Node.Resync(haveGame) {
				t.Fatal("a follower could not resync")
			}
			for range 100 {
				proposeAll(n)
				n.Run(5)
			}
			if p.Restores != restores+1 || p.Left {
				t.Fatalf("after Resync: %d snapshots restored (want 1), left %v %q", p.Restores-restores, p.Left, p.LeftWhy)
			}
			loads := 0
			for _, e := range p.Events[events:] {
				if e.Kind == session.EvLoad {
					loads++
				}
			}
			if want := map[bool]int{true: 0, false: 1}[haveGame]; loads != want {
				t.Errorf("%d EvLoad after Resync, want %d", loads, want)
			}
			if p.Last() != n.Peers[0].Last() && p.Last()+5 < n.Peers[0].Last() {
				t.Errorf("the resynced player is at turn %d, the host at %d", p.Last(), n.Peers[0].Last())
			}
			n.Run(300)
			noViolations(t, n)
		})
	}
}
