package client

import (
	"testing"

	"hostfall/session"
)

func TestStartProblem(t *testing.T) {
	human := func(name string, team uint8, ready bool) session.Slot {
		return session.Slot{Kind: session.SlotHuman, Name: name, Team: team, Ready: ready}
	}
	bot := func(team uint8) session.Slot {
		return session.Slot{Kind: session.SlotBot, Name: "Bot", Team: team, Ready: true}
	}
	open := session.Slot{Kind: session.SlotOpen}
	for _, tt := range []struct {
		name  string
		slots []session.Slot
		want  string
	}{
		{"alone", []session.Slot{human("Ann", 0, false), open},
			"A game needs two players: put a bot in an open slot or wait for someone to join."},
		{"against a bot", []session.Slot{human("Ann", 0, false), bot(0)}, ""},
		{"the host need not be ready", []session.Slot{human("Ann", 1, false), human("Bo", 2, true)}, ""},
		{"a player not ready", []session.Slot{human("Ann", 0, false), human("Bo", 0, false), bot(0)},
			"Waiting for Bo to be ready."},
		{"three not ready", []session.Slot{human("Ann", 0, true), human("Bo", 0, false), human("Cy", 0, false), human("Di", 0, false)},
			"Waiting for Bo, Cy and Di to be ready."},
		{"one team", []session.Slot{human("Ann", 1, false), bot(1), bot(1)},
			"Everyone is on one team: put a player on another team."},
		{"a team against a player of none", []session.Slot{human("Ann", 1, false), bot(1), bot(0)}, ""},
		{"bots as a team against the host", []session.Slot{human("Ann", 0, false), bot(2), bot(2)}, ""},
		{"nine players", []session.Slot{human("Ann", 0, false), bot(0), bot(0), bot(0), bot(0), bot(0), bot(0), bot(0), bot(0)},
			"A game takes at most 8 players: close a slot."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := session.Lobby{Slots: tt.slots}
			if got := StartProblem(&l, 0); got != tt.want {
				t.Fatalf("%q, want %q", got, tt.want)
			}
		})
	}
}

func TestSpeeds(t *testing.T) {
	seen := map[uint32]bool{}
	ticks := uint32(5)
	for range Speeds {
		if seen[ticks] {
			t.Fatalf("the speeds cycle back to %d ticks early", ticks)
		}
		seen[ticks] = true
		ticks = NextSpeed(ticks)
	}
	if ticks != 5 || SpeedName(5) != "Normal" || SpeedName(3) != "Fast" || SpeedName(8) != "Slow" {
		t.Fatalf("after a cycle %d ticks; names %q %q %q", ticks, SpeedName(5), SpeedName(3), SpeedName(8))
	}
	if got := SpeedName(6); got != "60 ms turns" {
		t.Fatalf("a turn of 6 ticks is %q", got)
	}
	if got := NextSpeed(6); got != 5 {
		t.Fatalf("after an unknown speed: %d ticks, want Normal", got)
	}
}

func TestSetupKeepsTheRest(t *testing.T) {
	l := session.Lobby{Name: "Friday", MaxPlayers: 6, TurnLimit: 900, MapSeed: 1, TurnTicks: 5}
	s := Setup{MapSeed: 4821, MapSize: 64, TurnTicks: 8, AwayBot: 1}.Settings(&l, "swordfish")
	want := session.Settings{Name: "Friday", MapSeed: 4821, MapSize: 64, TurnTicks: 8, MaxPlayers: 6,
		Password: "swordfish", TurnLimit: 900, AwayBot: 1}
	if s != want {
		t.Fatalf("settings %+v, want %+v", s, want)
	}
	for range 100 {
		if n := NewSeed(); n == 0 || n > 999_999 {
			t.Fatalf("new seed %d", n)
		}
	}
}
