package match

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"hostfall/game"
	"hostfall/session"
	"hostfall/session/replay"
	"hostfall/session/simnet"
)

func TestConfigFromLobby(t *testing.T) {
	slot := func(k session.SlotKind, team uint8) session.Slot { return session.Slot{Kind: k, Team: team} }
	h, b, o, c := session.SlotHuman, session.SlotBot, session.SlotOpen, session.SlotClosed
	for _, tc := range []struct {
		name    string
		slots   []session.Slot
		players []int
		teams   []game.Team
		err     bool
	}{
		{"solo players get teams of their own", []session.Slot{slot(h, 0), slot(b, 0), slot(h, 0)}, []int{0, 1, 2}, []game.Team{0, 1, 2}, false},
		{"open and closed slots are skipped", []session.Slot{slot(h, 0), slot(o, 0), slot(c, 0), slot(b, 0)}, []int{0, 3}, []game.Team{0, 1}, false},
		{"lobby teams are kept, solos take free teams", []session.Slot{slot(h, 2), slot(b, 2), slot(h, 0), slot(b, 1)}, []int{0, 1, 2, 3}, []game.Team{1, 1, 2, 0}, false},
		{"one team only is refused by the game", []session.Slot{slot(h, 1), slot(b, 1)}, nil, nil, true},
		{"a lone player is refused", []session.Slot{slot(h, 0), slot(o, 0)}, nil, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := session.Lobby{MapSeed: 3, MapSize: 64, Slots: tc.slots}
			m := New(Options{})
			err := m.Load(l)
			if tc.err {
				if err == nil {
					t.Fatal("want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			cfg, players, _ := Config(l)
			if fmt.Sprint(players) != fmt.Sprint(tc.players) {
				t.Errorf("players = %v, want %v", players, tc.players)
			}
			for i, want := range tc.teams {
				if cfg.Players[i].Team != want {
					t.Errorf("player %d team = %d, want %d", i, cfg.Players[i].Team, want)
				}
				if m.Slot(game.PlayerID(i)) != tc.players[i] {
					t.Errorf("Slot(%d) = %d, want %d", i, m.Slot(game.PlayerID(i)), tc.players[i])
				}
			}
		})
	}
}

func TestSnapshotKeepsTheSlotMapping(t *testing.T) {
	l := session.Lobby{MapSeed: 5, MapSize: 64, Slots: []session.Slot{
		{Kind: session.SlotHuman}, {Kind: session.SlotOpen}, {Kind: session.SlotBot}}}
	a := New(Options{})
	if err := a.Load(l); err != nil {
		t.Fatal(err)
	}
	for n := uint64(1); n <= 30; n++ {
		if err := a.Step(session.Turn{Number: n}); err != nil {
			t.Fatal(err)
		}
	}
	snap := a.Snapshot()

	b := New(Options{}) // a late joiner: it knows nothing of the game yet
	if err := b.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if p, ok := b.Player(2); !ok || p != 1 {
		t.Errorf("slot 2 → player %d %v, want 1", p, ok)
	}
	if !bytes.Equal(b.Snapshot(), snap) {
		t.Error("restore then snapshot changed the bytes")
	}
	for _, bad := range [][]byte{nil, []byte("HFm"), append([]byte("HFm\x09"), snap[4:]...), snap[:len(snap)-3],
		append([]byte("HFm\x01\x02\x00\x00"), snap[7:]...)} {
		if err := b.Restore(bad); !errors.Is(err, ErrBadSnapshot) {
			t.Errorf("Restore(%d bytes) = %v, want ErrBadSnapshot", len(bad), err)
		}
	}
}

func TestStepRefusesAGap(t *testing.T) {
	m := New(Options{})
	if err := m.Step(session.Turn{Number: 1}); !errors.Is(err, ErrNotLoaded) {
		t.Errorf("before load: %v", err)
	}
	m.Load(session.Lobby{MapSize: 64, Slots: []session.Slot{{Kind: session.SlotBot}, {Kind: session.SlotBot}}})
	if err := m.Step(session.Turn{Number: 2}); !errors.Is(err, ErrTurnGap) {
		t.Errorf("turn 2 first: %v", err)
	}
}

// peerNode lets a match propose through simnet, which checks exactly-once;
// simnet itself reports hashes and snapshots of its toy state.
type peerNode struct {
	net *simnet.Net
	p   *simnet.Peer
}

func (peerNode) Loaded()                       {}
func (peerNode) ReportHash(uint64, uint64)     {}
func (peerNode) Snapshot(uint64, []byte) error { return nil }
func (n peerNode) Propose(slot int, data []byte) error {
	return n.net.Propose(n.p, slot, data)
}

// TestBotsPlayOverTheSessionThroughAHostKill runs real game worlds on the
// simulated network: four peers whose own slots are played by bots, two bot
// slots driven by the host. The host is killed mid-game; the survivors take
// over its bots, surrender its player at the same turn, and keep equal states.
func TestBotsPlayOverTheSessionThroughAHostKill(t *testing.T) {
	const seed = 11
	n := simnet.New(seed, session.Config{GameVersion: "test", CountdownTicks: 2})
	matches := map[session.PeerID]*Match{}
	hashes := map[session.PeerID]map[uint64]uint64{}
	var rec bytes.Buffer
	for i := range 4 {
		id := session.PeerID(fmt.Sprintf("peer-%d", i))
		p := n.Add(id, string(id))
		opt := Options{SelfBot: true, SelfLevel: 1}
		if i == 1 {
			opt.Replay = &rec
		}
		matches[id] = New(opt)
		hashes[id] = map[uint64]uint64{}
		if i == 0 {
			if err := p.Node.Host(session.Settings{Name: "m", MapSeed: seed, MapSize: 64, MaxPlayers: 8}); err != nil {
				t.Fatal(err)
			}
		} else if err := p.Node.Join("peer-0"); err != nil {
			t.Fatal(err)
		}
	}
	n.OnReady = func(p *simnet.Peer, rd session.Ready) {
		m := matches[p.ID]
		if err := m.Apply(&rd, peerNode{n, p}); err != nil {
			t.Fatalf("%s: %v", p.ID, err)
		}
		m.View(func(w *game.World) {
			if len(rd.Committed) > 0 {
				hashes[p.ID][uint64(w.Turn())] = w.Hash()
			}
		})
	}
	n.Run(10)
	host := n.Peers[0]
	host.Node.SetSlot(4, session.SlotBot, 1)
	host.Node.SetSlot(5, session.SlotBot, 0)
	for _, p := range n.Peers[1:] {
		p.Node.EditSlot(session.SlotEdit{Name: string(p.ID), Ready: true})
	}
	n.Run(5)
	if err := host.Node.Start(); err != nil {
		t.Fatal(err)
	}
	n.Run(2500) // 500 turns: bots gather and train
	hostPlayer, _ := matches[host.ID].Player(0)
	n.Crash(host.ID)
	n.Run(2500)

	survivors := n.Peers[1:]
	for _, p := range survivors {
		if !p.Live() {
			t.Fatalf("%s left: %s", p.ID, p.LeftWhy)
		}
		if !p.HasEvent(session.EvHostChanged) {
			t.Errorf("%s saw no host change", p.ID)
		}
	}
	ref := hashes[survivors[0].ID]
	common := 0
	for turn, h := range ref {
		for _, p := range survivors[1:] {
			if g, ok := hashes[p.ID][turn]; ok {
				common++
				if g != h {
					t.Fatalf("seed %d: %s and %s differ after turn %d", seed, survivors[0].ID, p.ID, turn)
				}
			}
		}
	}
	if common < 1000 {
		t.Errorf("only %d turn hashes compared", common)
	}
	var botCmds uint64
	for _, p := range survivors {
		m := matches[p.ID]
		botCmds += m.Stats().BotCommands
		m.View(func(w *game.World) {
			if w.Player(hostPlayer).Out {
				t.Errorf("%s: the dead host's player is out; it should be away (its units hold)", p.ID)
			}
			if w.Player(4).Trained == 0 {
				t.Errorf("%s: bot slot 4 trained nothing; nobody drove it", p.ID)
			}
		})
		if s := m.Stats(); s.BadCommands != 0 {
			t.Errorf("%s: %d commands did not decode", p.ID, s.BadCommands)
		}
	}
	if botCmds == 0 {
		t.Error("no bot proposed anything")
	}
	// simnet's checker is not consulted: it tells commands apart by their
	// bytes, and bots repeat identical orders; session's own tests prove
	// exactly-once with unique commands.

	// The replay of a survivor plays back to the same hashes.
	if err := matches["peer-1"].CloseReplay(); err != nil {
		t.Fatal(err)
	}
	r, err := replay.Read(&rec)
	if err != nil {
		t.Fatal(err)
	}
	turns, checked, err := Verify(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if turns < 900 || checked < 90 {
		t.Errorf("replay verified %d turns, %d hashes; want ≥ 900 and ≥ 90", turns, checked)
	}
}

// Every peer ends at the lobby's turn limit: turns after it change nothing,
// the bots stop, and the hash reported for later turns is the end's.
func TestTurnLimitEndsTheGame(t *testing.T) {
	l := session.Lobby{MapSeed: 5, MapSize: 64, TurnLimit: 30, Slots: []session.Slot{
		{Kind: session.SlotBot, BotLevel: 1}, {Kind: session.SlotBot}}}
	m := New(Options{})
	if err := m.Load(l); err != nil {
		t.Fatal(err)
	}
	var end uint64
	var proposed int
	rec := &hashRecorder{}
	for n := uint64(1); n <= 50; n++ {
		if m.Over() != (n > 30) {
			t.Fatalf("before turn %d Over() = %v", n, m.Over())
		}
		rd := session.Ready{Committed: []session.Turn{{Number: n, WantHash: n%10 == 0}},
			Status: session.Status{Slot: -1, Drives: []int{0, 1}}}
		if err := m.Apply(&rd, rec); err != nil {
			t.Fatal(err)
		}
		if n == 30 {
			m.View(func(w *game.World) { end = w.Hash() })
			proposed = rec.proposed
		}
	}
	m.View(func(w *game.World) {
		if w.Turn() != 30 || w.Hash() != end {
			t.Fatalf("the game went on after its limit: turn %d", w.Turn())
		}
	})
	if got := rec.hashes[50]; got != end {
		t.Fatalf("hash reported for turn 50 = %016x, want the end's %016x", got, end)
	}
	if rec.proposed != proposed {
		t.Fatal("a bot proposed after the end")
	}
}

type hashRecorder struct {
	hashes   map[uint64]uint64
	proposed int
}

func (r *hashRecorder) Loaded() {}
func (r *hashRecorder) ReportHash(turn, hash uint64) {
	if r.hashes == nil {
		r.hashes = map[uint64]uint64{}
	}
	r.hashes[turn] = hash
}
func (r *hashRecorder) Snapshot(uint64, []byte) error { return nil }
func (r *hashRecorder) Propose(int, []byte) error     { r.proposed++; return nil }

// OnStep sees every turn's world events, also when one Ready brings several
// turns: a match fed ten turns a Ready reports, turn by turn, the events a
// match fed one turn a Ready finds in World.Events after each.
func TestOnStepSeesEveryTurn(t *testing.T) {
	l := session.Lobby{MapSeed: 9, MapSize: 64, Slots: []session.Slot{
		{Kind: session.SlotBot, BotLevel: 1}, {Kind: session.SlotBot, BotLevel: 1}}}
	const turns = 400
	ref := New(Options{})
	if err := ref.Load(l); err != nil {
		t.Fatal(err)
	}
	rec := &cmdRecorder{}
	var played []session.Turn
	want := map[uint64][]game.Event{}
	for n := uint64(1); n <= turns; n++ {
		turn := session.Turn{Number: n, Commands: rec.take()}
		played = append(played, turn)
		rd := session.Ready{Committed: []session.Turn{turn}, Status: session.Status{Slot: -1, Drives: []int{0, 1}}}
		if err := ref.Apply(&rd, rec); err != nil {
			t.Fatal(err)
		}
		ref.View(func(w *game.World) { want[n] = append([]game.Event(nil), w.Events()...) })
	}

	got := map[uint64][]game.Event{}
	var order []uint64
	m := New(Options{OnStep: func(turn uint64, evs []game.Event) {
		order = append(order, turn)
		got[turn] = append([]game.Event(nil), evs...)
	}})
	if err := m.Load(l); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < turns; i += 10 {
		rd := session.Ready{Committed: played[i : i+10], Status: session.Status{Slot: -1}}
		if err := m.Apply(&rd, &cmdRecorder{}); err != nil {
			t.Fatal(err)
		}
	}
	if len(order) != turns || order[0] != 1 || order[turns-1] != turns {
		t.Fatalf("OnStep saw %d turns (%v…), want 1..%d", len(order), order[:min(len(order), 3)], turns)
	}
	events := 0
	for n := uint64(1); n <= turns; n++ {
		events += len(want[n])
		if fmt.Sprint(got[n]) != fmt.Sprint(want[n]) {
			t.Fatalf("turn %d: OnStep got %v, World.Events %v", n, got[n], want[n])
		}
	}
	if events == 0 {
		t.Fatal("the bots made nothing happen; the test proves nothing")
	}
}

// cmdRecorder collects what the bots propose, for the next turn.
type cmdRecorder struct {
	hashRecorder
	cmds []session.Command
	seq  [session.MaxSlots]uint64
}

func (r *cmdRecorder) Propose(slot int, data []byte) error {
	r.seq[slot]++
	r.cmds = append(r.cmds, session.Command{Slot: slot, Seq: r.seq[slot], Data: append([]byte(nil), data...)})
	return nil
}

func (r *cmdRecorder) take() []session.Command {
	c := r.cmds
	r.cmds = nil
	return c
}

// A lobby's players must fit the game; how few may start is the session's
// rule (Node.Start), so a lone player passes here.
func TestCheckStart(t *testing.T) {
	lobby := func(humans int) session.Lobby {
		l := session.Lobby{MapSeed: 1, MapSize: 64}
		for range humans {
			l.Slots = append(l.Slots, session.Slot{Kind: session.SlotHuman})
		}
		return l
	}
	for _, tc := range []struct {
		humans int
		ok     bool
	}{{1, true}, {2, true}, {game.MaxPlayers, true}, {game.MaxPlayers + 1, false}} {
		if err := CheckStart(lobby(tc.humans)); (err == nil) != tc.ok {
			t.Errorf("%d players: %v, want ok %v", tc.humans, err, tc.ok)
		}
	}
}

// With the lobby's AwayBot set, the host's match runs a bot for an away
// player's slot: its economy goes on (it trains) while the player is gone,
// and the bot stops once the player is back.
func TestAwayPlayersSlotIsPlayedByABot(t *testing.T) {
	const seed = 5
	n := simnet.New(seed, session.Config{GameVersion: "test", CountdownTicks: 2})
	matches := map[session.PeerID]*Match{}
	for i := range 3 {
		id := session.PeerID(fmt.Sprintf("peer-%d", i))
		p := n.Add(id, string(id))
		matches[id] = New(Options{}) // the players give no orders of their own
		if i == 0 {
			if err := p.Node.Host(session.Settings{Name: "m", MapSeed: seed, MapSize: 64, MaxPlayers: 3, AwayBot: 2}); err != nil {
				t.Fatal(err)
			}
		} else if err := p.Node.Join("peer-0"); err != nil {
			t.Fatal(err)
		}
	}
	n.OnReady = func(p *simnet.Peer, rd session.Ready) {
		if err := matches[p.ID].Apply(&rd, peerNode{n, p}); err != nil {
			t.Fatalf("%s: %v", p.ID, err)
		}
	}
	n.Run(10)
	for _, p := range n.Peers[1:] {
		p.Node.EditSlot(session.SlotEdit{Name: string(p.ID), Ready: true})
	}
	n.Run(5)
	host, away := n.Peers[0], n.Peers[2]
	if err := host.Node.Start(); err != nil {
		t.Fatal(err)
	}
	n.Run(100)
	slot := away.Status.Slot
	player, _ := matches[host.ID].Player(slot)
	n.Pause(away.ID, 0) // stopped (a laptop lid): it catches up from the turns after
	n.Run(2500)
	if !slices.Contains(host.Status.Drives, slot) {
		t.Fatalf("the host does not drive away slot %d (drives %v)", slot, host.Status.Drives)
	}
	var trained int32
	matches[host.ID].View(func(w *game.World) { trained = w.Player(player).Trained })
	if trained == 0 {
		t.Fatalf("the away player's slot trained nothing in 25 s: no bot played it")
	}
	n.Resume(away.ID)
	n.Run(1000)
	if slices.Contains(host.Status.Drives, slot) || !away.Live() || away.Status.Host != host.ID {
		t.Fatalf("the player is not back in its slot: host drives %v, %+v", host.Status.Drives, away.Status)
	}
	var a, b uint64
	matches[host.ID].View(func(w *game.World) { a = w.Hash() })
	matches[away.ID].View(func(w *game.World) { b = w.Hash() })
	if host.Last() == away.Last() && a != b {
		t.Fatal("the returning player's world differs from the host's")
	}
}
