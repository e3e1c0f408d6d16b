package match

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"hostfall/game"
	"hostfall/savegame"
	"hostfall/session"
	"hostfall/session/replay"
	"hostfall/session/simnet"
)

// simGame runs real matches on the simulated network.
type simGame struct {
	t       *testing.T
	n       *simnet.Net
	matches map[session.PeerID]*Match
	hashes  map[session.PeerID]map[uint64]uint64
}

func newSimGame(t *testing.T, seed uint64) *simGame {
	g := &simGame{t: t, n: simnet.New(seed, session.Config{GameVersion: "test", CountdownTicks: 2}),
		matches: map[session.PeerID]*Match{}, hashes: map[session.PeerID]map[uint64]uint64{}}
	g.n.OnReady = func(p *simnet.Peer, rd session.Ready) {
		m := g.matches[p.ID]
		if err := m.Apply(&rd, peerNode{g.n, p}); err != nil {
			t.Fatalf("%s: %v", p.ID, err)
		}
		m.View(func(w *game.World) {
			if len(rd.Committed) > 0 {
				g.hashes[p.ID][uint64(w.Turn())] = w.Hash()
			}
		})
	}
	return g
}

func (g *simGame) add(i int, opt Options) *simnet.Peer {
	id := session.PeerID(fmt.Sprintf("peer-%d", i))
	g.matches[id] = New(opt)
	g.hashes[id] = map[uint64]uint64{}
	return g.n.Add(id, string(id))
}

func (g *simGame) readyAndStart(host *simnet.Peer) {
	g.t.Helper()
	for _, p := range g.n.Peers {
		if p != host && p.Live() {
			p.Node.EditSlot(session.SlotEdit{Name: string(p.ID), Ready: true})
		}
	}
	g.n.Run(5)
	if err := host.Node.Start(); err != nil {
		g.t.Fatal(err)
	}
}

// agree checks that peers hold equal world hashes at every turn they share
// and returns how many turns were compared and the first turn seen.
func (g *simGame) agree(ps []*simnet.Peer) (compared int, first uint64) {
	g.t.Helper()
	first = ^uint64(0)
	ref := g.hashes[ps[0].ID]
	for turn, h := range ref {
		first = min(first, turn)
		for _, p := range ps[1:] {
			if got, ok := g.hashes[p.ID][turn]; ok {
				compared++
				if got != h {
					g.t.Fatalf("%s and %s differ after turn %d", ps[0].ID, p.ID, turn)
				}
			}
		}
	}
	return compared, first
}

