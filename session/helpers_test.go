package session_test

import (
	"fmt"
	"testing"

	"hostfall/session"
	"hostfall/session/simnet"
)

// simConfig is the tests' config. Its snapshots go whole (the toy game's
// are 25 bytes): with 8-byte chunks, 3 of 10,000 soak schedules failed,
// where one part of a joiner's snapshot was lost on a faulty link and
// nothing sends a lost snapshot again (seeds 1004505, 1004561; see
// chunk_test.go for the parts themselves).
func simConfig() session.Config {
	return session.Config{GameVersion: "0.1.0", CountdownTicks: 2}
}

func pid(i int) session.PeerID { return session.PeerID(fmt.Sprintf("peer-%d", i)) }

// lobbyOf builds a network with `players` peers in one lobby, peer 0 hosting.
func lobbyOf(tb testing.TB, seed uint64, players int, cfg session.Config, pw string) *simnet.Net {
	tb.Helper()
	n := simnet.New(seed, cfg)
	host := n.Add(pid(0), "p0")
	if err := host.Node.Host(session.Settings{Name: "sim", MapSeed: 7, MaxPlayers: 8, Password: pw}); err != nil {
		tb.Fatal(err)
	}
	for i := 1; i < players; i++ {
		p := n.Add(pid(i), fmt.Sprintf("p%d", i))
		if err := p.Node.Join(pid(0)); err != nil {
			tb.Fatal(err)
		}
	}
	n.Run(10)
	return n
}

// gameOf builds a network of `players` peers that are playing.
func gameOf(tb testing.TB, seed uint64, players int, cfg session.Config) *simnet.Net {
	tb.Helper()
	return playing(tb, lobbyOf(tb, seed, players, cfg, ""))
}

// playing readies every player of lobby n, starts the game and runs until
// everyone plays.
func playing(tb testing.TB, n *simnet.Net) *simnet.Net {
	tb.Helper()
	for _, p := range n.Peers[1:] {
		if err := p.Node.EditSlot(session.SlotEdit{Name: string(p.ID), Ready: true}); err != nil {
			tb.Fatal(err)
		}
	}
	n.Run(5)
	if err := n.Peers[0].Node.Start(); err != nil {
		tb.Fatal(err)
	}
	for range 1000 {
		n.Tick()
		if allPlaying(n) {
			return n
		}
	}
	tb.Fatalf("the game did not start: %+v", n.Peers[0].Status)
	return nil
}

func allPlaying(n *simnet.Net) bool {
	for _, p := range n.Peers {
		if p.Live() && p.Last() == 0 {
			return false
		}
	}
	return true
}

func hostOf(n *simnet.Net) *simnet.Peer {
	var best *simnet.Peer
	for _, p := range n.Peers {
		if p.Live() && p.Status.IsHost && (best == nil || p.Status.Epoch > best.Status.Epoch) {
			best = p
		}
	}
	return best
}

var cmdCounter int

// proposeAll has every live player propose one command for its own slot.
func proposeAll(n *simnet.Net) {
	for _, p := range n.Peers {
		if p.Live() && p.Status.Slot >= 0 && p.Status.State == session.StatePlaying {
			cmdCounter++
			_ = n.Propose(p, p.Status.Slot, []byte(fmt.Sprintf("%s#%d", p.ID, cmdCounter)))
		}
	}
}

func noViolations(tb testing.TB, n *simnet.Net) {
	tb.Helper()
	n.Checker.Final(n)
	for _, v := range n.Checker.Violations {
		tb.Error(v)
	}
}

// awayBack lists, as p applied them, the turns where slot went away (+turn)
// and came back (-turn).
func awayBack(p *simnet.Peer, slot int) []int {
	var r []int
	for _, a := range p.Applied {
		for _, pr := range a.Turn.Presence {
			if pr.Slot == slot && pr.Away {
				r = append(r, int(a.Number))
			} else if pr.Slot == slot {
				r = append(r, -int(a.Number))
			}
		}
	}
	return r
}
