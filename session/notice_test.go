package session_test

import (
	"fmt"
	"slices"
	"testing"

	"hostfall/session"
	"hostfall/session/simnet"
)

// A survivor that was cut off while the host left, and comes back into the
// game by snapshot, still sees the host leave: the snapshot brings the
// departure and its reason, and the survivor shows it exactly once.
func TestBackBySnapshotSeesWhoLeft(t *testing.T) {
	cfg := simConfig()
	snapshots := 0
	for _, players := range []int{3, 4} {
		for _, away := range []string{"cut", "stopped"} {
			t.Run(fmt.Sprintf("%d-%s", players, away), func(t *testing.T) {
				for seed := uint64(1); seed <= 4; seed++ {
					if backBySnapshot(t, seed*10+uint64(players), players, away, cfg) {
						snapshots++
					}
				}
			})
		}
	}
	t.Logf("%d of 16 came back by snapshot", snapshots)
	if snapshots == 0 {
		t.Error("nobody came back by snapshot: the case is not tested")
	}
}

// backBySnapshot plays the case once and reports whether the late player
// came back by snapshot.
func backBySnapshot(t *testing.T, seed uint64, players int, away string, cfg session.Config) bool {
	n := gameOf(t, seed, players, cfg)
	proposeAll(n)
	n.Run(30)
	h := hostOf(n)
	slot := h.Status.Slot
	late := n.Peers[players-1] // not the candidate: the last listed
	if away == "cut" {
		n.Isolate(late.ID)
	} else {
		n.Pause(late.ID, 0)
	}
	n.Leave(h)
	n.Exit(h.ID)
	for range 600 { // the others hand over and play on without it
		n.Tick()
		proposeAll(n)
	}
	n.Heal()
	n.Resume(late.ID)
	_, ok := runUntil(n, 3000, func() bool {
		proposeAll(n)
		h2 := hostOf(n)
		return h2 != nil && late.Status.Host == h2.ID && late.Status.Slot >= 0 && late.Last()+10 >= h2.Last()
	})
	if !ok {
		t.Fatalf("seed %d: %s is not back in the game: %+v", seed, late.ID, late.Status)
	}
	n.Run(1000) // quiet: what was proposed executes
	if hostOf(n) == late {
		// Its side won the heal (40 turns ahead): the others rejoined it,
		// and the host's departure went with their side's play.
		t.Logf("seed %d: %s won the heal: not the case tested", seed, late.ID)
		noViolations(t, n)
		return false
	}
	for _, p := range n.Peers {
		if !p.Live() {
			continue
		}
		left := 0
		for _, e := range p.Events {
			if e.Kind == session.EvPlayerLeft && e.Slot == slot {
				left++
				if e.Reason != session.DepartLeft {
					t.Errorf("seed %d: %s shows the host's departure as %v, want %v", seed, p.ID, e.Reason, session.DepartLeft)
				}
			}
		}
		if left != 1 {
			t.Errorf("seed %d: %s (restores %d) showed the host (slot %d) leave %d times, want once", seed, p.ID, p.Restores, slot, left)
		}
	}
	noViolations(t, n)
	return late.Restores > 0
}

// A candidate that shows "waiting for the other players" and then learns
// the others went on with a newer host goes to seek that game: its wait is
// over, and it says so (EvWaitOver), whatever way the candidacy ends.
func TestSeekingCandidateEndsItsWait(t *testing.T) {
	cfg := simConfig()
	sought := 0
	for seed := uint64(1); seed <= 6; seed++ {
		n := gameOf(t, seed, 4, cfg)
		proposeAll(n)
		n.Run(30)
		h := hostOf(n)
		a := n.Peers[1] // the first candidate after the host
		n.Isolate(a.ID)
		n.Run(5)
		n.Crash(h.ID)
		if _, ok := runUntil(n, 150, func() bool { return waitingFor(a, -1) }); !ok {
			t.Fatalf("seed %d: %s never showed a wait for the others: %+v", seed, a.ID, a.Status)
		}
		n.Heal()
		_, ok := runUntil(n, 3000, func() bool {
			proposeAll(n)
			h2 := hostOf(n)
			return h2 != nil && h2 != a && a.Status.Host == h2.ID && a.Status.Slot >= 0
		})
		if !ok {
			t.Fatalf("seed %d: %s never followed the others' host: %+v", seed, a.ID, a.Status)
		}
		if a.Status.Host != n.Peers[2].ID || !slices.ContainsFunc(a.Events, func(e session.Event) bool { return e.Kind == session.EvHostChanged }) {
			continue
		}
		sought++
		for _, p := range n.Peers {
			if p.Live() && waitingFor(p, -1) {
				t.Errorf("seed %d: %s still shows a wait for the other players", seed, p.ID)
			}
		}
		n.Run(1000)
		noViolations(t, n)
	}
	t.Logf("%d of 6 candidates went to the others' game", sought)
}

// waitingFor reports whether p's last wait notice for slot (-1: the other
// players) is a wait that has not ended.
func waitingFor(p *simnet.Peer, slot int) bool {
	for i := len(p.Events) - 1; i >= 0; i-- {
		switch e := p.Events[i]; {
		case e.Kind == session.EvWaiting && e.Slot == slot:
			return true
		case e.Kind == session.EvWaitOver && e.Slot == slot:
			return false
		}
	}
	return false
}
