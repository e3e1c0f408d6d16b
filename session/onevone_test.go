package session_test

import (
	"slices"
	"testing"

	session "hostfall/session"
	"hostfall/session/simnet"
)

// In a game of two, how the host disappears decides how long the survivor
// waits: a process that died has its connection closed or reset (the
// survivor is alone, and knows it), a silent one may only be slow or cut
// off, and a majority of one out of two is no majority. Each case ends in
// one game once the two can talk again.
func TestOneVOneHostLoss(t *testing.T) {
	cfg := simConfig()
	cfg.FailTicks, cfg.DropTicks = 30, 300 // the defaults, named
	for _, c := range []struct {
		name  string
		fault func(n *simnet.Net, host, other session.PeerID)
		fast  bool // the survivor plays on without waiting DropTicks
		heal  bool // the host lives: the two meet again and must merge
	}{
		{"crash", func(n *simnet.Net, h, _ session.PeerID) { n.Crash(h) }, true, false},
		{"hang", func(n *simnet.Net, h, _ session.PeerID) { n.Hang(h) }, false, false},
		{"stop", func(n *simnet.Net, h, _ session.PeerID) { n.Pause(h, 0) }, false, true},
		{"cut", func(n *simnet.Net, h, o session.PeerID) { n.Cut(h, o) }, false, true},
		// Both live yet each reads a close: a split, not a crash. The
		// survivor goes on at once; the senior decides once they meet.
		{"reset", func(n *simnet.Net, h, o session.PeerID) { n.Reset(h, o) }, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := gameOf(t, 29, 2, cfg)
			proposeAll(n)
			n.Run(30)
			h := hostOf(n)
			other := n.Peers[0]
			if other == h {
				other = n.Peers[1]
			}
			e := h.LastEpoch()
			c.fault(n, h.ID, other.ID)
			ticks, ok := runUntil(n, 2*cfg.DropTicks, func() bool { return other.LastEpoch() > e })
			if !ok {
				t.Fatalf("the survivor's turns never resumed: %+v", other.Status)
			}
			t.Logf("%s: the survivor's turns flow again after %d ticks (FailTicks %d, DropTicks %d)", c.name, ticks, cfg.FailTicks, cfg.DropTicks)
			if c.fast && ticks >= cfg.FailTicks {
				t.Errorf("%s: %d ticks: the survivor waited for a host whose connection closed", c.name, ticks)
			}
			if !c.fast && ticks < cfg.DropTicks {
				t.Errorf("%s: %d ticks: the survivor played on alone before DropTicks (%d) with a host that may be alive", c.name, ticks, cfg.DropTicks)
			}
			if c.heal {
				n.Heal()
				n.Resume(h.ID)
				oneGameAgain(t, n, h, other, c.name)
			}
			proposeAll(n)
			n.Run(300)
			noViolations(t, n)
		})
	}
}

// A restarted host (same identity, all state lost) resets its old
// connection: the survivor hosts at once, and the restarted process finds
// the game again in its old slot.
func TestOneVOneHostRestartsAfterCrash(t *testing.T) {
	cfg := simConfig()
	cfg.FailTicks, cfg.DropTicks = 30, 300
	n := gameOf(t, 30, 2, cfg)
	proposeAll(n)
	n.Run(30)
	h := hostOf(n)
	other := n.Peers[1]
	if other == h {
		other = n.Peers[0]
	}
	slot, e := h.Status.Slot, h.LastEpoch()
	n.Crash(h.ID)
	n.Restart(h.ID, other.ID) // it rejoins the game it played (--rejoin)
	if _, ok := runUntil(n, cfg.FailTicks, func() bool { return other.LastEpoch() > e }); !ok {
		t.Fatalf("the survivor waited for a restarted host: %+v", other.Status)
	}
	took, ok := runUntil(n, 3000, func() bool {
		return h.Status.Host == other.ID && h.Status.Slot == slot && h.Last()+10 >= other.Last()
	})
	if !ok {
		t.Fatalf("the restarted host is not back in slot %d: %+v", slot, h.Status)
	}
	t.Logf("restarted host back in its slot %d ticks later", took)
	proposeAll(n)
	n.Run(300)
	noViolations(t, n)
}

// A host that leaves a game of two on purpose (its Bye) is replaced at
// once: the survivor does not wait for a player that said goodbye.
func TestOneVOneHostLeaves(t *testing.T) {
	cfg := simConfig()
	cfg.FailTicks, cfg.DropTicks = 30, 300
	n := gameOf(t, 32, 2, cfg)
	proposeAll(n)
	n.Run(30)
	h := hostOf(n)
	other := n.Peers[1]
	if other == h {
		other = n.Peers[0]
	}
	e := h.LastEpoch()
	n.Leave(h)
	ticks, ok := runUntil(n, cfg.DropTicks, func() bool { return other.LastEpoch() > e })
	if !ok || ticks >= cfg.FailTicks {
		t.Fatalf("the survivor's turns flow again after %d ticks (ok %v): it waited for a host that left", ticks, ok)
	}
	t.Logf("the survivor hosts %d ticks after the Bye", ticks)
	proposeAll(n)
	n.Run(100)
	noViolations(t, n)
}

