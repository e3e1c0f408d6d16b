package session_test

import (
	"slices"
	"testing"

	"hostfall/session"
	"hostfall/session/simnet"
)

// A peer slow to load its game (a window building its game screen) is
// waited for in the open, never suspected: the others see "waiting for"
// its slot once the loading takes longer than FailTicks, turn 1 follows
// its load, and the host keeps hosting even when it is the slow one. A
// loader that never loads is dropped after LoadTicks, and the rest play.
func TestSlowLoaderIsWaitedForNotSuspected(t *testing.T) {
	for _, tc := range []struct {
		name     string
		slow     int // the peer that loads slowly
		ticks    int // how long it takes; -1: never
		wantWait bool
	}{
		{"a joiner quick enough shows no wait", 2, 20, false},
		{"a joiner taking 2 s", 2, 200, true},
		{"the host taking 2 s", 0, 200, true},
		{"a joiner taking 12 s", 1, 1200, true},
		{"a joiner that never loads", 2, -1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := simConfig()
			cfg.LoadTicks = 1500
			n := lobbyOf(t, 31, 3, cfg, "")
			for _, p := range n.Peers[1:] {
				if err := p.Node.EditSlot(session.SlotEdit{Name: string(p.ID), Ready: true}); err != nil {
					t.Fatal(err)
				}
			}
			slow := n.Peers[tc.slow]
			slow.LoadTicks = tc.ticks
			if tc.ticks < 0 {
				slow.LoadTicks = 1 << 30
			}
			n.Run(5)
			if err := n.Peers[0].Node.Start(); err != nil {
				t.Fatal(err)
			}
			n.Run(2 * cfg.LoadTicks)
			slot := slow.Status.Slot
			for _, p := range n.Peers {
				if p == slow {
					continue
				}
				waited, over := waitsFor(p, slot)
				if waited != tc.wantWait {
					t.Errorf("%s saw a wait for slot %d: %v, want %v", p.ID, slot, waited, tc.wantWait)
				}
				if waited && tc.ticks >= 0 && !over {
					t.Errorf("%s never saw the wait for slot %d end", p.ID, slot)
				}
				if p.HasEvent(session.EvHostChanged) || p.Left {
					t.Errorf("%s: the host changed or the peer left (%q) while a peer loaded", p.ID, p.LeftWhy)
				}
				if p.Last() == 0 {
					t.Errorf("%s: the game never started", p.ID)
				}
			}
			if !n.Peers[0].Status.IsHost {
				t.Error("peer 0 no longer hosts")
			}
			if tc.ticks >= 0 && slow.Last() == 0 {
				t.Errorf("the slow loader never played")
			}
			wentAway := slices.ContainsFunc(awayBack(n.Peers[0], slot), func(turn int) bool { return turn > 0 })
			if tc.ticks < 0 && (!wentAway || departed(n.Peers[0], slot) != 255) {
				t.Errorf("a loader that never loads: away %v, departure %v; want away, no departure",
					wentAway, departed(n.Peers[0], slot))
			}
			noViolations(t, n)
		})
	}
}

// waitsFor reports whether p was told to wait for slot, and whether the
// wait ended (EvWaitOver) after it began.
func waitsFor(p *simnet.Peer, slot int) (waited, over bool) {
	for _, e := range p.Events {
		switch {
		case e.Kind == session.EvWaiting && e.Slot == slot:
			waited, over = true, false
		case e.Kind == session.EvWaitOver && e.Slot == slot && waited:
			over = true
		}
	}
	return waited, over
}

func departed(p *simnet.Peer, slot int) session.DepartReason {
	for _, a := range p.Applied {
		for _, d := range a.Turn.Departures {
			if d.Slot == slot {
				return d.Reason
			}
		}
	}
	return 255
}
