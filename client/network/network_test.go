package network

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/game"
	"hostfall/internal/frames"
	"hostfall/internal/testwait"
	"hostfall/match"
	"hostfall/p2p/transport"
	"hostfall/savegame"
	"hostfall/session"
	"hostfall/session/replay"
)

// Two window clients on loopback: Ann creates a game, Bo finds it in the
// browser and joins; slot changes, a ready flag and chat flow both ways;
// Ann starts; both play the same game to its turn limit and end with equal
// states, equal world events, and replays that verify.
func TestTwoClientsPlayOneGame(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	const limit = 240
	lan := &Static{}
	ann := newClient(t, "Ann", func(o *Options) { o.TurnLimit = limit })
	bo := newClient(t, "Bo", func(o *Options) { o.Browser = lan })
	defer frames.Read(ann.Client, bo.Client)() // a window's reads, each frame

	if err := ann.Create(client.CreateOptions{Name: "Friday LAN", PlayerName: "Ann", MaxPlayers: 3, MapSeed: 42, MapSize: 64}); err != nil {
		t.Fatal(err)
	}
	if l, ok := ann.Lobby(); !ok || l.Name != "Friday LAN" || ann.Slot() != 0 {
		t.Fatalf("after Create: lobby %+v %v, slot %d", l, ok, ann.Slot())
	}
	list(t, lan, ann, "lan-1")
	if got := bo.Sessions(); len(got) != 1 || got[0].Name != "Friday LAN" || got[0].Host != "Ann" || got[0].Players != 1 || got[0].Max != 3 {
		t.Fatalf("Bo's browser lists %+v", got)
	}
	if err := bo.Join("lan-1", client.JoinOptions{PlayerName: "Bo"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo in the lobby", 10*time.Second, func() bool { _, ok := bo.Lobby(); return ok })
	if bo.Slot() != 1 {
		t.Fatalf("Bo plays slot %d, want 1", bo.Slot())
	}
	if err := bo.Create(client.CreateOptions{Name: "second"}); !errors.Is(err, ErrBusy) {
		t.Errorf("creating while in a game: %v, want ErrBusy", err)
	}

	// Lobby edits flow: Ann puts a bot in slot 2, Bo picks a colour and is ready.
	if err := ann.SetSlot(2, session.SlotBot, 1); err != nil {
		t.Fatal(err)
	}
	if err := bo.EditSlot(session.SlotEdit{Name: "Bo", Color: 5, Team: 0, Ready: true}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the lobby edits on both sides", 5*time.Second, func() bool {
		a, b := ann.lobby(), bo.lobby()
		return len(a.Slots) == 3 && len(b.Slots) == 3 &&
			a.Slots[1].Color == 5 && a.Slots[1].Ready && b.Slots[2].Kind == session.SlotBot
	})
	if err := bo.SetSlot(2, session.SlotOpen, 0); err == nil {
		t.Error("Bo, not the host, changed a slot")
	}

	// Chat both ways.
	if err := ann.Say(0, "gl hf"); err != nil {
		t.Fatal(err)
	}
	if err := bo.Say(0, "you too"); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "chat on both sides", 5*time.Second, func() bool {
		_, a := bo.find(client.EvChat, func(e client.Event) bool { return e.Name == "Ann" && e.Text == "gl hf" })
		_, b := ann.find(client.EvChat, func(e client.Event) bool { return e.Name == "Bo" && e.Text == "you too" })
		return a && b
	})

	// Start: the countdown, then the game on both.
	if err := bo.Start(); err == nil {
		t.Error("Bo, not the host, started the game")
	}
	if err := ann.Start(); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the game on both", 15*time.Second, func() bool { return ann.turn() > 0 && bo.turn() > 0 })
	for _, c := range []*tclient{ann, bo} {
		if len(c.all(client.EvCountdown)) == 0 {
			t.Errorf("%s saw no countdown", c.name)
		}
		ps := c.Players()
		if len(ps) != 3 || ps[0].Name != "Ann" || ps[1].Name != "Bo" || ps[1].Color != 5 || !ps[2].Bot {
			t.Errorf("%s's players: %+v", c.name, ps)
		}
	}
	if me, ok := ann.Me(); !ok || me != 0 {
		t.Errorf("Ann is player %d %v", me, ok)
	}
	if me, ok := bo.Me(); !ok || me != 1 {
		t.Errorf("Bo is player %d %v", me, ok)
	}

	// Bo orders a worker trained; it is trained on both sides.
	var base game.UnitID
	bo.View(func(w *game.World, _ time.Time) {
		us := w.Units()
		for i := range us.Len() {
			if us.Alive(i) && us.Owner(i) == 1 && us.Kind(i) == game.Base {
				base = us.ID(i)
			}
		}
	})
	if err := bo.Propose(game.Command{Player: 1, Kind: game.CmdTrain, Units: []game.UnitID{base}, Build: game.Worker}); err != nil {
		t.Fatal(err)
	}

	// The network panel while the game runs.
	testwait.For(t, "a measured round trip", 10*time.Second, func() bool {
		st := bo.Status()
		return len(st.Peers) == 2 && st.Peers[0].PingMillis > 0
	})
	st := bo.Status()
	t.Logf("Bo's network panel: %+v", st)
	if !st.Online || st.Host != "Ann" || st.Epoch == 0 || st.Turn == 0 || st.TurnMillis != 50 ||
		!st.Peers[0].Host || st.Peers[0].Name != "Ann" || !st.Peers[1].Self || st.Peers[1].Host {
		t.Errorf("Bo's status %+v", st)
	}

	testwait.For(t, "the turn limit on both", 40*time.Second, func() bool { return ann.turn() == limit && bo.turn() == limit })
	var ha, hb uint64
	ann.View(func(w *game.World, _ time.Time) { ha = w.Hash() })
	bo.View(func(w *game.World, _ time.Time) { hb = w.Hash() })
	if ha != hb {
		t.Fatalf("at turn %d Ann's world hash %016x, Bo's %016x", limit, ha, hb)
	}
	ann.collect()
	bo.collect()
	if len(ann.world) == 0 || fmt.Sprint(ann.world) != fmt.Sprint(bo.world) {
		t.Errorf("world events differ: Ann %d, Bo %d", len(ann.world), len(bo.world))
	}
	trained := 0
	for _, e := range bo.world {
		if e.Kind == game.EvTrained && e.Player == 1 {
			trained++
		}
	}
	if trained == 0 {
		t.Error("Bo's order trained no worker")
	}

	// Each saved its replay, said where, and the replays verify.
	for _, c := range []*tclient{ann, bo} {
		e := c.await(c.name+"'s replay notice", 5*time.Second, client.EvNotice,
			func(e client.Event) bool { return strings.HasPrefix(e.Text, "Replay saved to ") })
		path := strings.TrimSuffix(strings.TrimPrefix(e.Text, "Replay saved to "), ".")
		if filepath.Dir(path) != filepath.Join(c.dir, "replays") {
			t.Errorf("%s's replay is at %s", c.name, path)
		}
		verifyReplay(t, path, limit)
	}
}