// A candidate's wait for the others ("waiting for the other players")
// always ends in an event that says so — a new host, or the wait's end when
// it goes back to a host that answered — so no screen counts it down after.
func TestOneVOneWaitForOthersEnds(t *testing.T) {
	cfg := simConfig()
	cfg.FailTicks, cfg.DropTicks = 30, 300
	for _, cutFor := range []int{60, 150, 250, 400} {
		n := gameOf(t, 33, 2, cfg)
		proposeAll(n)
		n.Run(30)
		h := hostOf(n)
		other := n.Peers[1]
		if other == h {
			other = n.Peers[0]
		}
		k := len(other.Events)
		n.Cut(h.ID, other.ID)
		n.Run(cutFor)
		n.Heal()
		proposeAll(n)
		n.Run(600)
		open := false
		for _, e := range other.Events[k:] {
			switch {
			case e.Kind == session.EvWaiting && e.Slot == -1:
				open = true
			case e.Kind == session.EvWaitOver && e.Slot == -1, e.Kind == session.EvHostChanged:
				open = false
			}
		}
		if open {
			t.Errorf("cut for %d ticks: the wait for the other players never ended", cutFor)
		}
		noViolations(t, n)
	}
}

// A host that leaves on purpose is a departure for every survivor, however
// its Bye and the close of its connections interleave: here its close
// notice overtakes the Bye at some survivors (the first candidate among
// them), which then run for host before they read it. Every survivor sees
// the host's slot leave (never away), in games of two, three and four.
func TestHostLeavesCloseBeforeBye(t *testing.T) {
	cfg := simConfig()
	cfg.FailTicks, cfg.DropTicks = 30, 300
	for players := 2; players <= 4; players++ {
		for late := 0; late < 1<<(players-1); late++ { // which survivors read the close first
			n := gameOf(t, uint64(40+players), players, cfg)
			proposeAll(n)
			n.Run(30)
			h := hostOf(n)
			survivors := othersThan(n, h)
			for i, p := range survivors {
				if late&(1<<i) != 0 {
					n.Delay(h.ID, p.ID, 5, 5)
				}
			}
			slot := h.Status.Slot
			n.Leave(h)
			n.Exit(h.ID)
			left := func(p *simnet.Peer) bool {
				return slices.ContainsFunc(p.Events, func(e session.Event) bool { return e.Kind == session.EvPlayerLeft && e.Slot == slot })
			}
			ticks, ok := runUntil(n, cfg.DropTicks, func() bool {
				proposeAll(n)
				return !slices.ContainsFunc(survivors, func(p *simnet.Peer) bool { return !left(p) })
			})
			for _, p := range survivors {
				for _, e := range p.Events {
					if e.Kind == session.EvPlayerAway && e.Slot == slot && late == 0 {
						t.Errorf("%d players, late %b: %s saw the leaving host away", players, late, p.ID)
					}
				}
			}
			if !ok {
				t.Fatalf("%d players, late %b: not every survivor saw the host leave in %d ticks", players, late, cfg.DropTicks)
			}
			t.Logf("%d players, close before Bye at %b: every survivor saw the host leave after %d ticks", players, late, ticks)
			n.Run(100)
			noViolations(t, n)
		}
	}
}

// A joiner of a game of two that disappears: a process that died (its
// connection closed or reset) is away at once and the host's game goes on;
// one only silent (hung, cut off) is waited for DropTicks as before. A live
// joiner whose connection was reset plays on alone meanwhile (a split),
// and the two make one game again once they meet.
func TestOneVOneJoinerLoss(t *testing.T) {
	cfg := simConfig()
	cfg.FailTicks, cfg.DropTicks = 30, 300
	for _, c := range []struct {
		name  string
		fault func(n *simnet.Net, host, joiner session.PeerID)
		fast  bool // away without the DropTicks wait
		heal  bool // the joiner lives: one game after the heal
	}{
		{"crash", func(n *simnet.Net, _, j session.PeerID) { n.Crash(j) }, true, false},
		{"exit", func(n *simnet.Net, _, j session.PeerID) { n.Exit(j) }, true, false},
		{"hang", func(n *simnet.Net, _, j session.PeerID) { n.Hang(j) }, false, false},
		{"cut", func(n *simnet.Net, h, j session.PeerID) { n.Cut(h, j) }, false, true},
		{"reset", func(n *simnet.Net, h, j session.PeerID) { n.Reset(h, j) }, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := gameOf(t, 34, 2, cfg)
			proposeAll(n)
			n.Run(30)
			h := hostOf(n)
			j := othersThan(n, h)[0]
			slot := j.Status.Slot
			c.fault(n, h.ID, j.ID)
			ticks, ok := runUntil(n, 2*cfg.DropTicks, func() bool { return len(awayBack(h, slot)) > 0 })
			if !ok {
				t.Fatalf("the host never marked the joiner away: %+v", h.Status)
			}
			t.Logf("%s: the joiner is away on the host after %d ticks (FailTicks %d, DropTicks %d)", c.name, ticks, cfg.FailTicks, cfg.DropTicks)
			if c.fast && ticks >= cfg.FailTicks {
				t.Errorf("%s: %d ticks: the host waited for a joiner whose connection closed", c.name, ticks)
			}
			if !c.fast && ticks < cfg.DropTicks {
				t.Errorf("%s: %d ticks: a joiner that may be alive was away before DropTicks (%d)", c.name, ticks, cfg.DropTicks)
			}
			last := h.Last()
			proposeAll(n)
			n.Run(50)
			if h.Last() <= last {
				t.Errorf("%s: the host's turns stand still at %d after the joiner went away", c.name, last)
			}
			if c.heal {
				n.Heal()
				oneGameAgain(t, n, h, j, c.name)
			}
			proposeAll(n)
			n.Run(300)
			noViolations(t, n)
		})
	}
}

