package session_test

import (
	"testing"

	"hostfall/session"
	"hostfall/session/simnet"
)

// A hostile member makes messages up (simnet.Inject): the tests below check
// that no single member's word changes who hosts, and that a repair takes
// its snapshot only from the source the host named.

// epochOf is the epoch a player of slot would claim at generation gen.
func epochOf(gen uint64, slot int) uint64 { return gen<<4 | uint64(slot) }

// inSlot is the peer that plays slot.
func inSlot(t *testing.T, n *simnet.Net, slot int) *simnet.Peer {
	t.Helper()
	for _, p := range n.Peers {
		if p.Status.Slot == slot {
			return p
		}
	}
	t.Fatalf("nobody plays slot %d", slot)
	return nil
}

// steadyHost runs n for ticks, with the players proposing, and fails if the
// host (peer 0) stops hosting or anybody else starts.
func steadyHost(t *testing.T, n *simnet.Net, ticks int, each func(tick int)) {
	t.Helper()
	epoch := n.Peers[0].Status.Epoch
	for i := range ticks {
		each(i)
		if i%5 == 0 {
			proposeAll(n)
		}
		n.Tick()
		for _, p := range n.Peers {
			if p.Live() && p.Status.Host != pid(0) {
				t.Fatalf("tick %d: %s follows %s, not the host peer-0", i, p.ID, p.Status.Host)
			}
		}
		if !n.Peers[0].Status.IsHost || n.Peers[0].Status.Epoch != epoch {
			t.Fatalf("tick %d: peer-0 no longer hosts epoch %d: %+v", i, epoch, n.Peers[0].Status)
		}
	}
}

func TestForgedRivalMessagesDoNotUnseatTheHost(t *testing.T) {
	const x = 3 // the hostile member's slot (the host plays slot 0)
	cases := []struct {
		name string
		msg  func(gen, turn uint64, bad, one session.PeerID) session.Message
	}{
		{"ping claiming a larger senior side", func(gen, turn uint64, bad, one session.PeerID) session.Message {
			return session.Message{Kind: session.MsgPing, Epoch: epochOf(gen+5, x), Count: 100, Slot: 0, Turn: turn + 1000}
		}},
		{"ping claiming a larger junior side", func(gen, turn uint64, bad, one session.PeerID) session.Message {
			return session.Message{Kind: session.MsgPing, Epoch: epochOf(gen+5, x), Count: 100, Slot: x, Turn: turn + 1000}
		}},
		{"ping in another player's name", func(gen, turn uint64, bad, one session.PeerID) session.Message {
			return session.Message{Kind: session.MsgPing, Epoch: epochOf(gen+5, 1), Count: 1, Slot: 1, Turn: turn + 1000}
		}},
		{"merge order from a senior it is not", func(gen, turn uint64, bad, one session.PeerID) session.Message {
			return session.Message{Kind: session.MsgMerge, Epoch: epochOf(gen+5, x), Count: 100, Slot: 0, Turn: turn + 1000,
				Targets: []session.PeerID{bad}}
		}},
		{"merge order in another player's name", func(gen, turn uint64, bad, one session.PeerID) session.Message {
			return session.Message{Kind: session.MsgMerge, Epoch: epochOf(gen+5, 1), Count: 100, Slot: 1, Turn: turn,
				Targets: []session.PeerID{one}}
		}},
		{"claim of a much newer generation", func(gen, turn uint64, bad, one session.PeerID) session.Message {
			return session.Message{Kind: session.MsgClaim, Epoch: epochOf(gen+1000, x), Turn: turn}
		}},
	}
	for _, tc := range cases {
		for _, away := range []bool{false, true} {
			name := tc.name
			if away {
				name += ", sender away"
			}
			t.Run(name, func(t *testing.T) {
				n := gameOf(t, 31, 4, simConfig())
				n.Run(50)
				bad := inSlot(t, n, x)
				if away {
					// Not a player of the host's side any more: the
					// host counts it (and only it) as a possible rival.
					n.Hang(bad.ID)
					n.Run(400)
				}
				gen := session.EpochGeneration(n.Peers[0].Status.Epoch)
				steadyHost(t, n, 600, func(i int) {
					if i%10 == 0 {
						m := tc.msg(gen, n.Peers[0].Last(), bad.ID, inSlot(t, n, 1).ID)
						for _, to := range n.Peers {
							if to != bad {
								n.Inject(bad.ID, to.ID, m)
							}
						}
					}
				})
				if !away {
					n.Run(400) // quiet: the last commands go through
					noViolations(t, n)
				}
			})
		}
	}
}

// When the host fails, the followers turn to the first player in the list;
// a claim from further down (of any generation) is not followed while that
// player is still asked, so a member cannot take the game over by
// claiming first.
func TestClaimFromDownTheListIsNotFollowed(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 4, 5} {
		n := gameOf(t, seed, 4, simConfig())
		n.Run(50)
		gen := session.EpochGeneration(n.Peers[0].Status.Epoch)
		next, bad := inSlot(t, n, 1), inSlot(t, n, 3)
		n.Crash(pid(0))
		for i := range 400 {
			if i < 40 {
				for _, to := range n.Peers[1:] {
					if to != bad {
						n.Inject(bad.ID, to.ID, session.Message{Kind: session.MsgClaim, Epoch: epochOf(gen+50, 3),
							Turn: to.Last() + 5})
					}
				}
			}
			if i%5 == 0 {
				proposeAll(n)
			}
			n.Tick()
			for _, p := range n.Peers[1:] {
				if p.Status.Host == bad.ID {
					t.Fatalf("seed %d tick %d: %s followed the claim of slot 3, listed after slot 1", seed, i, p.ID)
				}
			}
		}
		if h := hostOf(n); h != next {
			t.Fatalf("seed %d: the host is %v, want slot 1's %s", seed, h, next.ID)
		}
		n.Run(400)
		noViolations(t, n)
	}
}

