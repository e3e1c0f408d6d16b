package session_test

import (
	"flag"
	"fmt"
	"testing"

	session "hostfall/session"
	"hostfall/session/simnet"
)

// oneOutcome fails unless every peer still in the game follows one host in
// one epoch, and every peer that left says why: no split outcome.
func oneOutcome(t *testing.T, n *simnet.Net, what string) {
	t.Helper()
	var ref *simnet.Peer
	for _, p := range n.Peers {
		if !p.Live() {
			continue
		}
		if ref == nil {
			ref = p
			continue
		}
		if p.Status.Host != ref.Status.Host || p.Status.Epoch != ref.Status.Epoch {
			for _, q := range n.Peers {
				t.Logf("%s up=%v left=%v %q last=%d epoch=%d status=%+v", q.ID, q.Up, q.Left, q.LeftWhy, q.Last(), q.LastEpoch(), q.Status)
			}
			t.Fatalf("%s: split outcome: %s follows %s (epoch %d), %s follows %s (epoch %d)", what,
				ref.ID, ref.Status.Host, ref.Status.Epoch, p.ID, p.Status.Host, p.Status.Epoch)
		}
	}
}

func survivorsLeft(n *simnet.Net) []string {
	var out []string
	for _, p := range n.Peers[1:] {
		if p.Up && p.Left {
			out = append(out, fmt.Sprintf("%s: %s", p.ID, p.LeftWhy))
		}
	}
	return out
}

// The next in line learns of the host's death only from silence (FailTicks)
// while the others see the connection reset at once, and its claim travels
// slowly: the others must wait for it (or follow it when it comes) rather
// than elect another, and nobody may be left behind or end up alone.
func TestSlowNextInLineIsFollowed(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			n := gameOf(t, seed, 4, simConfig())
			n.Run(20 + int(seed%7))
			host := n.Peers[0]
			var next *simnet.Peer
			for _, p := range n.Peers {
				if p.Status.Slot == 1 {
					next = p
				}
			}
			for _, p := range n.Peers[1:] {
				if p != next {
					n.Delay(next.ID, p.ID, 3+int(seed%5), 8+int(seed%5))
				}
			}
			// The host dies: its connection resets for everyone but next.
			n.Hang(host.ID)
			for _, p := range n.Peers[1:] {
				if p != next {
					_ = p.Node.Step(session.Message{Kind: session.MsgDisconnected, From: host.ID})
				}
			}
			n.Run(600)
			if l := survivorsLeft(n); len(l) > 0 {
				t.Fatalf("survivors left: %v", l)
			}
			oneOutcome(t, n, "slow next in line")
			noViolations(t, n)
		})
	}
}

// Every link 5 ticks ± 1 (50 ms ± 10 ms) over a lossy stream (1–3 % of
// messages resent 20–40 ticks later), the host killed mid-game (its
// connection reset seen by some, not others): the survivors all go on
// together in one game, and nobody is forced out. -netemseeds=N runs more.
var flagNetemSeeds = flag.Int("netemseeds", 200, "TestNetemHostKilled: number of seeds to run")

func TestNetemHostKilled(t *testing.T) {
	bad, splits, flagged := 0, 0, 0
	for seed := uint64(1); seed <= uint64(*flagNetemSeeds); seed++ {
		n := gameOf(t, seed, 4, simConfig())
		ids := []session.PeerID{}
		for _, p := range n.Peers {
			ids = append(ids, p.ID)
		}
		for _, a := range ids {
			for _, b := range ids {
				if a != b {
					n.Delay(a, b, 4, 6)
					n.Lossy(a, b, 10, 20+int(seed%3)*10)
				}
			}
		}
		n.Run(40 + int(seed%11))
		host := n.Peers[0]
		n.Hang(host.ID)
		for _, p := range n.Peers[1:] {
			if n.Rand.IntN(3) > 0 {
				_ = p.Node.Step(session.Message{Kind: session.MsgDisconnected, From: host.ID})
			}
		}
		n.Run(600)
		n.Heal()
		n.Run(400)
		n.Checker.Final(n)
		var live []*simnet.Peer
		for _, p := range n.Peers {
			if p.Live() {
				live = append(live, p)
			}
		}
		split := false
		for _, p := range live {
			if p.Status.Host != live[0].Status.Host || p.Status.Epoch != live[0].Status.Epoch {
				split = true
			}
		}
		if split {
			splits++
		}
		if len(n.Checker.Violations) > 0 {
			flagged++
		}
		if l := survivorsLeft(n); split || len(l) > 0 || len(n.Checker.Violations) > 0 {
			bad++
			if bad <= 5 || split {
				t.Errorf("seed %d: split=%v left=%v violations=%v", seed, split, l, n.Checker.Violations)
				for _, q := range n.Peers {
					t.Logf("  %s up=%v left=%v %q last=%d epoch=%d host=%s", q.ID, q.Up, q.Left, q.LeftWhy, q.Last(), q.LastEpoch(), q.Status.Host)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d seeds went wrong, %d of them split, %d with checker violations", bad, *flagNetemSeeds, splits, flagged)
	}
}
