package session_test

import (
	"fmt"
	"testing"

	"hostfall/session"
	"hostfall/session/simnet"
)

// A relay circuit replaced before its limit (p2p/transport/circuit.go) leaves the link
// silent for a circuit set-up: 55 ticks here, with 40 ms each way (an 80 ms
// round trip), as measured in namespaces. Announced (MsgRenewing), the
// silence shows no "waiting for" and brings no claim, three times over;
// the same silence unannounced does both, so the test would see them.
func TestAnnouncedRenewalIsNoSilence(t *testing.T) {
	const gap, allow = 55, 200
	for _, announced := range []bool{true, false} {
		t.Run(fmt.Sprint("announced=", announced), func(t *testing.T) {
			n := gameOf(t, 1, 2, simConfig())
			host, other := n.Peers[0], n.Peers[1]
			n.Delay(host.ID, other.ID, 4, 4)
			n.Delay(other.ID, host.ID, 4, 4)
			var waits, claims int
			n.OnReady = func(p *simnet.Peer, rd session.Ready) {
				for _, m := range rd.Messages {
					waits += b2i(m.Kind == session.MsgWaiting && m.Count > 0)
					claims += b2i(m.Kind == session.MsgClaim)
				}
			}
			epoch := host.Status.Epoch
			for range 3 {
				for range 100 {
					proposeAll(n)
					n.Run(5)
				}
				if announced {
					n.Renew(host.ID, other.ID, allow)
				} else {
					n.Renew(host.ID, other.ID, 0)
				}
				n.Run(gap)
				n.Renewed(host.ID, other.ID)
			}
			before := other.Last()
			for range 40 {
				proposeAll(n)
				n.Run(5)
			}
			n.Run(300) // the last commands land
			t.Logf("3 renewals of %d ticks: %d waits, %d claims; the game went on %d turns after", gap, waits, claims, other.Last()-before)
			if !announced {
				if waits+claims == 0 {
					t.Fatal("an unannounced silence of 550 ms brought no wait and no claim: the test shows nothing")
				}
				return
			}
			if waits != 0 || claims != 0 {
				t.Errorf("announced renewals brought %d waits and %d claims, want none", waits, claims)
			}
			if !host.Status.IsHost || other.Status.Epoch != epoch || other.Last() <= before {
				t.Errorf("the game did not go on under its host: host %+v, other %+v", host.Status, other.Status)
			}
			noViolations(t, n)
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
