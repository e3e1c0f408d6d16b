package client

import (
	"testing"

	"hostfall/session"
)

func TestSessionEvent(t *testing.T) {
	l := &session.Lobby{Slots: []session.Slot{
		{Kind: session.SlotHuman, Peer: "p-ann", Name: "Ann"},
		{Kind: session.SlotHuman, Peer: "p-bo", Name: "Bo"},
		{Kind: session.SlotBot, Name: "Bot 3"},
		{Kind: session.SlotOpen},
	}}
	tests := []struct {
		in   session.Event
		want Event
		ok   bool
	}{
		{session.Event{Kind: session.EvHostChanged, OldHost: "p-ann", NewHost: "p-bo", Ticks: 14}, Event{Kind: EvHostChanged, Name: "Bo", Millis: 140}, true},
		{session.Event{Kind: session.EvHostChanged, NewHost: "p-unknown", Ticks: 3}, Event{Kind: EvHostChanged, Name: "p-unknown", Millis: 30}, true},
		{session.Event{Kind: session.EvWaiting, Slot: 1, TicksLeft: 250}, Event{Kind: EvWaiting, Name: "Bo", Seconds: 3}, true},
		{session.Event{Kind: session.EvWaitOver, Slot: 1}, Event{Kind: EvWaitOver, Name: "Bo"}, true},
		{session.Event{Kind: session.EvPlayerLeft, Slot: 0, Turn: 99, Reason: session.DepartHostLost}, Event{Kind: EvPlayerLeft, Name: "Ann", Turn: 99, Text: "host lost"}, true},
		{session.Event{Kind: session.EvDesync, Desync: &session.DesyncInfo{Turn: 40}}, Event{Kind: EvDesync, Turn: 40}, true},
		{session.Event{Kind: session.EvDesyncRepaired, Turn: 40}, Event{Kind: EvDesyncRepaired, Turn: 40}, true},
		{session.Event{Kind: session.EvChat, Chat: &session.Chat{FromName: "Bo", Team: 2, Text: "hi"}}, Event{Kind: EvChat, Name: "Bo", Team: 2, Text: "hi"}, true},
		{session.Event{Kind: session.EvRefused, Refusal: &session.Refusal{Code: session.RefuseFull, Text: "The game is full."}}, Event{Kind: EvRefused, Text: "The game is full."}, true},
		{session.Event{Kind: session.EvCountdown, Count: 3}, Event{Kind: EvCountdown, Count: 3}, true},
		{session.Event{Kind: session.EvLeft, Text: "You left the session."}, Event{Kind: EvLeft, Text: "You left the session."}, true},
		{session.Event{Kind: session.EvLobbyChanged}, Event{}, false},
		{session.Event{Kind: session.EvChat}, Event{}, false},
	}
	for _, tt := range tests {
		got, ok := SessionEvent(tt.in, l, 10)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%v: got %+v %v, want %+v %v", tt.in.Kind, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSessionPlayers(t *testing.T) {
	l := &session.Lobby{Slots: []session.Slot{
		{Kind: session.SlotHuman, Name: "Ann", Color: 3, Team: 1},
		{Kind: session.SlotOpen},
		{Kind: session.SlotBot, Name: "Bot 3", Color: 5},
		{Kind: session.SlotClosed},
	}}
	got := SessionPlayers(l)
	want := []Player{{Name: "Ann", Slot: 0, Color: 3, Team: 1}, {Name: "Bot 3", Slot: 2, Color: 5, Bot: true}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("players %+v, want %+v", got, want)
	}
}
