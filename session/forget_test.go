package session

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// 10,000 fresh identities that connect to a host and go leave no record in
// it after a while; a player's stays.
func TestGoneStrangersAreForgotten(t *testing.T) {
	n, err := NewNode(Config{Self: "host", Name: "h", GameVersion: "0.1.0", Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Host(Settings{Name: "g", MaxPlayers: 4}); err != nil {
		t.Fatal(err)
	}
	for i := range 10_000 {
		p := PeerID(fmt.Sprintf("stranger-%d", i))
		_ = n.Step(Message{Kind: MsgConnected, From: p})
		_ = n.Step(Message{Kind: MsgDisconnected, From: p, Closed: true})
	}
	n.lobby.Spectators = append(n.lobby.Spectators, "watcher")
	_ = n.Step(Message{Kind: MsgDisconnected, From: "watcher", Closed: true})
	t.Logf("FIGURE before: connLost %d, closed %d", len(n.connLost), len(n.closed))
	for range forgetEvery {
		n.Tick()
	}
	if len(n.connLost) != 1 || len(n.closed) != 1 || !n.closed["watcher"] {
		t.Fatalf("after %d ticks: connLost %d, closed %d (want only the spectator's)", forgetEvery, len(n.connLost), len(n.closed))
	}
}
