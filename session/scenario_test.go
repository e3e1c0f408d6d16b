package session_test

import (
	"testing"

	session "hostfall/session"
	"hostfall/session/simnet"
)

// runUntil ticks until cond holds, at most limit ticks; it returns the ticks taken.
func runUntil(n *simnet.Net, limit int, cond func() bool) (int, bool) {
	for i := 1; i <= limit; i++ {
		n.Tick()
		if cond() {
			return i, true
		}
	}
	return limit, false
}

// newTurnAfter reports whether some live peer applied a turn of a newer epoch than e.
func newTurnAfter(n *simnet.Net, e uint64) func() bool {
	return func() bool {
		for _, p := range n.Peers {
			if p.Live() && p.LastEpoch() > e {
				return true
			}
		}
		return false
	}
}

func TestEightPeersHostKilledSevenTimesLastPlaysAlone(t *testing.T) {
	for _, silent := range []bool{false, true} {
		n := gameOf(t, 2, 8, simConfig())
		for kill := range 7 {
			h := hostOf(n)
			if h == nil {
				t.Fatalf("kill %d: no host", kill)
			}
			e := h.LastEpoch()
			proposeAll(n)
			n.Run(3)
			if silent {
				n.Hang(h.ID)
			} else {
				n.Crash(h.ID)
			}
			ticks, ok := runUntil(n, 400, newTurnAfter(n, e))
			if !ok {
				for _, p := range n.Peers {
					t.Logf("%s up=%v left=%v %q last=%d status=%+v", p.ID, p.Up, p.Left, p.LeftWhy, p.Last(), p.Status)
				}
				t.Fatalf("silent=%v kill %d: turns did not resume", silent, kill)
			}
			t.Logf("silent=%v kill %d of %s: turns resumed after %d ticks", silent, kill, h.ID, ticks)
			n.Run(30)
		}
		last := hostOf(n)
		if last == nil || last.Status.Slot != 7 {
			t.Fatalf("the last player in the list does not host: %v", last.Status)
		}
		before := last.Last()
		proposeAll(n)
		n.Run(100)
		if last.Last() < before+15 {
			t.Fatalf("the last peer does not play on alone: %d → %d", before, last.Last())
		}
		noViolations(t, n)
	}
}

var _ = session.MsgNone

func TestDesyncOfOnePeerIsRepaired(t *testing.T) {
	n := gameOf(t, 3, 4, simConfig())
	n.Run(20)
	victim := n.Peers[2]
	n.Desync(victim.ID)
	at := n.Peers[0].Last()
	n.Run(200)
	if victim.Restores == 0 {
		for _, p := range n.Peers {
			t.Logf("%s last=%d state=%x restores=%d", p.ID, p.Last(), p.State, p.Restores)
		}
		t.Fatal("not repaired")
	}
	if victim.State != n.Peers[0].State && victim.Last() == n.Peers[0].Last() {
		t.Fatal("victim state still differs")
	}
	if !victim.HasEvent(session.EvDesync) || !victim.HasEvent(session.EvDesyncRepaired) {
		t.Fatal("victim saw no desync events")
	}
	t.Logf("diverged at turn %d, repaired within %d turns", at, n.Checker.WorstDesyncTurns)
	noViolations(t, n)
}
