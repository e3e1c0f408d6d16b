package match

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"hostfall/game"
	"hostfall/session"
	"hostfall/session/replay"
)

// recordBotGame records a replay of two bots playing turns turns, as a peer's
// Match would: lobby, every turn's encoded commands, a hash every 10 turns.
func recordBotGame(tb testing.TB, turns int) []byte {
	tb.Helper()
	lobby := session.Lobby{MapSeed: 9, MapSize: 64, State: session.StateLoading,
		Slots: []session.Slot{{Kind: session.SlotBot, BotLevel: 1}, {Kind: session.SlotBot}}}
	var buf bytes.Buffer
	m := New(Options{Replay: &buf})
	if err := m.Load(lobby); err != nil {
		tb.Fatal(err)
	}
	playBots(tb, m, turns)
	if err := m.CloseReplay(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func TestVerifyAcceptsARecordingAndRefusesAForgery(t *testing.T) {
	data := recordBotGame(t, 400)
	r, err := replay.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	turns, checked, err := Verify(r, nil)
	if err != nil || turns != 400 || checked != 40 {
		t.Fatalf("Verify = %d turns, %d hashes, %v; want 400, 40, nil", turns, checked, err)
	}

	// A replay whose commands were changed no longer reproduces its hashes.
	forged := *r
	forged.Turns = append([]session.Turn(nil), r.Turns...)
	for i, tn := range forged.Turns {
		if len(tn.Commands) > 0 {
			tn.Commands = tn.Commands[1:]
			forged.Turns[i] = tn
			break
		}
	}
	if _, _, err := Verify(&forged, nil); !errors.Is(err, ErrReplayMismatch) {
		t.Errorf("forged replay: %v, want ErrReplayMismatch", err)
	}

	// A damaged file is refused by the reader before any playback.
	bad := bytes.Clone(data)
	bad[len(bad)/2] ^= 0x40
	if _, err := replay.Read(bytes.NewReader(bad)); !errors.Is(err, replay.ErrCorrupt) {
		t.Errorf("damaged replay: %v, want ErrCorrupt", err)
	}
}

// A replay of other game rules is refused with a sentence, not played into
// a game that fails its hashes.
func TestReplayOfOtherRulesIsRefused(t *testing.T) {
	r, err := replay.Read(bytes.NewReader(recordBotGame(t, 20)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Rules != game.RulesVersion {
		t.Fatalf("the recording says rules %d, want %d", r.Rules, game.RulesVersion)
	}
	for _, tc := range []struct {
		rules uint64
		want  string
	}{
		{0, "older Hostfall"},
		{game.RulesVersion - 1, "older Hostfall"},
		{game.RulesVersion + 1, "update Hostfall"},
	} {
		other := *r
		other.Rules = tc.rules
		_, _, err := Verify(&other, nil)
		if !errors.Is(err, ErrReplayRules) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("rules %d: %v, want ErrReplayRules saying %q", tc.rules, err, tc.want)
		}
	}
}