func verifyReplay(t *testing.T, path string, turns int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := replay.Read(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	n, checked, err := match.Verify(r, nil)
	if err != nil || n < turns || checked == 0 {
		t.Errorf("%s: %d turns, %d hashes checked: %v", path, n, checked, err)
	}
}

// The host leaves mid-game: the other player takes over (EvHostChanged
// names Bo) and the game goes on.
func TestHostLeavesMidGame(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	lan := &Static{}
	sessions := make(chan context.Context, 4)
	ann := newClient(t, "Ann", func(o *Options) {
		o.OnSession = func(ctx context.Context, p *Peer) { sessions <- ctx }
	})
	bo := newClient(t, "Bo", func(o *Options) { o.Browser = lan })
	if err := ann.Skirmish(client.CreateOptions{Name: "migrate", PlayerName: "Ann", MaxPlayers: 3, MapSeed: 7, MapSize: 64}, []uint8{0}, true); err != nil {
		t.Fatal(err)
	}
	list(t, lan, ann, "m")
	if err := bo.Join("m", client.JoinOptions{PlayerName: "Bo"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo in the lobby", 10*time.Second, func() bool { return bo.Slot() == 2 }) // slot 1 holds the bot
	if err := bo.EditSlot(session.SlotEdit{Name: "Bo", Ready: true}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo ready", 5*time.Second, func() bool { return ann.Start() == nil })
	testwait.For(t, "turn 40 on Bo", 20*time.Second, func() bool { return bo.turn() >= 40 })

	// The host saves the running game; a player who does not host cannot.
	if _, err := bo.Save(); err == nil {
		t.Error("Bo saved the game without hosting it")
	}
	path, err := ann.Save()
	if err != nil {
		t.Fatalf("the host's save: %v", err)
	}
	if sv, err := savegame.ReadFile(path); err != nil || sv.Turn() < 40 || sv.Lobby.Name != "migrate" {
		t.Errorf("the save %s reads back as %+v, %v", path, sv, err)
	}

	ann.Leave()
	if _, ok := ann.Lobby(); ok {
		t.Error("Ann still sees a lobby after leaving")
	}
	hc := bo.await("the host change on Bo", 15*time.Second, client.EvHostChanged, nil)
	t.Logf("host change: %+v", hc)
	if hc.Name != "Bo" || hc.Millis < 0 {
		t.Errorf("host change %+v, want Bo hosting", hc)
	}
	at := bo.turn()
	testwait.For(t, "the game going on", 10*time.Second, func() bool { return bo.turn() >= at+20 })
	if st := bo.Status(); st.Host != "Bo" || st.Epoch < 2 {
		t.Errorf("Bo's status after the change: %+v", st)
	}
	// Ann's Bye says she left; if it is lost with her closing connection,
	// Bo only sees her silent and she is away (her slot stays).
	_, left := bo.find(client.EvPlayerLeft, func(e client.Event) bool { return e.Name == "Ann" })
	_, away := bo.find(client.EvNotice, func(e client.Event) bool { return e.Name == "Ann" && strings.Contains(e.Text, "away") })
	if !left && !away {
		t.Error("Bo was told neither that Ann left nor that she is away")
	}
	// OnSession's context ends with the session it was given for.
	select {
	case ctx := <-sessions:
		select {
		case <-ctx.Done():
		case <-time.After(5 * time.Second):
			t.Error("the left session's context did not end")
		}
	default:
		t.Error("OnSession was not called for the hosted session")
	}
	// Ann may create a new game at once on the same host.
	if err := ann.Create(client.CreateOptions{Name: "again", PlayerName: "Ann"}); err != nil {
		t.Fatalf("a new game after leaving: %v", err)
	}
	if l, ok := ann.Lobby(); !ok || l.Name != "again" {
		t.Errorf("Ann's new lobby %+v %v", l, ok)
	}
}

// A wrong password is refused in a sentence (once, not again as "left");
// the same client then joins with the right one. Invite codes go to the
// resolver, and without one they are refused.
func TestJoinRefusedThenAccepted(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	lan := &Static{}
	ann := newClient(t, "Ann", nil)
	var codes []string
	bo := newClient(t, "Bo", func(o *Options) {
		o.Browser = lan
		o.ResolveCode = func(_ context.Context, code string) (transport.AddrInfo, error) {
			codes = append(codes, code)
			return ann.Addr(), nil
		}
	})
	cy := newClient(t, "Cy", nil)
	if err := ann.Create(client.CreateOptions{Name: "locked", PlayerName: "Ann", Password: "sesame", MaxPlayers: 3}); err != nil {
		t.Fatal(err)
	}
	list(t, lan, ann, "l")
	if got := bo.Sessions(); len(got) != 1 || !got[0].Locked {
		t.Fatalf("listing %+v, want a locked game", got)
	}

	if err := bo.Join("l", client.JoinOptions{PlayerName: "Bo", Password: "wrong"}); err != nil {
		t.Fatal(err)
	}
	var ref client.Event
	testwait.For(t, "the refusal", 10*time.Second, func() bool {
		var ok bool
		ref, ok = bo.find(client.EvRefused, nil)
		return ok && bo.current() == nil
	})
	if !strings.Contains(strings.ToLower(ref.Text), "password") {
		t.Errorf("refusal %q does not mention the password", ref.Text)
	}
	if left := bo.all(client.EvLeft); len(left) != 0 {
		t.Errorf("the refusal was repeated as %+v", left)
	}

	if err := bo.JoinCode("HF-1234", client.JoinOptions{PlayerName: "Bo", Password: "sesame"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo in by invite code", 10*time.Second, func() bool { return bo.Slot() == 1 })
	if len(codes) != 1 || codes[0] != "HF-1234" {
		t.Errorf("resolver saw %v", codes)
	}
	if err := cy.JoinCode("HF-1234", client.JoinOptions{}); !errors.Is(err, ErrNoInvites) {
		t.Errorf("invite code without a resolver: %v", err)
	}
	if err := cy.Join("l", client.JoinOptions{}); !errors.Is(err, ErrNoBrowser) {
		t.Errorf("join without a browser: %v", err)
	}
	if err := bo.Join("gone", client.JoinOptions{}); err == nil {
		t.Error("joining an unlisted game was taken")
	}
}

// A host nobody answers at: the join gives up with a sentence.
func TestJoinUnreachable(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	lan := &Static{}
	gone := newClient(t, "Gone", nil)
	addr := gone.Addr()
	gone.opt.Host.Close()
	bo := newClient(t, "Bo", func(o *Options) { o.Browser = lan; o.JoinTimeout = 2 * time.Second })
	lan.Add(client.Listing{ID: "x", Name: "ghost"}, addr)
	if err := bo.Join("x", client.JoinOptions{PlayerName: "Bo"}); err != nil {
		t.Fatal(err)
	}
	ref := bo.await("the refusal", 10*time.Second, client.EvRefused, nil)
	if !strings.Contains(ref.Text, "Could not reach") {
		t.Errorf("refusal %q", ref.Text)
	}
	testwait.For(t, "the browser again", 5*time.Second, func() bool { return bo.current() == nil })
}

// A desync report is written to the report directory and the player is
// told where; without a directory nothing is written.
func TestDesyncReportNotice(t *testing.T) {
	c := newClient(t, "Ann", nil)
	r := &match.Report{Desync: session.DesyncInfo{Turn: 60, Majority: 1,
		Hashes: []session.PeerHash{{Peer: "a", Hash: 1}, {Peer: "b", Hash: 2}}}}
	c.handle(&netSession{}, Event{Kind: EvDesyncReport, Turn: 60, Report: r})
	e, ok := c.find(client.EvNotice, nil)
	if !ok || !strings.HasPrefix(e.Text, "A desync report was written to ") {
		t.Fatalf("notice %+v %v", e, ok)
	}
	path := strings.TrimSuffix(strings.TrimPrefix(e.Text, "A desync report was written to "), ".")
	b, err := os.ReadFile(path)
	if err != nil || filepath.Dir(path) != filepath.Join(c.dir, "desync") || !strings.Contains(string(b), "turn 60") {
		t.Errorf("report at %s: %q %v", path, b, err)
	}

	quiet := newClient(t, "Bo", func(o *Options) { o.ReportDir = "" })
	quiet.handle(&netSession{}, Event{Kind: EvDesyncReport, Turn: 60, Report: r})
	if e, ok := quiet.find(client.EvNotice, nil); ok {
		t.Errorf("without a report directory: %+v", e)
	}
}
