package match

import (
	"bytes"
	"io"
	"testing"

	"hostfall/game/ai"
	"hostfall/session"
	"hostfall/session/replay"
)

// botTurns plays two bots for turns turns and returns the turns (with a
// hash every 10) and the match that played them.
func botTurns(tb testing.TB, lobby session.Lobby, turns int) ([]session.Turn, *Match) {
	tb.Helper()
	m := New(Options{})
	if err := m.Load(lobby); err != nil {
		tb.Fatal(err)
	}
	return playBots(tb, m, turns), m
}

// playBots has a hard bot in slot 0 and an easy one in slot 1 play turns
// turns on m, loaded at turn 0, as a host would sequence them: a hash
// every 10 turns. It returns the turns.
func playBots(tb testing.TB, m *Match, turns int) []session.Turn {
	tb.Helper()
	bots := []*ai.Bot{ai.New(0, ai.Hard, 1), ai.New(1, ai.Easy, 2)}
	var seq [2]uint64
	var out []session.Turn
	for n := uint64(1); n <= uint64(turns); n++ {
		t := session.Turn{Number: n, WantHash: n%10 == 0}
		for slot, b := range bots {
			for _, c := range b.Think(m.world) {
				data, err := c.AppendBinary(nil)
				if err != nil {
					tb.Fatal(err)
				}
				seq[slot]++
				t.Commands = append(t.Commands, session.Command{Slot: slot, Seq: seq[slot], Data: data})
			}
		}
		if err := m.applyTurn(t, nopNode{}); err != nil {
			tb.Fatal(err)
		}
		out = append(out, t)
	}
	return out
}

// verifyReplay reads and plays back one replay; it returns its first and
// last turn.
func verifyReplay(t *testing.T, what string, data []byte) (first, last uint64) {
	t.Helper()
	r, err := replay.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if _, _, err := Verify(r, nil); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if len(r.Turns) == 0 {
		t.Fatalf("%s has no turns", what)
	}
	return r.Turns[0].Number, r.Turns[len(r.Turns)-1].Number
}

// A peer that takes the game back by snapshot after an absence (its turns
// stop before the snapshot) ends its replay there, whole, and goes on in
// the next one, which starts from the snapshot; a late joiner's replay starts
// from the snapshot it joined with; a restore of the state the peer already
// had keeps the one replay. Every replay plays back.
func TestReplayAcrossARejoinBySnapshot(t *testing.T) {
	lobby := session.Lobby{MapSeed: 9, MapSize: 64, State: session.StateLoading,
		Slots: []session.Slot{{Kind: session.SlotBot, BotLevel: 1}, {Kind: session.SlotBot}}}
	turns, _ := botTurns(t, lobby, 400)
	_, at300 := botTurns(t, lobby, 300) // the state after turn 300, as the host sends it
	snap := &session.Snapshot{Turn: 300, Data: at300.Snapshot()}

	t.Run("away", func(t *testing.T) {
		var first, next bytes.Buffer
		m := New(Options{Replay: &first, NextReplay: func() io.Writer { return &next }})
		if err := m.Load(lobby); err != nil {
			t.Fatal(err)
		}
		if err := m.Apply(&session.Ready{Committed: turns[:100]}, nopNode{}); err != nil {
			t.Fatal(err)
		}
		if err := m.Apply(&session.Ready{Restore: snap, Committed: turns[300:]}, nopNode{}); err != nil {
			t.Fatal(err)
		}
		if err := m.CloseReplay(); err != nil {
			t.Fatal(err)
		}
		if f, l := verifyReplay(t, "the replay until the absence", first.Bytes()); f != 1 || l != 100 {
			t.Errorf("the replay until the absence has turns %d–%d, want 1–100", f, l)
		}
		if f, l := verifyReplay(t, "the replay from the snapshot", next.Bytes()); f != 301 || l != 400 {
			t.Errorf("the replay from the snapshot has turns %d–%d, want 301–400", f, l)
		}
	})

	t.Run("late joiner", func(t *testing.T) {
		var rec bytes.Buffer
		m := New(Options{Replay: &rec})
		playing := lobby.Clone()
		playing.State = session.StatePlaying
		if err := m.Load(playing); err != nil {
			t.Fatal(err)
		}
		if err := m.Apply(&session.Ready{Restore: snap, Committed: turns[300:]}, nopNode{}); err != nil {
			t.Fatal(err)
		}
		if err := m.CloseReplay(); err != nil {
			t.Fatal(err)
		}
		if f, l := verifyReplay(t, "the late joiner's replay", rec.Bytes()); f != 301 || l != 400 {
			t.Errorf("the late joiner's replay has turns %d–%d, want 301–400", f, l)
		}
	})

	t.Run("after the end", func(t *testing.T) {
		// The session closes turns after the end until every peer leaves;
		// a snapshot of a later turn holds the end's state.
		var rec, next bytes.Buffer
		m := New(Options{Replay: &rec, NextReplay: func() io.Writer { return &next }})
		ended := lobby.Clone()
		ended.TurnLimit = 300
		if err := m.Load(ended); err != nil {
			t.Fatal(err)
		}
		if err := m.Apply(&session.Ready{Committed: turns[:300]}, nopNode{}); err != nil {
			t.Fatal(err)
		}
		late := &session.Snapshot{Turn: 306, Data: snap.Data}
		if err := m.Apply(&session.Ready{Restore: late}, nopNode{}); err != nil {
			t.Fatal(err)
		}
		if err := m.CloseReplay(); err != nil {
			t.Fatal(err)
		}
		if next.Len() != 0 {
			t.Error("a restore after the end started another replay")
		}
		if f, l := verifyReplay(t, "the replay", rec.Bytes()); f != 1 || l != 300 {
			t.Errorf("the replay has turns %d–%d, want 1–300", f, l)
		}
	})

	t.Run("same state", func(t *testing.T) {
		var rec, next bytes.Buffer
		m := New(Options{Replay: &rec, NextReplay: func() io.Writer { return &next }})
		if err := m.Load(lobby); err != nil {
			t.Fatal(err)
		}
		if err := m.Apply(&session.Ready{Committed: turns[:300]}, nopNode{}); err != nil {
			t.Fatal(err)
		}
		if err := m.Apply(&session.Ready{Restore: snap, Committed: turns[300:]}, nopNode{}); err != nil {
			t.Fatal(err)
		}
		if err := m.CloseReplay(); err != nil {
			t.Fatal(err)
		}
		if next.Len() != 0 {
			t.Error("a restore of the state the peer had started another replay")
		}
		if f, l := verifyReplay(t, "the replay", rec.Bytes()); f != 1 || l != 400 {
			t.Errorf("the replay has turns %d–%d, want 1–400", f, l)
		}
	})
}
