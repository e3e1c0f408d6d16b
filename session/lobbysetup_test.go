package session_test

import (
	"errors"
	"strings"
	"testing"

	"hostfall/session"
	"hostfall/session/simnet"
)

// Every played slot keeps a colour of its own, whatever order the host,
// the joiners and the bots come in; the host sets its bots' colour and
// team, and every peer sees it.
func TestLobbyColoursStayUnique(t *testing.T) {
	edit := func(l session.Lobby, slot int, color uint8) session.SlotEdit {
		s := l.Slots[slot]
		return session.SlotEdit{Name: s.Name, Color: color, Team: s.Team, Ready: s.Ready}
	}
	for _, tt := range []struct {
		name string
		act  func(t *testing.T, n *simnet.Net, host, guest *session.Node)
	}{
		{"a bot put in after the host took its slot's colour", func(t *testing.T, _ *simnet.Net, host, _ *session.Node) {
			must(t, host.EditSlot(edit(host.Lobby(), 0, 2)))
			must(t, host.SetSlot(2, session.SlotBot, 0))
		}},
		{"a guest asks for the host's colour", func(t *testing.T, _ *simnet.Net, host, guest *session.Node) {
			must(t, guest.EditSlot(edit(guest.Lobby(), 1, 0)))
		}},
		{"the host asks for a bot's colour", func(t *testing.T, _ *simnet.Net, host, _ *session.Node) {
			must(t, host.SetSlot(3, session.SlotBot, 1))
			must(t, host.EditSlot(edit(host.Lobby(), 0, 3)))
		}},
		{"a bot put in after a guest took its slot's colour", func(t *testing.T, n *simnet.Net, host, guest *session.Node) {
			must(t, guest.EditSlot(edit(guest.Lobby(), 1, 4)))
			n.Run(10)
			if c := host.Lobby().Slots[1].Color; c != 4 {
				t.Fatalf("the guest's colour is %d, want 4", c)
			}
			must(t, host.SetSlot(4, session.SlotBot, 0))
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n := lobbyOf(t, 1, 2, simConfig(), "")
			host, guest := n.Peers[0].Node, n.Peers[1].Node
			tt.act(t, n, host, guest)
			n.Run(20)
			for _, p := range n.Peers {
				l := p.Node.Lobby()
				seen := map[uint8]int{}
				for i, s := range l.Slots {
					if s.Kind != session.SlotHuman && s.Kind != session.SlotBot {
						continue
					}
					if j, ok := seen[s.Color]; ok {
						t.Fatalf("%s sees slots %d and %d in colour %d: %+v", p.ID, j, i, s.Color, l.Slots)
					}
					seen[s.Color] = i
				}
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestHostEditsBots(t *testing.T) {
	n := lobbyOf(t, 1, 2, simConfig(), "")
	host, guest := n.Peers[0].Node, n.Peers[1].Node
	must(t, host.SetSlot(2, session.SlotBot, 1))
	must(t, host.EditBot(2, session.SlotEdit{Color: 5, Team: 2}))
	n.Run(10)
	if s := guest.Lobby().Slots[2]; s.Color != 5 || s.Team != 2 || s.Kind != session.SlotBot || s.BotLevel != 1 {
		t.Fatalf("the guest sees the bot as %+v, want colour 5, team 2", s)
	}
	for _, tt := range []struct {
		name string
		node *session.Node
		slot int
		e    session.SlotEdit
		want error
	}{
		{"a guest", guest, 2, session.SlotEdit{Color: 6}, session.ErrNotHost},
		{"a human's slot", host, 1, session.SlotEdit{Color: 6}, session.ErrBadArgument},
		{"an open slot", host, 3, session.SlotEdit{Color: 6}, session.ErrBadArgument},
		{"a colour in use", host, 2, session.SlotEdit{Color: 0}, session.ErrBadArgument},
		{"out of range", host, 9, session.SlotEdit{}, session.ErrBadArgument},
	} {
		if err := tt.node.EditBot(tt.slot, tt.e); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
}

// The host's settings (map, turn length, an away player's bot) reach every
// peer with the lobby.
func TestConfigureReachesGuests(t *testing.T) {
	n := lobbyOf(t, 1, 2, simConfig(), "")
	host := n.Peers[0].Node
	must(t, host.Configure(session.Settings{Name: "sim", MapSeed: 4821, MapSize: 64, TurnTicks: 8, AwayBot: 2}))
	n.Run(10)
	l := n.Peers[1].Node.Lobby()
	if l.MapSeed != 4821 || l.MapSize != 64 || l.TurnTicks != 8 || l.AwayBot != 2 {
		t.Fatalf("the guest's lobby: seed %d, size %d, turn %d ticks, away bot %d", l.MapSeed, l.MapSize, l.TurnTicks, l.AwayBot)
	}
}

// The start rule is the session's: two players on two sides, every human
// but the host ready. Node.Start refuses with the sentence StartProblem
// gives, wrapping ErrOneSide or ErrNotReady.
func TestStartNeedsTwoSides(t *testing.T) {
	human := func(name string, team uint8, ready bool) session.Slot {
		return session.Slot{Kind: session.SlotHuman, Name: name, Team: team, Ready: ready}
	}
	bot := session.Slot{Kind: session.SlotBot, Name: "Bot"}
	for _, tt := range []struct {
		name  string
		slots []session.Slot
		want  string
		err   error
	}{
		{"alone", []session.Slot{human("Ann", 0, true)}, "A game needs two players", session.ErrOneSide},
		{"one team", []session.Slot{human("Ann", 1, true), {Kind: session.SlotBot, Team: 1}}, "Everyone is on one team", session.ErrOneSide},
		{"waiting", []session.Slot{human("Ann", 0, true), human("Bo", 0, false), human("Cy", 2, false)}, "Waiting for Bo and Cy to be ready.", session.ErrNotReady},
		{"against a bot", []session.Slot{human("Ann", 0, false), bot}, "", nil},
		{"two teams", []session.Slot{human("Ann", 1, true), human("Bo", 1, true), {Kind: session.SlotBot, Team: 2}}, "", nil},
	} {
		l := session.Lobby{Slots: tt.slots}
		if got := l.StartProblem(0); !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	n := lobbyOf(t, 3, 1, simConfig(), "")
	if err := n.Peers[0].Node.Start(); !errors.Is(err, session.ErrOneSide) {
		t.Errorf("a lobby of one started: %v", err)
	}
}
