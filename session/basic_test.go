package session_test

import (
	"testing"

	"hostfall/session"
)

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

// The turn limit is the host's setting; a joiner learns it with the lobby.
func TestTurnLimitReachesJoiners(t *testing.T) {
	n := lobbyOf(t, 1, 2, simConfig(), "")
	host := n.Peers[0].Node
	if err := host.Configure(session.Settings{Name: "sim", MapSeed: 7, TurnLimit: 600}); err != nil {
		t.Fatal(err)
	}
	n.Run(10)
	if got := n.Peers[1].Node.Lobby().TurnLimit; got != 600 {
		t.Fatalf("joiner's lobby has turn limit %d, want 600", got)
	}
}
