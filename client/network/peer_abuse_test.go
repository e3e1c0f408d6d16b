package network

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hostfall/game"
	"hostfall/p2p"
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
	st := p2p.NewTransport(stranger, p2p.Limits{}, testLog())
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
