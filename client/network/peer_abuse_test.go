package network

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/game"
	"hostfall/internal/testwait"
	"hostfall/p2p/transport"
	"hostfall/session"
)

// A stranger speaks the protocol well but is no member: its commands and
// turns sent to the host of a running game are ignored, and the game goes
// on with equal states.
func TestStrangerIsIgnored(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	marker := []byte{1, byte(game.CmdMove), 0, 0x55, 0x55}
	var strangerCmd atomic.Bool
	peers := newGame(t, gameOpts{players: 3, turnLimit: 260, tweak: func(i int, o *PeerOptions) {
		o.OnTurn = func(tr session.Turn, _ time.Time) {
			for _, c := range tr.Commands {
				if bytes.Equal(c.Data, marker) {
					strangerCmd.Store(true)
				}
			}
		}
	}})
	host := peers[0]
	stranger := newTestHost(t)
	st := transport.NewTransport(stranger, transport.Limits{}, testLog())
	t.Cleanup(func() { st.Close(0) })
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := st.Connect(ctx, host.host.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	hs := host.Status()
	st.Send(host.ID(), &session.Message{Kind: session.MsgCommands, Epoch: hs.Epoch,
		Commands: []session.Command{{Slot: 1, Seq: 1, Data: marker}}})
	st.Send(host.ID(), &session.Message{Kind: session.MsgTurns, Epoch: hs.Epoch,
		Turns: []session.Turn{{Epoch: hs.Epoch, Number: hs.Turn + 1, Commands: []session.Command{{Slot: 1, Seq: 1, Data: marker}}}}})

	survivorsAgree(t, peers, 260, 0)
	if strangerCmd.Load() {
		t.Error("a stranger's command was sequenced")
	}
}

// A modified client forges commands: orders for another player's units, a
// command frame that claims another slot, a proposal for a slot it does not
// drive. Every peer rejects them the same way and the states stay equal.
func TestForgedCommands(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	const forger = 2
	var holders [3]atomic.Pointer[Peer]
	var mu sync.Mutex
	seen := map[string][]int{}   // marker → slots it was sequenced for
	rejected := map[string]int{} // peer name → forged orders seen rejected as not owned
	ownMove := game.Command{Kind: game.CmdMove, X: 3, Y: 3}
	var ownMarker []byte
	peers := newGame(t, gameOpts{players: 3, turnLimit: 260, tweak: func(i int, o *PeerOptions) {
		name := o.Name
		o.OnTurn = func(tr session.Turn, _ time.Time) {
			for _, c := range tr.Commands {
				if c.Slot != forger {
					continue
				}
				cmd, err := game.DecodeCommand(0, c.Data)
				if err != nil || cmd.Kind != game.CmdMove || cmd.X != 3 && cmd.X != 5 {
					continue
				}
				mu.Lock()
				seen[fmt.Sprint(cmd.X)] = append(seen[fmt.Sprint(cmd.X)], c.Slot)
				mu.Unlock()
				p := holders[i].Load()
				p.View(func(w *game.World) {
					if uint64(w.Turn()) != tr.Number {
						return // a later turn of the same batch was applied too
					}
					for _, ev := range w.Events() {
						if ev.Kind == game.EvRejected && ev.Reason == game.RejNotOwner && ev.Player == forger {
							mu.Lock()
							rejected[name]++
							mu.Unlock()
						}
					}
				})
			}
		}
	}})
	for i, p := range peers {
		holders[i].Store(p.Peer)
	}
	// Units of player 0: the forger orders them about.
	var victims []game.UnitID
	peers[forger].View(func(w *game.World) {
		u := w.Units()
		for i := range u.Len() {
			if u.Alive(i) && u.Owner(i) == 0 && !u.IsBuilding(i) {
				victims = append(victims, u.ID(i))
			}
		}
	})
	if len(victims) == 0 {
		t.Fatal("player 0 has no units")
	}
	forged := game.Command{Kind: game.CmdMove, Units: victims, X: 5, Y: 5}
	if err := peers[forger].Propose(forged); err != nil {
		t.Fatal(err)
	}
	// A command frame claiming slot 1: the host attributes it to the sender.
	peers[forger].tamperOnce(func(m *session.Message) bool {
		if m.Kind != session.MsgCommands {
			return true
		}
		for i := range m.Commands {
			m.Commands[i].Slot = 1
		}
		return true
	})
	ownMove.Units = victims
	ownMarker, _ = ownMove.AppendBinary(nil)
	if err := peers[forger].proposeRaw(forger, ownMarker); err != nil {
		t.Fatal(err)
	}
	// The session itself refuses to propose for a slot this peer does not drive.
	if err := peers[forger].proposeRaw(1, ownMarker); err == nil {
		t.Error("a follower proposed for another player's slot")
	}

	survivorsAgree(t, peers, 260, 0)
	mu.Lock()
	defer mu.Unlock()
	for _, x := range []string{"3", "5"} {
		if len(seen[x]) != len(peers) {
			t.Errorf("forged order to x=%s was applied %d times over %d peers", x, len(seen[x]), len(peers))
		}
	}
	if rejected[peers[0].name] == 0 {
		t.Errorf("the host did not see the forged orders rejected: %v", rejected)
	}
	t.Logf("forged orders rejected as not owned, per peer: %v", rejected)
}

// A modified client adds hash reports of turns nobody played to its acks.
// The host warns it privately, then removes it: every other peer sees it
// leave for misbehaving, the liar is told why and cannot come back, and
// the others play on to the end with equal states.
func TestLiarIsWarnedThenRemoved(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	const liar, limit = 2, 300
	peers := newGame(t, gameOpts{players: 3, turnLimit: limit})
	peers[liar].tamperOnce(func(m *session.Message) bool {
		if m.Kind == session.MsgAck {
			m.Hashes = append(m.Hashes, session.HashReport{Turn: m.Have + 100_000, Hash: 1})
		}
		return true
	})
	honest := peers[:liar]
	testwait.For(t, "the liar removed", 20*time.Second, func() bool {
		for _, p := range honest {
			if !slices.ContainsFunc(p.all(EvPlayerLeft), func(e Event) bool { return e.Slot == liar }) {
				return false
			}
		}
		return true
	})
	for _, p := range honest {
		for _, e := range p.all(EvPlayerLeft) {
			if e.Slot == liar && e.Reason != session.DepartMisbehaved {
				t.Errorf("%s saw the liar leave for %q, want %q", p.name, e.Reason, session.DepartMisbehaved)
			}
		}
	}
	warned := slices.ContainsFunc(peers[liar].all(EvChat), func(e Event) bool {
		return e.Chat != nil && strings.Contains(e.Chat.Text, "Warning from the host")
	})
	if !warned {
		t.Error("the liar was removed without a warning")
	}
	deadline := time.Now().Add(30 * time.Second) // generous: the machine may be loaded
	for _, ok := peers[liar].find(EvLeft); !ok; _, ok = peers[liar].find(EvLeft) {
		if time.Now().After(deadline) {
			peers[liar].mu.Lock()
			for _, e := range peers[liar].events {
				if e.Kind != EvTurn {
					t.Logf("liar event %v slot %d turn %d reason %v text %q", e.Kind, e.Slot, e.Turn, e.Reason, e.Text)
				}
			}
			peers[liar].mu.Unlock()
			st := peers[liar].Status()
			t.Fatalf("the liar was not told why: status %+v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
	survivorsAgree(t, honest, limit, 0)
	if err := peers[liar].Join(t.Context(), peers[0].host.AddrInfo()); err == nil {
		testwait.For(t, "the liar refused again", 10*time.Second, func() bool { _, ok := peers[liar].find(EvRefused); return ok })
	}
}

// A seated member's modified client sends, with each ack, a forged message
// of one kind after another over the real transport: pings and claims of a
// newer epoch, turns of a newer epoch with a forged departure, unsolicited
// junk snapshots, repeated hellos, and fat command batches. The host stays
// the host, no honest peer leaves, the fat batches get the member removed
// for misbehaving, and the honest peers end with equal states.
func TestMemberAttacksOverTheWire(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	const bad, limit = 3, 400
	peers := newGame(t, gameOpts{players: 4, turnLimit: limit})
	hostID, victim := peers[0].ID(), peers[1].ID()
	gen := session.EpochGeneration(peers[0].Status().Epoch)
	newer := (gen+1000)*16 + bad        // an epoch of a far generation, in the member's own slot
	fat := make([]session.Command, 300) // more commands (600 KiB) than any resend carries
	for i := range fat {
		fat[i] = session.Command{Slot: bad, Seq: 1 << 40, Data: make([]byte, 2<<10)}
	}
	attacks := []struct {
		to peer.ID
		m  session.Message
	}{
		{hostID, session.Message{Kind: session.MsgPing, Epoch: newer, Turn: 1 << 30}},
		{victim, session.Message{Kind: session.MsgClaim, Epoch: newer, Turn: 1 << 30, Chain: 42}},
		{victim, session.Message{Kind: session.MsgTurns, Epoch: newer, Turns: []session.Turn{{Epoch: newer, Number: 1 << 20,
			Departures: []session.Departure{{Slot: 0, Reason: session.DepartLeft}}}}}},
		{victim, session.Message{Kind: session.MsgSnapshot, Epoch: newer, Snapshot: &session.Snapshot{Turn: 5, Data: []byte("junk")}}},
		{hostID, session.Message{Kind: session.MsgSnapshot, Snapshot: &session.Snapshot{Turn: 5, Data: []byte("junk")}}},
		{hostID, session.Message{Kind: session.MsgHello, Hello: &session.Hello{Protocol: session.ProtocolVersion, GameVersion: testVersion, Name: "again"}}},
		{hostID, session.Message{Kind: session.MsgCommands, Commands: fat}},
	}
	next := 0
	hostile := peers[bad]
	hostile.tamperOnce(func(m *session.Message) bool {
		if m.Kind == session.MsgAck {
			a := attacks[next%len(attacks)]
			next++
			f := a.m
			if f.Epoch == 0 {
				f.Epoch = m.Epoch
			}
			hostile.t.Send(a.to, &f)
		}
		return true
	})
	honest := peers[:bad]
	survivorsAgree(t, honest, limit, 0)
	for _, p := range honest {
		if _, left := p.find(EvLeft); left {
			t.Errorf("%s left the game", p.name)
		}
		if st := p.Status(); st.Host != hostID {
			t.Errorf("%s follows %s, not the host it started with", p.name, short(st.Host))
		}
	}
	removed := slices.ContainsFunc(peers[0].all(EvPlayerLeft), func(e Event) bool {
		return e.Slot == bad && e.Reason == session.DepartMisbehaved
	})
	if !removed {
		t.Errorf("the member that sent fat command batches was not removed for it (%d forged messages sent)", next)
	} else if _, told := hostile.find(EvLeft); !told {
		t.Error("the removed member was not told it was removed")
	}
	t.Logf("%d forged messages sent", next)
}