// A joiner that leaves on purpose and exits is a departure on the host at
// once, never away, though its close follows its Bye within a tick.
func TestOneVOneJoinerLeavesAndExits(t *testing.T) {
	cfg := simConfig()
	cfg.FailTicks, cfg.DropTicks = 30, 300
	n := gameOf(t, 35, 2, cfg)
	proposeAll(n)
	n.Run(30)
	h := hostOf(n)
	j := othersThan(n, h)[0]
	slot := j.Status.Slot
	n.Leave(j)
	n.Exit(j.ID)
	ticks, ok := runUntil(n, cfg.DropTicks, func() bool {
		return slices.ContainsFunc(h.Events, func(e session.Event) bool { return e.Kind == session.EvPlayerLeft && e.Slot == slot })
	})
	if !ok || ticks >= cfg.FailTicks {
		t.Fatalf("the host saw the joiner leave after %d ticks (ok %v)", ticks, ok)
	}
	if slices.ContainsFunc(h.Events, func(e session.Event) bool { return e.Kind == session.EvPlayerAway && e.Slot == slot }) {
		t.Errorf("the host saw the leaving joiner away")
	}
	t.Logf("the host saw the joiner leave after %d ticks", ticks)
	proposeAll(n)
	n.Run(100)
	noViolations(t, n)
}

// oneGameAgain runs n until a and b play one game again (one host, one
// epoch, both in a slot, within 10 turns of each other).
func oneGameAgain(t *testing.T, n *simnet.Net, a, b *simnet.Peer, name string) {
	t.Helper()
	took, ok := runUntil(n, 3000, func() bool {
		return a.Live() && b.Live() && a.Status.Host == b.Status.Host && a.Status.Epoch == b.Status.Epoch &&
			a.Status.Slot >= 0 && b.Status.Slot >= 0 && a.Last()+10 >= b.Last() && b.Last()+10 >= a.Last()
	})
	if !ok {
		t.Fatalf("not one game after the heal: %+v / %+v", a.Status, b.Status)
	}
	t.Logf("%s: one game %d ticks after the heal", name, took)
}

// A Bye can be lost in the hang-up (a connection reset with frames
// unread). Where the candidate lost its copy but another survivor read
// its own, the follower passes it on with its vote, and the host's slot
// still leaves rather than goes away.
func TestHostByeLostAtTheCandidate(t *testing.T) {
	cfg := simConfig()
	cfg.FailTicks, cfg.DropTicks = 30, 300
	for players := 3; players <= 4; players++ {
		n := gameOf(t, uint64(50+players), players, cfg)
		proposeAll(n)
		n.Run(30)
		h := hostOf(n)
		survivors := othersThan(n, h)
		first := survivors[0] // the first listed: the candidate
		n.Lose = func(from session.PeerID, m session.Message) bool {
			return from == h.ID && m.To == first.ID && m.Kind == session.MsgBye
		}
		slot := h.Status.Slot
		n.Leave(h)
		n.Exit(h.ID)
		n.Lose = nil
		ticks, ok := runUntil(n, cfg.DropTicks, func() bool {
			proposeAll(n)
			return !slices.ContainsFunc(survivors, func(p *simnet.Peer) bool {
				return !slices.ContainsFunc(p.Events, func(e session.Event) bool { return e.Kind == session.EvPlayerLeft && e.Slot == slot })
			})
		})
		if !ok {
			t.Fatalf("%d players: not every survivor saw the host leave in %d ticks", players, cfg.DropTicks)
		}
		if h2 := hostOf(n); h2 != first {
			t.Errorf("%d players: %s hosts, want %s, the first listed", players, h2.ID, first.ID)
		}
		t.Logf("%d players, the candidate's Bye lost: every survivor saw the host leave after %d ticks", players, ticks)
		n.Run(100)
		noViolations(t, n)
	}
}

// othersThan lists n's peers but p.
func othersThan(n *simnet.Net, p *simnet.Peer) []*simnet.Peer {
	return slices.DeleteFunc(slices.Clone(n.Peers), func(q *simnet.Peer) bool { return q == p })
}
