package session_test

import "testing"

func TestThreePeersPlay(t *testing.T) {
	n := gameOf(t, 1, 3, simConfig())
	for i := range 200 {
		if i%3 == 0 {
			proposeAll(n)
		}
		n.Tick()
	}
	n.Run(50)
	for _, p := range n.Peers {
		t.Logf("%s last=%d state=%x status=%+v", p.ID, p.Last(), p.State, p.Status)
	}
	noViolations(t, n)
	if n.Peers[1].Last() < 30 {
		t.Fatalf("turns did not flow")
	}
}
