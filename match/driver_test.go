package match

import (
	"testing"

	"hostfall/game/ai"
	"hostfall/session"
)

type countRand struct{ n uint64 }

func (r *countRand) Uint64() uint64 { r.n++; return r.n }

// Two drivers on a lossless in-memory link play a bot game to its turn
// limit: the drivers report the same hash at every hashed turn, feed the
// node only after Advance (the node refuses nothing), and both end.
func TestDriversPlayAGame(t *testing.T) {
	const limit = 200
	ids := []session.PeerID{"a", "b"}
	drivers := map[session.PeerID]*Driver{}
	for _, id := range ids {
		node, err := session.NewNode(session.Config{Self: id, Name: string(id), GameVersion: "t", Rand: &countRand{}, CountdownTicks: 2})
		if err != nil {
			t.Fatal(err)
		}
		drivers[id] = NewDriver(node, New(Options{SelfBot: true, SelfLevel: ai.Easy}))
	}
	a, b := drivers["a"].Node(), drivers["b"].Node()
	if err := a.Host(session.Settings{Name: "d", MapSeed: 3, MapSize: 64, MaxPlayers: 2, TurnLimit: limit}); err != nil {
		t.Fatal(err)
	}
	if err := b.Join("a"); err != nil {
		t.Fatal(err)
	}
	hashes := map[session.PeerID]map[uint64]uint64{"a": {}, "b": {}}
	var wire []session.Message
	joined := false
	step := func() {
		for _, id := range ids {
			err := drivers[id].Handle(func(rd *session.Ready, hs []session.HashReport) {
				for _, m := range rd.Messages {
					m.From = id // as a transport stamps the sender
					wire = append(wire, m)
				}
				for _, ev := range rd.Events {
					switch ev.Kind {
					case session.EvJoined:
						joined = joined || id == "b"
					case session.EvLeft, session.EvRefused:
						t.Fatalf("%s: %v: %s", id, ev.Kind, ev.Text)
					}
				}
				for _, h := range hs {
					hashes[id][h.Turn] = h.Hash
				}
			})
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
		}
		in := wire
		wire = nil
		for _, m := range in {
			if err := drivers[m.To].Node().Step(m); err != nil {
				t.Fatalf("%s refused %v: %v", m.To, m.Kind, err)
			}
		}
	}
	started := false
	for tick := 0; tick < 20*limit && !(drivers["a"].Match().Over() && drivers["b"].Match().Over()); tick++ {
		a.Tick()
		b.Tick()
		step()
		if !started && joined {
			if err := b.EditSlot(session.SlotEdit{Name: "b", Ready: true}); err != nil {
				t.Fatal(err)
			}
			step()
			if err := a.Start(); err == nil {
				started = true
			}
		}
	}
	for _, id := range ids {
		if !drivers[id].Match().Over() {
			t.Fatalf("%s: the game did not end (world turn %d)", id, drivers[id].Match().World().Turn())
		}
	}
	if len(hashes["a"]) < limit/10 {
		t.Fatalf("a reported %d hashes, want %d", len(hashes["a"]), limit/10)
	}
	for turn, h := range hashes["a"] {
		if hb, ok := hashes["b"][turn]; !ok || hb != h {
			t.Fatalf("turn %d: a %x, b %x (reported %v)", turn, h, hb, ok)
		}
	}
	t.Logf("hashed turns %d, stats %+v", len(hashes["a"]), drivers["a"].Match().Stats())
	if s := drivers["a"].Match().Stats(); s.BotCommands == 0 {
		t.Error("the bots proposed nothing")
	}
}
