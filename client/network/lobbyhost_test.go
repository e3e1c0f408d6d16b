package network

import (
	"strings"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/internal/testwait"
	"hostfall/session"
)

// The host sets the lobby up as the window does (client.LobbyHost): the
// map, the speed and the away policy reach the joiner, the password stays
// (a wrong one is still refused), a bot takes a colour and team, and a
// kicked player is told and cannot come back.
func TestLobbyHostSetsUp(t *testing.T) {
	t.Parallel() // loopback, mostly idle
	lan := &Static{}
	ann := newClient(t, "Ann", nil)
	bo := newClient(t, "Bo", func(o *Options) { o.Browser = lan })
	if err := ann.Create(client.CreateOptions{Name: "locked", PlayerName: "Ann", Password: "sesame", MaxPlayers: 3}); err != nil {
		t.Fatal(err)
	}
	setup := client.Setup{MapSeed: 4821, MapSize: 64, TurnTicks: 8, AwayBot: 2}
	if err := ann.Configure(setup); err != nil {
		t.Fatal(err)
	}
	if l := ann.lobby(); client.SetupOf(&l) != setup || !l.Password || l.Name != "locked" || l.MaxPlayers != 3 {
		t.Fatalf("the host's lobby after Configure: %+v", l)
	}
	list(t, lan, ann, "l")
	if err := bo.Join("l", client.JoinOptions{PlayerName: "Bo", Password: "wrong"}); err != nil {
		t.Fatal(err)
	}
	bo.await("the wrong password refused", 10*time.Second, client.EvRefused, nil)
	testwait.For(t, "Bo out", 5*time.Second, func() bool { return bo.current() == nil })
	if err := bo.Join("l", client.JoinOptions{PlayerName: "Bo", Password: "sesame"}); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "Bo in", 10*time.Second, func() bool { return bo.Slot() == 1 })
	if l := bo.lobby(); client.SetupOf(&l) != setup {
		t.Fatalf("Bo's lobby has %+v, want %+v", client.SetupOf(&l), setup)
	}

	if err := ann.SetSlot(2, session.SlotBot, 0); err != nil {
		t.Fatal(err)
	}
	if err := ann.EditBot(2, session.SlotEdit{Color: 6, Team: 2}); err != nil {
		t.Fatal(err)
	}
	if err := bo.EditBot(2, session.SlotEdit{Color: 4}); err == nil {
		t.Error("Bo, not the host, set a bot up")
	}
	testwait.For(t, "the bot's colour and team at Bo's", 5*time.Second, func() bool {
		s := bo.lobby().Slots[2]
		return s.Kind == session.SlotBot && s.Color == 6 && s.Team == 2
	})

	if err := ann.Kick(1); err != nil {
		t.Fatal(err)
	}
	bo.await("Bo told he was removed", 10*time.Second, client.EvRefused, func(e client.Event) bool { return strings.Contains(e.Text, "removed") })
	testwait.For(t, "Bo's slot open", 5*time.Second, func() bool { return ann.lobby().Slots[1].Kind == session.SlotOpen })
}