// A game of real worlds is saved at turn T on its host, goes through a save
// file, and resumes in a new session hosted by another player: every peer
// starts from the saved world (its hash is the hash at the save), plays on
// with equal hashes through a migration, and a replay of the resumed game
// verifies from its start state.
func TestSaveAndResumeRealWorlds(t *testing.T) {
	g := newSimGame(t, 21)
	host := g.add(0, Options{SelfBot: true, SelfLevel: 1})
	if err := host.Node.Host(session.Settings{Name: "save", MapSeed: 21, MapSize: 64, MaxPlayers: 4, TurnLimit: 5000}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 3; i++ {
		if err := g.add(i, Options{SelfBot: true, SelfLevel: 1}).Node.Join(host.ID); err != nil {
			t.Fatal(err)
		}
	}
	g.n.Run(10)
	host.Node.SetSlot(3, session.SlotBot, 1)
	g.readyAndStart(host)
	g.n.Run(1500)

	turn := host.Status.Turn
	hm := g.matches[host.ID]
	data, err := hm.SaveState(turn)
	if err != nil {
		t.Fatal(err)
	}
	sv, err := host.Node.Save(turn, data)
	if err != nil {
		t.Fatal(err)
	}
	atSave := g.hashes[host.ID][turn]
	file, err := savegame.Encode(&savegame.Save{Saved: sv, At: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := savegame.Decode(file)
	if err != nil {
		t.Fatal(err)
	}
	if h, err := CheckSaved(loaded.Saved); err != nil || h != atSave {
		t.Fatalf("loaded save: hash %016x, %v; at save %016x", h, err, atSave)
	}
	t.Logf("saved turn %d (%d bytes), hash %016x", turn, len(file), atSave)

	// The resumed session: peer-2 hosts, peer-0 and peer-1 come back.
	r := newSimGame(t, 22)
	var rec bytes.Buffer
	nh := r.add(2, Options{SelfBot: true, SelfLevel: 1})
	if err := nh.Node.Host(session.Settings{Resume: &loaded.Saved}); err != nil {
		t.Fatal(err)
	}
	p0 := r.add(0, Options{SelfBot: true, SelfLevel: 1, Replay: &rec})
	p1 := r.add(1, Options{SelfBot: true, SelfLevel: 1})
	for _, p := range []*simnet.Peer{p0, p1} {
		if err := p.Node.Join(nh.ID); err != nil {
			t.Fatal(err)
		}
	}
	r.n.Run(10)
	r.readyAndStart(nh)
	r.n.Run(1000)
	all := []*simnet.Peer{nh, p0, p1}
	compared, first := r.agree(all)
	if first != turn+1 || compared < 300 {
		t.Fatalf("resumed game: first turn %d (want %d), %d hashes compared", first, turn+1, compared)
	}
	for _, p := range all {
		if st := r.matches[p.ID].Stats(); st.BadCommands != 0 || st.Restores != 1 {
			t.Fatalf("%s: %+v", p.ID, st)
		}
	}
	if r.matches[nh.ID].Stats().BotCommands == 0 {
		t.Fatal("the new host's bots proposed nothing")
	}

	// A migration after the resumed start.
	before, _ := r.agree([]*simnet.Peer{p0, p1})
	r.n.Crash(nh.ID)
	r.n.Run(1000)
	for _, p := range []*simnet.Peer{p0, p1} {
		if !p.Live() || !p.HasEvent(session.EvHostChanged) {
			t.Fatalf("%s: live %v, host change %v", p.ID, p.Live(), p.HasEvent(session.EvHostChanged))
		}
	}
	if compared, _ = r.agree([]*simnet.Peer{p0, p1}); compared < before+150 {
		t.Fatalf("only %d turns compared after the migration", compared)
	}
	if !slices.Contains(p0.Status.Drives, 3) {
		t.Fatalf("the host after the migration does not drive the bot: %v", p0.Status.Drives)
	}

	// p0's replay of the resumed game verifies from its start state.
	if err := r.matches[p0.ID].CloseReplay(); err != nil {
		t.Fatal(err)
	}
	rp, err := replay.Read(&rec)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Start == nil || rp.Start.Turn != turn {
		t.Fatalf("replay start %+v, want turn %d", rp.Start, turn)
	}
	turns, checked, err := Verify(rp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if turns < 300 || checked < 30 {
		t.Fatalf("replay verified %d turns, %d hashes", turns, checked)
	}
}

func TestSaveStateRefusals(t *testing.T) {
	m := New(Options{})
	if _, err := m.SaveState(1); err == nil {
		t.Fatal("saved without a game")
	}
	l := session.Lobby{MapSeed: 5, MapSize: 64, TurnLimit: 3, Slots: []session.Slot{{Kind: session.SlotHuman}, {Kind: session.SlotBot}}}
	if err := m.Load(l); err != nil {
		t.Fatal(err)
	}
	m.Step(session.Turn{Number: 1})
	if _, err := m.SaveState(2); err == nil {
		t.Fatal("saved a turn the world is not at")
	}
	if _, err := m.SaveState(1); err != nil {
		t.Fatal(err)
	}
	for n := uint64(2); n <= 3; n++ {
		m.Step(session.Turn{Number: n})
	}
	if _, err := m.SaveState(3); err == nil {
		t.Fatal("saved a finished game")
	}
}
