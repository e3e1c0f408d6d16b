package session_test

import (
	"fmt"
	"slices"
	"testing"

	session "hostfall/session"
	"hostfall/session/simnet"
)

// An absence of any length — a stalled Wi-Fi link or a stopped process
// (SIGSTOP, a laptop lid), of a player or of the host, from 1 s to 5 min —
// ends with the absent peer back in its own slot, in one game with the
// others, caught up, and the game never stopped for it for longer than the
// wait. A tick is 10 ms: 100 ticks = 1 s, 30,000 ticks = 5 min.
func TestAbsenceOfAnyLengthEndsInOneGame(t *testing.T) {
	for _, c := range []struct {
		who   string // "player" or "host"
		how   string // "link" (isolated) or "stop" (paused)
		ticks int
	}{
		{"player", "link", 100}, {"player", "stop", 100},
		{"player", "link", 3000}, {"player", "stop", 3000},
		{"player", "link", 30000}, {"player", "stop", 30000},
		{"host", "link", 100}, {"host", "stop", 100},
		{"host", "link", 3000}, {"host", "stop", 3000},
		{"host", "link", 30000}, {"host", "stop", 30000},
	} {
		t.Run(fmt.Sprintf("%s-%s-%d", c.who, c.how, c.ticks), func(t *testing.T) {
			n := gameOf(t, uint64(c.ticks), 4, simConfig())
			n.Run(30)
			victim := n.Peers[2]
			if c.who == "host" {
				victim = hostOf(n)
			}
			slot := victim.Status.Slot
			if c.how == "link" {
				n.Isolate(victim.ID)
			} else {
				n.Pause(victim.ID, 0)
			}
			// The others play on meanwhile (checked every 10 s).
			for left := c.ticks; left > 0; left -= 1000 {
				before := maxOthers(n, victim)
				proposeAll(n)
				n.Run(min(left, 1000))
				if left >= 1000 && maxOthers(n, victim) < before+50 {
					t.Fatalf("the others stopped playing (turn %d → %d)", before, maxOthers(n, victim))
				}
			}
			n.Heal()
			n.Resume(victim.ID)
			ref := n.Peers[0]
			if ref == victim {
				ref = n.Peers[1]
			}
			took, ok := runUntil(n, 2000, func() bool {
				ab := awayBack(ref, slot)
				return victim.Status.Host == ref.Status.Host && victim.Status.Epoch == ref.Status.Epoch &&
					victim.Status.Slot == slot && victim.Last()+10 >= ref.Last() && (len(ab) == 0 || ab[len(ab)-1] < 0)
			})
			if !ok || victim.Left {
				t.Fatalf("%s is not back in slot %d after the heal: left=%v %+v (ref %+v)", victim.ID, slot, victim.Left, victim.Status, ref.Status)
			}
			t.Logf("back %d ticks after the heal", took)
			proposeAll(n)
			n.Run(300)
			noViolations(t, n)
		})
	}
}

// maxOthers is the newest turn held by a running peer other than p.
func maxOthers(n *simnet.Net, p *simnet.Peer) uint64 {
	var m uint64
	for _, q := range n.Peers {
		if q != p && q.Live() {
			m = max(m, q.Last())
		}
	}
	return m
}

