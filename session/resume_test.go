package session_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"hostfall/session"
	"hostfall/session/simnet"
)

// savedGame plays a game of three peers and a bot for a while and saves it
// on the host.
func savedGame(t *testing.T, seed uint64) (session.Saved, uint64) {
	t.Helper()
	n := simnet.New(seed, simConfig())
	if err := startGame(n, 3, true); err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if i%3 == 0 && i < 150 {
			proposeAll(n)
			_ = n.Propose(n.Peers[0], 3, []byte(fmt.Sprintf("bot#%d", i)))
		}
		n.Tick()
	}
	noViolations(t, n)
	h := n.Peers[0]
	if err := n.Propose(h, 0, []byte("unsequenced")); err != nil {
		t.Fatal(err) // dies with the save: the resumed game never runs it
	}
	sv, err := h.Node.Save(h.Status.Turn, h.SnapshotData())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Node.Save(h.Status.Turn-1, nil); !errors.Is(err, session.ErrWrongTurn) {
		t.Fatalf("save of an earlier turn: %v", err)
	}
	if sv.State.Turn != h.Last() || sv.State.Turn < 20 {
		t.Fatalf("saved turn %d, host applied %d", sv.State.Turn, h.Last())
	}
	// The save travels through a file: its lobby through the codec.
	b, err := session.MarshalLobby(sv.Lobby)
	if err != nil {
		t.Fatal(err)
	}
	if sv.Lobby, err = session.UnmarshalLobby(b); err != nil {
		t.Fatal(err)
	}
	return sv, h.State
}

// A saved game resumes in a new session: a player other than the old host
// hosts it, the others come back by peer ID or by name, a stranger is
// refused, everyone starts from the saved state at turn T+1, plays with
// equal states, and a migration after the resumed start works as ever.
func TestResumeSavedGameThenMigrate(t *testing.T) {
	sv, _ := savedGame(t, 41)
	T := sv.State.Turn

	n := simnet.New(42, simConfig())
	host := n.Add(pid(1), "p1") // a player other than the old host hosts now
	if err := host.Node.Host(session.Settings{Resume: &sv}); err != nil {
		t.Fatal(err)
	}
	slot1, slot2 := sv.Lobby.SlotOf(pid(1)), sv.Lobby.SlotOf(pid(2))
	if st := host.Node.Lobby(); st.Resume != T || st.SlotOf(pid(1)) != slot1 || st.Slots[3].Kind != session.SlotBot {
		t.Fatalf("resumed lobby: %+v", st)
	}
	if err := host.Node.Start(); !errors.Is(err, session.ErrNotReady) {
		t.Fatalf("start without the other players: %v", err)
	}
	back := n.Add(pid(0), "p0")                  // same peer ID
	renamed := n.Add("peer-new", string(pid(2))) // a new identity with peer-2's name
	stranger := n.Add("peer-9", "p9")
	for _, p := range []*simnet.Peer{back, renamed, stranger} {
		if err := p.Node.Join(host.ID); err != nil {
			t.Fatal(err)
		}
	}
	n.Run(10)
	if r := refusalOf(stranger); r == nil || r.Code != session.RefuseNotMember {
		t.Fatalf("stranger: %+v", r)
	}
	if back.Status.Slot != 0 || renamed.Status.Slot != slot2 {
		t.Fatalf("slots: back %d renamed %d", back.Status.Slot, renamed.Status.Slot)
	}
	for _, p := range []*simnet.Peer{back, renamed} {
		if err := p.Node.EditSlot(session.SlotEdit{Name: string(p.ID), Ready: true}); err != nil {
			t.Fatal(err)
		}
	}
	n.Run(5)
	if err := host.Node.Start(); err != nil {
		t.Fatal(err)
	}
	players := []*simnet.Peer{host, back, renamed}
	if _, ok := runUntil(n, 400, func() bool {
		return !slices.ContainsFunc(players, func(p *simnet.Peer) bool { return p.Last() == 0 })
	}); !ok {
		t.Fatalf("the resumed game did not start: %+v", host.Status)
	}
	for _, p := range players {
		if p.Restores != 1 || p.Applied[0].Number != T+1 {
			t.Fatalf("%s: %d restores, first turn %d; want 1 restore and turn %d", p.ID, p.Restores, p.Applied[0].Number, T+1)
		}
		if got := firstEvent(p, session.EvGameStarted); got == nil || got.Turn != T+1 {
			t.Fatalf("%s: game-started %+v, want turn %d", p.ID, got, T+1)
		}
	}
	if !slices.Contains(host.Status.Drives, 3) {
		t.Fatalf("the new host does not drive the saved bot: %v", host.Status.Drives)
	}
	for i := range 40 {
		if i%4 == 0 {
			proposeAll(n)
			_ = n.Propose(host, 3, []byte(fmt.Sprintf("bot-resumed#%d", i)))
		}
		n.Tick()
	}
	if cmdTurn(back, "unsequenced") != 0 {
		t.Fatal("a command not sequenced before the save ran after it")
	}
	sameStates(t, players)

	// Migration after the resumed start: the host crashes, slot 0 takes over.
	e := host.LastEpoch()
	n.Crash(host.ID)
	if _, ok := runUntil(n, 400, newTurnAfter(n, e)); !ok {
		t.Fatal("turns did not resume after the host of the resumed game crashed")
	}
	nh := hostOf(n)
	if nh != back || !slices.Contains(nh.Status.Drives, 3) {
		t.Fatalf("new host %v drives %v", nh.ID, nh.Status.Drives)
	}
	for range 10 {
		proposeAll(n)
		n.Run(4)
	}
	sameStates(t, []*simnet.Peer{back, renamed})
	noViolations(t, n)
}

