package status

import (
	"bytes"
	"testing"
	"time"

	"hostfall/client"
	"hostfall/client/network"
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
		(&PeerLines{Line: &Line{JSON: true, Out: &js}}).Event(nil, c.ev)
		(&PeerLines{Line: &Line{Human: &human}}).Event(nil, c.ev)
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
		(&PeerLines{Line: &Line{JSON: true, Out: &js}}).Event(nil, c.ev)
		(&PeerLines{Line: &Line{Human: &human}}).Event(nil, c.ev)
		if got := js.String() + human.String(); got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.ev.Kind, got, c.want)
		}
	}
}
