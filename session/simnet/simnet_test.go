package simnet

import (
	"testing"

	"hostfall/session"
)

func twoPeers(t *testing.T, seed uint64) *Net {
	t.Helper()
	n := New(seed, session.Config{GameVersion: "t"})
	a, b := n.Add("a", "A"), n.Add("b", "B")
	if err := a.Node.Host(session.Settings{MaxPlayers: 2}); err != nil {
		t.Fatal(err)
	}
	if err := b.Node.Join("a"); err != nil {
		t.Fatal(err)
	}
	n.Run(10)
	return n
}

func TestJoinOverTheSimulatedWire(t *testing.T) {
	n := twoPeers(t, 1)
	if s := n.Peer("b").Status; !s.Joined || s.Slot != 1 || s.Host != "a" {
		t.Fatalf("b: %+v", s)
	}
	if n.Msgs == 0 || n.Bytes["a"] == 0 {
		t.Fatal("nothing crossed the wire")
	}
}

func TestCutReportsAndDropsInFlight(t *testing.T) {
	n := twoPeers(t, 2)
	before := len(n.Peer("b").Events)
	n.Cut("a", "b")
	n.Run(400)
	// b lost its host: it waits DropTicks (300) for it, then, with nobody
	// else in the game, it hosts alone.
	if !n.Peer("b").Status.IsHost {
		t.Fatalf("b after the cut: %+v (events %d→%d)", n.Peer("b").Status, before, len(n.Peer("b").Events))
	}
	if len(n.Checker.Violations) > 0 {
		t.Fatal(n.Checker.Violations)
	}
}

func TestLinksKeepOrder(t *testing.T) {
	n := New(3, session.Config{})
	n.Add("x", "x")
	n.Add("y", "y")
	n.Delay("x", "y", 1, 9)
	var last int
	for i := range 50 {
		n.send(n.Peer("x"), session.Message{Kind: session.MsgPing, To: "y", Turn: uint64(i + 1)})
	}
	for _, e := range n.queue {
		if e.at < last {
			t.Fatal("a later message overtook an earlier one on the same link")
		}
		last = e.at
	}
}