// A player who leaves the resumed lobby keeps the slot reserved, and an
// absent player can be replaced by a bot so the game can start.
func TestResumedLobbyReservationsAndBots(t *testing.T) {
	sv, _ := savedGame(t, 43)
	n := simnet.New(44, simConfig())
	host := n.Add(pid(0), "p0")
	if err := host.Node.Host(session.Settings{Resume: &sv, Name: "again"}); err != nil {
		t.Fatal(err)
	}
	p1 := n.Add(pid(1), "p1")
	_ = p1.Node.Join(host.ID)
	n.Run(10)
	n.Leave(p1)
	n.Run(10)
	l := host.Node.Lobby()
	if s1 := sv.Lobby.SlotOf(pid(1)); l.Name != "again" || l.SlotOf(pid(1)) != s1 || l.Slots[s1].Ready {
		t.Fatalf("lobby after peer-1 left: %+v", l)
	}
	if err := host.Node.SetSlot(3, session.SlotClosed, 0); err == nil {
		t.Fatal("closed the saved bot's slot")
	}
	for _, s := range []int{1, 2} {
		if err := host.Node.SetSlot(s, session.SlotBot, 1); err != nil {
			t.Fatal(err)
		}
	}
	n.Run(2)
	if err := host.Node.Start(); err != nil {
		t.Fatal(err)
	}
	if _, ok := runUntil(n, 400, func() bool { return host.Last() > sv.State.Turn+5 }); !ok {
		t.Fatal("the game with bots for the absent players did not start")
	}
	if d := host.Status.Drives; !slices.Equal(d, []int{0, 1, 2, 3}) {
		t.Fatalf("host drives %v", d)
	}
	noViolations(t, n)
}

// Hosting a save one was not part of is refused with the players' names.
func TestHostSaveOfOthersIsRefused(t *testing.T) {
	sv, _ := savedGame(t, 45)
	n := simnet.New(46, simConfig())
	p := n.Add("peer-x", "x")
	err := p.Node.Host(session.Settings{Resume: &sv})
	if !errors.Is(err, session.ErrBadArgument) {
		t.Fatalf("got %v", err)
	}
	t.Log(err)
}

func firstEvent(p *simnet.Peer, k session.EventKind) *session.Event {
	for i := range p.Events {
		if p.Events[i].Kind == k {
			return &p.Events[i]
		}
	}
	return nil
}

// sameStates checks that peers that applied the same turn hold one state.
func sameStates(t *testing.T, ps []*simnet.Peer) {
	t.Helper()
	for _, p := range ps[1:] {
		a, b := ps[0], p
		if a.Last() == b.Last() && a.State != b.State {
			t.Fatalf("%s and %s differ at turn %d", a.ID, b.ID, a.Last())
		}
		k := min(len(a.Applied), len(b.Applied))
		for i := range k {
			if a.Applied[i].Number != b.Applied[i].Number || a.Applied[i].Chain != b.Applied[i].Chain {
				t.Fatalf("%s and %s: histories differ at index %d", a.ID, b.ID, i)
			}
		}
	}
}

// A player who leaves while a resumed game loads departs in its first
// turn, as in play: the others do not wait for it forever.
func TestLeavingWhileAResumedGameLoads(t *testing.T) {
	sv, _ := savedGame(t, 47)
	n := simnet.New(48, simConfig())
	host := n.Add(pid(0), "p0")
	if err := host.Node.Host(session.Settings{Resume: &sv}); err != nil {
		t.Fatal(err)
	}
	var others []*simnet.Peer
	for i := 1; i <= 2; i++ {
		p := n.Add(pid(i), fmt.Sprintf("p%d", i))
		_ = p.Node.Join(host.ID)
		others = append(others, p)
	}
	n.Run(10)
	for _, p := range others {
		_ = p.Node.EditSlot(session.SlotEdit{Ready: true})
	}
	n.Run(5)
	if err := host.Node.Start(); err != nil {
		t.Fatal(err)
	}
	if _, ok := runUntil(n, 200, func() bool { return host.Status.State == session.StateLoading }); !ok {
		t.Fatal("never loading")
	}
	leaver := others[1]
	slot := sv.Lobby.SlotOf(leaver.ID)
	n.Leave(leaver)
	if _, ok := runUntil(n, 100, func() bool { return host.Last() > sv.State.Turn }); !ok {
		t.Fatal("the game did not start without the player who left")
	}
	first := host.Applied[0].Turn
	if first.Number != sv.State.Turn+1 || len(first.Departures) != 1 || first.Departures[0].Slot != slot {
		t.Fatalf("first turn %+v; want slot %d to depart in turn %d", first, slot, sv.State.Turn+1)
	}
	n.Run(20)
	sameStates(t, []*simnet.Peer{host, others[0]})
	noViolations(t, n)
}
