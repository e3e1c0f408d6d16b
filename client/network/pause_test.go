package network

import (
	"slices"
	"sync"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/game"
	"hostfall/internal/testwait"
	"hostfall/session"
)

// pauseOf reads the client's world: its pause, turn and game time.
func pauseOf(c *tclient) (p game.Pause, turn, clock int) {
	c.View(func(w *game.World, _ time.Time) { p, turn, clock = w.Paused(), w.Turn(), w.Time() })
	return p, turn, clock
}

// Two players on loopback: Bo pauses, both worlds stop at the same turn
// while the turns go on (chat still flows, a spectator joins and gets the
// paused world), Ann's second pause is refused with the reason shown to
// her, Ann (the host) resumes Bo's pause (not the spectator), and after
// the countdown both worlds move again and end with equal hashes; the pause
// lines came out on both, and the replays (pause included) verify.
func TestPauseOverTheNetwork(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	const limit = 400
	var mu sync.Mutex
	lines := map[string][]Event{}
	tap := func(name string) func(*Options) {
		return func(o *Options) {
			o.OnEvent = func(_ *Peer, ev Event) {
				if ev.Kind == EvPaused || ev.Kind == EvResuming || ev.Kind == EvResumed {
					mu.Lock()
					lines[name] = append(lines[name], ev)
					mu.Unlock()
				}
			}
		}
	}
	lan := &Static{}
	ann := newClient(t, "Ann", func(o *Options) { o.TurnLimit = limit; tap("Ann")(o) })
	bo := newClient(t, "Bo", func(o *Options) { o.Browser = lan; tap("Bo")(o) })
	if err := ann.Create(client.CreateOptions{Name: "pause", PlayerName: "Ann", MaxPlayers: 2, MapSeed: 5, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	list(t, lan, ann, "lan-1")
	if err := bo.Join("lan-1", client.JoinOptions{PlayerName: "Bo"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo in the lobby", 10*time.Second, func() bool { return bo.Slot() == 1 })
	if err := bo.EditSlot(session.SlotEdit{Name: "Bo", Color: 5, Ready: true}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo ready", 5*time.Second, func() bool { return ann.lobby().Slots[1].Ready })
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "turn 40 on both", 20*time.Second, func() bool { return ann.turn() >= 40 && bo.turn() >= 40 })

	if err := bo.Propose(game.Command{Player: 1, Kind: game.CmdPause}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "paused on both", 10*time.Second, func() bool {
		a, _, _ := pauseOf(ann)
		b, _, _ := pauseOf(bo)
		return a.Paused && b.Paused
	})
	_, turnA, clockA := pauseOf(ann)
	if err := ann.Propose(game.Command{Player: 0, Kind: game.CmdPause}); err != nil {
		t.Fatal(err)
	}
	if err := bo.Say(0, "brb"); err != nil {
		t.Fatal(err)
	}
	ann.await("Bo's chat while paused", 5*time.Second, client.EvChat, func(e client.Event) bool { return e.Text == "brb" })

	// A spectator who joins now gets the paused world by snapshot, and
	// cannot pause.
	cy := newClient(t, "Cy", func(o *Options) { o.Browser = lan })
	if err := cy.Join("lan-1", client.JoinOptions{PlayerName: "Cy", Spectate: true}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Cy's world", 20*time.Second, func() bool { _, tn, _ := pauseOf(cy); return tn > turnA })
	if p, _, clock := pauseOf(cy); !p.Paused || p.By != 1 || clock != clockA {
		t.Fatalf("the spectator's world: %+v, game time %d (paused at %d)", p, clock, clockA)
	}
	if _, ok := cy.Me(); ok {
		t.Fatal("the spectator plays")
	}
	_ = cy.Propose(game.Command{Player: 0, Kind: game.CmdResume}) // refused, or dropped by every peer
	testwait.For(t, "turns go on while paused", 10*time.Second, func() bool { _, tn, _ := pauseOf(ann); return tn >= turnA+40 })
	for _, c := range []*tclient{ann, bo} {
		p, _, clock := pauseOf(c)
		if !p.Paused || p.By != 1 || clock != clockA {
			t.Fatalf("%s: pause %+v, game time %d (paused at %d)", c.name, p, clock, clockA)
		}
	}
	ann.collect()
	refused := slices.ContainsFunc(ann.world, func(e game.Event) bool {
		return e.Kind == game.EvRejected && e.Player == 0 && e.Reason == game.RejAlreadyPaused
	})
	if !refused {
		t.Error("Ann's pause during Bo's was not refused with a reason")
	}

	if err := ann.Propose(game.Command{Player: 0, Kind: game.CmdResume}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "moving again on both", 15*time.Second, func() bool {
		a, _, ca := pauseOf(ann)
		b, _, cb := pauseOf(bo)
		return !a.Paused && !b.Paused && ca > clockA && cb > clockA
	})
	testwait.For(t, "the turn limit on both", 60*time.Second, func() bool { return ann.turn() == limit && bo.turn() == limit })
	var ha, hb, hc uint64
	ann.View(func(w *game.World, _ time.Time) { ha = w.Hash() })
	bo.View(func(w *game.World, _ time.Time) { hb = w.Hash() })
	testwait.For(t, "the turn limit on Cy", 10*time.Second, func() bool { return cy.turn() == limit })
	cy.View(func(w *game.World, _ time.Time) { hc = w.Hash() })
	if ha != hb || ha != hc {
		t.Fatalf("at turn %d Ann's world hash %016x, Bo's %016x, Cy's %016x", limit, ha, hb, hc)
	}

	mu.Lock()
	defer mu.Unlock()
	for _, name := range []string{"Ann", "Bo"} {
		ls := lines[name]
		if len(ls) != 3 || ls[0].Kind != EvPaused || ls[0].Name != "Bo" || ls[0].Count != game.PausesPerPlayer-1 ||
			ls[1].Kind != EvResuming || ls[1].Name != "Ann" || ls[2].Kind != EvResumed ||
			ls[2].Turn != ls[1].Turn+game.ResumeTurns-1 {
			t.Errorf("%s's pause events: %+v", name, ls)
		}
	}
	if len(lines["Ann"]) == 3 && len(lines["Bo"]) == 3 && lines["Ann"][0].Turn != lines["Bo"][0].Turn {
		t.Errorf("paused at turn %d on Ann's side, %d on Bo's", lines["Ann"][0].Turn, lines["Bo"][0].Turn)
	}
	for _, c := range []*tclient{ann, bo} {
		e := c.await(c.name+"'s replay notice", 5*time.Second, client.EvNotice, func(e client.Event) bool { return len(e.Text) > 16 && e.Text[:16] == "Replay saved to " })
		verifyReplay(t, e.Text[16:len(e.Text)-1], limit)
	}
}

// Cy pauses a game of three; Bo may not resume it (neither pauser nor
// host) until Ann, the host, leaves and Bo hosts: then Bo's resume is
// taken, on the turn's host as every peer sees it, and Bo's and Cy's
// worlds move on together and end equal.
func TestPauseSurvivesAHostChange(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	const limit = 500
	lan := &Static{}
	ann := newClient(t, "Ann", func(o *Options) { o.TurnLimit = limit })
	bo := newClient(t, "Bo", func(o *Options) { o.Browser = lan })
	cy := newClient(t, "Cy", func(o *Options) { o.Browser = lan })
	if err := ann.Create(client.CreateOptions{Name: "pause3", PlayerName: "Ann", MaxPlayers: 3, MapSeed: 8, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	list(t, lan, ann, "p3")
	for i, c := range []*tclient{bo, cy} {
		if err := c.Join("p3", client.JoinOptions{PlayerName: c.name}); err != nil {
			t.Fatal(err)
		}
		testwait.For(t, c.name+" in the lobby", 10*time.Second, func() bool { return c.Slot() == i+1 })
		if err := c.EditSlot(session.SlotEdit{Name: c.name, Color: uint8(3 + i), Ready: true}); err != nil {
			t.Fatal(err)
		}
	}
	testwait.For(t, "the start", 10*time.Second, func() bool { return ann.Start() == nil })
	testwait.For(t, "turn 40 on all", 20*time.Second, func() bool { return ann.turn() >= 40 && bo.turn() >= 40 && cy.turn() >= 40 })

	if err := cy.Propose(game.Command{Player: 2, Kind: game.CmdPause}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "paused on all", 10*time.Second, func() bool {
		for _, c := range []*tclient{ann, bo, cy} {
			if p, _, _ := pauseOf(c); !p.Paused {
				return false
			}
		}
		return true
	})
	if err := bo.Propose(game.Command{Player: 1, Kind: game.CmdResume}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo's resume refused", 10*time.Second, func() bool {
		bo.collect()
		bo.mu.Lock()
		defer bo.mu.Unlock()
		return slices.ContainsFunc(bo.world, func(e game.Event) bool {
			return e.Kind == game.EvRejected && e.Player == 1 && e.Reason == game.RejNotResumer
		})
	})
	_, _, clock := pauseOf(bo)

	ann.Leave()
	bo.await("Bo hosts", 60*time.Second, client.EvHostChanged, func(e client.Event) bool { return e.Name == "Bo" })
	if p, _, c := pauseOf(bo); !p.Paused || c != clock {
		t.Fatalf("after the host change: %+v, game time %d (paused at %d)", p, c, clock)
	}
	if err := bo.Propose(game.Command{Player: 1, Kind: game.CmdResume}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "moving again on Bo and Cy", 60*time.Second, func() bool {
		b, _, cb := pauseOf(bo)
		c, _, cc := pauseOf(cy)
		return !b.Paused && !c.Paused && cb > clock && cc > clock
	})
	testwait.For(t, "the turn limit on Bo and Cy", 60*time.Second, func() bool { return bo.turn() == limit && cy.turn() == limit })
	var hb, hc uint64
	bo.View(func(w *game.World, _ time.Time) { hb = w.Hash() })
	cy.View(func(w *game.World, _ time.Time) { hc = w.Hash() })
	if hb != hc {
		t.Fatalf("at turn %d Bo's world hash %016x, Cy's %016x", limit, hb, hc)
	}
}
