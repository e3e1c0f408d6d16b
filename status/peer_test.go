package status

import (
	"bytes"
	"testing"

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