// With AwayBot set, the host drives an away player's slot (a bot plays it)
// and hands it back when the player is back; the player's own commands
// then execute again, with no gap in the slot's numbering.
func TestAwayPlayersSlotIsPlayedByTheHostUntilBack(t *testing.T) {
	n := simnet.New(5, simConfig())
	host := n.Add(pid(0), "p0")
	if err := host.Node.Host(session.Settings{Name: "sim", MapSeed: 7, MaxPlayers: 8, AwayBot: 2}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 3; i++ {
		p := n.Add(pid(i), fmt.Sprintf("p%d", i))
		if err := p.Node.Join(host.ID); err != nil {
			t.Fatal(err)
		}
	}
	n.Run(20)
	playing(t, n)
	n.Run(20)
	victim := n.Peers[2]
	slot := victim.Status.Slot
	n.Isolate(victim.ID)
	if _, ok := runUntil(n, 1000, func() bool { return slices.Contains(host.Status.Drives, slot) }); !ok {
		t.Fatalf("the host does not drive away slot %d: %v", slot, host.Status.Drives)
	}
	if err := n.Propose(host, slot, []byte("bot-order")); err != nil {
		t.Fatalf("the host cannot order for the away slot: %v", err)
	}
	n.Run(30)
	if !containsCmd(n.Peers[1], "bot-order") {
		t.Fatal("the bot's order for the away slot did not execute")
	}
	n.Heal()
	if _, ok := runUntil(n, 1000, func() bool {
		ab := awayBack(host, slot)
		return len(ab) > 0 && ab[len(ab)-1] < 0
	}); !ok {
		t.Fatalf("the player is not back: %v", awayBack(host, slot))
	}
	if slices.Contains(host.Status.Drives, slot) {
		t.Fatalf("the host still drives slot %d after the player is back", slot)
	}
	if err := n.Propose(host, slot, []byte("late")); err == nil {
		t.Fatal("the host may still order for a slot whose player is back")
	}
	for i := range 3 {
		if err := n.Propose(victim, slot, []byte(fmt.Sprintf("mine-%d", i))); err != nil {
			t.Fatal(err)
		}
		n.Run(10)
	}
	n.Run(50)
	for i := range 3 {
		if !containsCmd(host, fmt.Sprintf("mine-%d", i)) {
			t.Fatalf("the returning player's order mine-%d did not execute", i)
		}
	}
	noViolations(t, n)
}

// A process restarted with the same identity never claims a generation it
// used before it crashed (Config.Generation is what it kept on disk), so
// two different histories never share an epoch.
func TestRestartedNodeNeverReusesAGeneration(t *testing.T) {
	// In a game: the restarted host of a crashed game claims above what it kept.
	net := gameOf(t, 3, 2, simConfig())
	net.Run(20)
	host := net.Peers[0]
	net.Crash(net.Peers[1].ID)
	net.Run(400)
	used := host.Status.Generation
	if used == 0 {
		t.Fatal("the host reports no generation")
	}
	net.Crash(host.ID)
	net.Restart(host.ID, net.Peers[1].ID)
	net.Run(1)
	if got := host.Status.Generation; got < used {
		t.Fatalf("the restarted process starts at generation %d, below %d it had used", got, used)
	}
}

// A process restarted with the same identity after the game moved on to a
// new host asks whichever player it can reach; a player that is not the
// host names the host, and the restarted process follows that answer and
// takes its own slot back (the old host as well as a joiner).
func TestRestartedPlayerAskingAMemberIsSentToTheHost(t *testing.T) {
	for _, who := range []string{"host", "player"} {
		t.Run(who, func(t *testing.T) {
			n := gameOf(t, 11, 4, simConfig())
			n.Run(30)
			victim := n.Peers[3]
			if who == "host" {
				victim = hostOf(n)
			}
			slot := victim.Status.Slot
			n.Crash(victim.ID)
			proposeAll(n)
			n.Run(500)
			ref := hostOf(n)
			var via *simnet.Peer
			for _, p := range n.Peers {
				if p != victim && p != ref && p.Live() {
					via = p
				}
			}
			n.Restart(victim.ID, via.ID)
			took, ok := runUntil(n, 2000, func() bool {
				ab := awayBack(ref, slot)
				return !victim.Left && victim.Status.Host == ref.ID && victim.Status.Slot == slot &&
					victim.Last()+10 >= ref.Last() && len(ab) > 0 && ab[len(ab)-1] < 0
			})
			if !ok {
				t.Fatalf("%s asked %s and is not back in slot %d: left=%v %+v (host %s %+v)",
					victim.ID, via.ID, slot, victim.Left, victim.Status, ref.ID, ref.Status)
			}
			t.Logf("back %d ticks after the restart", took)
			proposeAll(n)
			n.Run(300)
			noViolations(t, n)
		})
	}
}

// A host whose other players are all away is still the game: a claim from
// one of them (it lost the host and ran for host on its own, and its claim
// arrives when its link comes back) is not a majority of the players, so
// the host keeps its game and the claimer comes back into it.
func TestAHostAloneKeepsItsGameAgainstAnAwayClaimer(t *testing.T) {
	for heal := 400; heal <= 1400; heal += 100 {
		t.Run(fmt.Sprint(heal), func(t *testing.T) {
			n := gameOf(t, uint64(heal), 3, simConfig())
			n.Run(30)
			host := hostOf(n)
			others := othersThan(n, host)
			// others[0] stops; others[1] loses its links, and what it sends
			// meanwhile (its claims) reaches the host when they are back.
			n.Pause(others[0].ID, 0)
			c := others[1].ID
			n.Queue(c, host.ID)
			n.Cut(c, others[0].ID)
			top := host.Last()
			n.Run(100)
			if err := n.Propose(host, host.Status.Slot, []byte("played-alone")); err != nil {
				t.Fatal(err)
			}
			for left := heal; left > 0; left -= 10 {
				proposeAll(n)
				n.Run(10)
				if host.Last() < top {
					t.Fatalf("the host rolled back from turn %d to %d while alone", top, host.Last())
				}
				top = host.Last()
			}
			n.Heal()
			for range 100 {
				proposeAll(n)
				n.Run(10)
				if host.Last() < top {
					t.Fatalf("the host's game (turn %d) was rolled back to turn %d by %s's claim", top, host.Last(), others[1].ID)
				}
				top = host.Last()
			}
			n.Resume(others[0].ID)
			n.Run(500)
			if h := hostOf(n); !containsCmd(h, "played-alone") {
				t.Fatalf("the game %s hosts lost what %s played while alone", h.ID, host.ID)
			}
			noViolations(t, n)
		})
	}
}