// A generation far ahead of any the node knows is refused before it moves
// the node's own (which every later claim builds on, and which is written
// to disk); a stranger moves it not at all.
func TestImplausibleGenerationIsRefused(t *testing.T) {
	n := gameOf(t, 5, 3, simConfig())
	n.Run(20)
	gen := n.Peers[0].Status.Generation
	epoch := n.Peers[0].Status.Epoch
	two := inSlot(t, n, 2)
	n.Inject(two.ID, pid(0), session.Message{Kind: session.MsgPing, Epoch: epochOf(gen+1<<20, 2), Count: 1, Slot: 2})
	n.Inject("stranger", pid(0), session.Message{Kind: session.MsgPing, Epoch: epochOf(gen+100, 5), Count: 1, Slot: 5})
	n.Inject("stranger", pid(1), session.Message{Kind: session.MsgClaim, Epoch: epochOf(gen+100, 5)})
	n.Run(20)
	for _, p := range n.Peers {
		if p.Status.Generation != gen || p.Status.Epoch != epoch {
			t.Errorf("%s: generation %d, epoch %d after the messages; want %d, %d", p.ID, p.Status.Generation, p.Status.Epoch, gen, epoch)
		}
	}
	noViolations(t, n)
}

// A desynced peer restores only the snapshot of the majority peer the host
// named: another member's snapshot, sent first, is not taken. Here the host
// itself is the one out of step, so its repair comes from a player (the
// one whose report came first: slot 2's, slot 1's link is slower) and
// takes a round trip, while slot 1 sends forged snapshots every tick.
func TestRepairTakesOnlyTheNamedSource(t *testing.T) {
	n := gameOf(t, 11, 3, simConfig())
	n.Run(30)
	host, bad := n.Peers[0], inSlot(t, n, 1)
	n.Delay(bad.ID, host.ID, 4, 4)
	n.Desync(host.ID)
	junk := make([]byte, 25)
	junk[0] = 0x7e // the toy game's state: forged
	for i := range 300 {
		if i%5 == 0 {
			proposeAll(n)
		}
		n.Inject(bad.ID, host.ID, session.Message{Kind: session.MsgSnapshot, Epoch: host.Status.Epoch,
			Snapshot: &session.Snapshot{Turn: host.Last() + 1, Data: junk}})
		n.Tick()
		if host.State == 0x7e {
			t.Fatalf("tick %d: the host restored slot 1's forged snapshot", i)
		}
	}
	if host.Restores != 1 {
		t.Errorf("the host restored %d snapshots, want the one repair", host.Restores)
	}
	n.Run(400)
	noViolations(t, n)
}

// A member that stops (its client goes quiet) and poses as the host of a side
// of its own, far ahead, makes the sides equal in a game of two: the lead
// it claims is its word alone (no player of its side says so), so the
// host keeps the game.
func TestMemberPosingAsAHostFarAheadDoesNotUnseatTheHost(t *testing.T) {
	n := gameOf(t, 21, 2, simConfig())
	n.Run(40)
	host, bad := n.Peers[0], inSlot(t, n, 1)
	n.Pause(bad.ID, 0)
	gen := session.EpochGeneration(host.Status.Epoch)
	for i := range 600 {
		if i%10 == 0 {
			n.Inject(bad.ID, host.ID, session.Message{Kind: session.MsgPing, Epoch: epochOf(gen+1, 1), Count: 1, Slot: 1,
				Turn: host.Last() + 500})
		}
		n.Tick()
		if !host.Status.IsHost || host.Status.Epoch != epochOf(gen, 0) {
			t.Fatalf("tick %d: the host gave its game up to a member's word: %+v", i, host.Status)
		}
	}
}

// A player coming back from another side carries the Byes its side heard
// (the Hello's Targets), and the host believes them only for players it
// has lost too: a member that names players who are present, in a Hello
// as itself or after going away, costs none of them its seat.
func TestByesInAHelloCostNoPresentPlayerItsSeat(t *testing.T) {
	for _, away := range []bool{false, true} {
		n := gameOf(t, 41, 4, simConfig())
		n.Run(50)
		bad := inSlot(t, n, 3)
		if away {
			n.Hang(bad.ID)
			n.Run(400)
			n.Heal()
		}
		named := []session.PeerID{inSlot(t, n, 1).ID, inSlot(t, n, 2).ID, pid(0)}
		hello := session.Message{Kind: session.MsgHello, Targets: named,
			Hello: &session.Hello{Protocol: session.ProtocolVersion, GameVersion: simConfig().GameVersion, Name: "p3"}}
		for i := range 300 {
			if i%50 == 0 {
				n.Inject(bad.ID, pid(0), hello)
			}
			if i%5 == 0 {
				proposeAll(n)
			}
			n.Tick()
		}
		for _, p := range n.Peers {
			for _, e := range p.Events {
				if e.Kind == session.EvPlayerLeft {
					t.Fatalf("away %v: %s shows slot %d leave at turn %d on a member's word", away, p.ID, e.Slot, e.Turn)
				}
			}
		}
		n.Run(400)
		noViolations(t, n)
	}
}
