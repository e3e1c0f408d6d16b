package status

import (
	"bytes"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/client/network"
	"hostfall/game"
	"hostfall/session"
)

// The auto and resume lines a host prints before its game: which --auto
// peer hosts, and which save resumes for whom.
func TestAutoAndResumeLines(t *testing.T) {
	id := testPeerID(t)
	var out bytes.Buffer
	line := &Line{JSON: true, Out: &out}
	Auto(line, true, id)
	Auto(line, false, id)
	lobby := session.Lobby{Slots: []session.Slot{{Kind: session.SlotHuman, Name: "Ann"}, {Kind: session.SlotBot, Name: "bot"}, {Kind: session.SlotHuman, Name: "Bo"}}}
	Resuming(line, "a.hfsave", 120, 0xabc, lobby)
	want := `{"ev":"auto","role":"host","host":"` + id.String() + `"}` + "\n" +
		`{"ev":"auto","role":"join","host":"` + id.String() + `"}` + "\n" +
		`{"ev":"resume","path":"a.hfsave","turn":120,"hash":"0000000000000abc","players":"Ann, Bo"}` + "\n"
	if out.String() != want {
		t.Fatalf("lines\n%s\nwant\n%s", out.String(), want)
	}
	var human bytes.Buffer
	Resuming(&Line{Human: &human}, "a.hfsave", 120, 0xabc, lobby)
	if got := human.String(); got != "resuming a.hfsave after turn 120; waiting for Ann, Bo\n" {
		t.Fatalf("text %q", got)
	}
}

// The waiting line says what happens when the wait runs out: a player goes
// away, or, for a new host's followers, the game plays on without the others.
func TestWaitingLines(t *testing.T) {
	for _, c := range []struct {
		ev   network.Event
		want string
	}{
		{network.Event{Kind: network.EvWaiting, Slot: 2, Name: "Bo", Left: 2600 * time.Millisecond},
			`{"ev":"waiting","slot":2,"name":"Bo","seconds_left":2}` + "\n" + "Waiting for Bo… away in 3 s\n"},
		{network.Event{Kind: network.EvWaiting, Slot: -1, Name: client.OtherPlayers, Left: 3 * time.Second},
			`{"ev":"waiting","slot":-1,"name":"the other players","seconds_left":3}` + "\n" +
				"Waiting for the other players… playing on without them in 3 s\n"},
	} {
		var js, human bytes.Buffer
		(&PeerLines{Line: &Line{JSON: true, Out: &js}}).Event(network.Status{}, c.ev)
		(&PeerLines{Line: &Line{Human: &human}}).Event(network.Status{}, c.ev)
		if got := js.String() + human.String(); got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.ev.Name, got, c.want)
		}
	}
}

// The pause lines name who paused or resumed, the turn, and what is left.
func TestPauseLines(t *testing.T) {
	for _, c := range []struct {
		ev   network.Event
		want string
	}{
		{network.Event{Kind: network.EvPaused, Slot: 1, Name: "Bo", Turn: 300, Count: 2},
			`{"ev":"paused","by":"Bo","slot":1,"turn":300,"left":2}` + "\n" + "Bo paused the game at turn 300 (2 left)\n"},
		{network.Event{Kind: network.EvPaused, Slot: 0, Name: "Ann", Turn: 40, Count: -1},
			`{"ev":"paused","by":"Ann","slot":0,"turn":40,"left":-1}` + "\n" + "Ann paused the game at turn 40 (no limit)\n"},
		{network.Event{Kind: network.EvResuming, Slot: 0, Name: "Ann", Turn: 400, Count: 60},
			`{"ev":"resuming","by":"Ann","slot":0,"turn":400,"turns":60}` + "\n" + "Ann resumes the game: it goes on in 60 turns\n"},
		{network.Event{Kind: network.EvResumed, Slot: 0, Name: "Ann", Turn: 459},
			`{"ev":"resumed","by":"Ann","slot":0,"turn":459}` + "\n" + "the game goes on from turn 459\n"},
	} {
		var js, human bytes.Buffer
		(&PeerLines{Line: &Line{JSON: true, Out: &js}}).Event(network.Status{}, c.ev)
		(&PeerLines{Line: &Line{Human: &human}}).Event(network.Status{}, c.ev)
		if got := js.String() + human.String(); got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.ev.Kind, got, c.want)
		}
	}
}

// The start and end lines take what they say of this peer (its slot, its
// host, its longest stall) from the status it reported the event with, and
// after the end line nothing more is printed.
func TestStartAndEndLines(t *testing.T) {
	host := testPeerID(t)
	st := network.Status{Slot: 1, Host: host, Stall: 42 * time.Millisecond, Busy: 3 * time.Millisecond, BusyIn: "tick", Late: 39 * time.Millisecond}
	defer func(f func() float64) { gcPause = f }(gcPause)
	gcPause = func() float64 { return 0.004 }
	var js, human bytes.Buffer
	for _, ps := range []*PeerLines{{Line: &Line{JSON: true, Out: &js}}, {Line: &Line{Human: &human}}} {
		ps.Event(st, network.Event{Kind: network.EvGameStarted})
		end := network.Event{Kind: network.EvEnd, Turn: 600, Time: 3000, Hash: 0xabc, Winner: 1, Winners: []game.PlayerID{1},
			Players: []network.EndPlayer{{Slot: 0, Out: true}, {Slot: 1, Units: 7, Buildings: 2}}}
		if !ps.Event(st, end) {
			t.Error("the end event did not end the game")
		}
		if ps.Event(st, network.Event{Kind: network.EvJoined, Slot: 3}) {
			t.Error("an event after the end ended the game again")
		}
	}
	want := `{"ev":"start","slot":1,"host":"` + host.String() + `"}` + "\n" +
		`{"ev":"end","turn":600,"hash":"0000000000000abc","winner":{"team":1,"players":[1]},"reason":"victory","stall_ms":42,` +
		`"busy_ms":3,"busy_in":"tick","late_ms":39,"gc_pause_ms":4,"slot":1,` +
		`"players":[{"slot":0,"units":0,"buildings":0,"out":true},{"slot":1,"units":7,"buildings":2,"out":false}]}` + "\n" +
		"the game starts; this peer plays slot 1\n" +
		"game over at turn 600 (2:30 of game time): victory; state hash 0000000000000abc\n"
	if got := js.String() + human.String(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
