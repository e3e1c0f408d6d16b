package replay

import (
	"bytes"
	"errors"
	"testing"

	"hostfall/session"
)

func sample(t testing.TB) []byte {
	var buf bytes.Buffer
	lob := session.Lobby{Revision: 3, Name: "lan", MapSeed: 42, TurnTicks: 5, MaxPlayers: 2, State: session.StatePlaying,
		Slots: []session.Slot{{Kind: session.SlotHuman, Peer: "a", Name: "Ann"}, {Kind: session.SlotBot, Name: "Bot", BotLevel: 2}}}
	w, err := NewWriter(&buf, lob)
	if err != nil {
		t.Fatal(err)
	}
	for i := uint64(1); i <= 20; i++ {
		tr := session.Turn{Epoch: 16, Number: i}
		if i%3 == 0 {
			tr.Commands = []session.Command{{Slot: 0, Seq: i, Data: []byte("move")}}
		}
		if i == 20 {
			tr.Departures = []session.Departure{{Slot: 1, Reason: session.DepartLost}}
		}
		if err := w.WriteTurn(tr); err != nil {
			t.Fatal(err)
		}
		if i%10 == 0 {
			if err := w.WriteHash(i, i*1000); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	r, err := Read(bytes.NewReader(sample(t)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Lobby.Name != "lan" || len(r.Lobby.Slots) != 2 || len(r.Turns) != 20 || len(r.Hashes) != 2 {
		t.Fatalf("got %+v", r)
	}
	if h, ok := r.HashAt(20); !ok || h != 20000 {
		t.Fatalf("hash at 20: %d %v", h, ok)
	}
	if d := r.Turns[19].Departures; len(d) != 1 || d[0].Slot != 1 {
		t.Fatalf("departures %+v", d)
	}
}

func TestDamagedFilesAreRefused(t *testing.T) {
	good := sample(t)
	flip := func(i int) []byte { b := bytes.Clone(good); b[i] ^= 0x40; return b }
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrNotReplay},
		{"other file", []byte("PK\x03\x04 a zip file, not a replay"), ErrNotReplay},
		{"future version", append([]byte("HFREPLAY\x09\x00"), good[10:]...), ErrVersion},
		{"cut in the header", good[:9], ErrTruncated},
		{"cut in a record", good[:len(good)/2], ErrTruncated},
		{"end record missing", good[:len(good)-7], ErrTruncated},
		{"flipped payload byte", flip(len(good) / 2), ErrCorrupt},
		{"trailing garbage", append(bytes.Clone(good), 1, 2, 3), ErrCorrupt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(c.data))
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			t.Log(err)
		})
	}
}

func FuzzRead(f *testing.F) {
	good := sample(f)
	f.Add(good)
	f.Add(good[:30])
	f.Add([]byte("HFREPLAY\x01\x00"))
	f.Add(resumedSample(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Read(bytes.NewReader(data))
		if err == nil && r == nil {
			t.Fatal("nil replay without error")
		}
		if err != nil && !errors.Is(err, ErrNotReplay) && !errors.Is(err, ErrVersion) &&
			!errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTruncated) {
			t.Fatalf("unclassified error: %v", err)
		}
		// ReadInfo accepts exactly what Read accepts, and counts its turns.
		info, ierr := ReadInfo(bytes.NewReader(data))
		if (err == nil) != (ierr == nil) {
			t.Fatalf("Read says %v, ReadInfo says %v", err, ierr)
		}
		if err == nil && (info.Turns != uint64(len(r.Turns)) || info.Lobby.Name != r.Lobby.Name || info.Resumed != (r.Start != nil)) {
			t.Fatalf("ReadInfo %+v, Read has %d turns, lobby %q", info, len(r.Turns), r.Lobby.Name)
		}
	})
}

// TestReadInfo reads the lobby and length of a replay, and refuses a
// damaged one as Read does.
func TestReadInfo(t *testing.T) {
	good := sample(t)
	want, err := Read(bytes.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		data  []byte
		turns uint64
		err   error
	}{
		{"whole", good, uint64(len(want.Turns)), nil},
		{"resumed", resumedSample(t), 0, nil},
		{"cut off", good[:len(good)-3], 0, ErrTruncated},
		{"not a replay", []byte("HFSAVE\x01\x00 and more"), 0, ErrNotReplay},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info, err := ReadInfo(bytes.NewReader(tc.data))
			if !errors.Is(err, tc.err) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if err == nil && tc.name == "whole" && (info.Turns != tc.turns || info.Lobby.Name != want.Lobby.Name || info.Resumed) {
				t.Fatalf("info %+v, want %d turns of %q", info, tc.turns, want.Lobby.Name)
			}
			if err == nil && tc.name == "resumed" && !info.Resumed {
				t.Fatal("a resumed game's replay is not marked resumed")
			}
		})
	}
}

func resumedSample(t testing.TB) []byte {
	var buf bytes.Buffer
	lob := session.Lobby{Revision: 2, Name: "again", MapSeed: 42, TurnTicks: 5, MaxPlayers: 2, State: session.StateLoading,
		Resume: 100, Slots: []session.Slot{{Kind: session.SlotHuman, Peer: "a", Name: "Ann"}, {Kind: session.SlotBot, Name: "Bot"}}}
	w, err := NewResumedWriter(&buf, lob, session.Snapshot{Turn: 100, Data: []byte("state at 100")})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteTurn(session.Turn{Epoch: 16, Number: 100}); err == nil {
		t.Fatal("a resumed replay took the saved turn again")
	}
	for i := uint64(101); i <= 110; i++ {
		if err := w.WriteTurn(session.Turn{Epoch: 16, Number: i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.WriteHash(110, 7); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A resumed game's replay is version 2 and carries its start state.
func TestResumedRoundTrip(t *testing.T) {
	b := resumedSample(t)
	if b[8] != VersionResumed {
		t.Fatalf("version %d", b[8])
	}
	r, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if r.Start == nil || r.Start.Turn != 100 || string(r.Start.Data) != "state at 100" ||
		len(r.Turns) != 10 || r.Turns[0].Number != 101 {
		t.Fatalf("got %+v", r)
	}
	// The same records under version 1 are refused: a start state is out of place there.
	v1 := bytes.Clone(b)
	v1[8] = Version
	if _, err := Read(bytes.NewReader(v1)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("version 1 with a start record: %v", err)
	}
	// A version 2 file without its start record is refused.
	v2 := sample(t)
	v2[8] = VersionResumed
	if _, err := Read(bytes.NewReader(v2)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("version 2 without a start record: %v", err)
	}
}

// The rules record travels through a file; a file without one says 0, and
// a rules record after the first turn is refused by writer and reader.
func TestRulesRecord(t *testing.T) {
	write := func(rules []uint64, turnsFirst bool) ([]byte, error) {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, session.Lobby{Name: "r", State: session.StatePlaying})
		if err != nil {
			t.Fatal(err)
		}
		next := uint64(1)
		if turnsFirst {
			if err := w.WriteTurn(session.Turn{Number: 1}); err != nil {
				t.Fatal(err)
			}
			next = 2
		}
		for _, r := range rules {
			if err := w.WriteRules(r); err != nil {
				return nil, err
			}
		}
		if err := w.WriteTurn(session.Turn{Number: next}); err != nil {
			t.Fatal(err)
		}
		err = w.Close()
		return buf.Bytes(), err
	}
	for _, tc := range []struct {
		name  string
		rules []uint64
		want  uint64
		bad   bool
	}{
		{"none", nil, 0, false},
		{"version 2", []uint64{2}, 2, false},
		{"twice", []uint64{2, 3}, 0, true},
		{"zero", []uint64{0}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := write(tc.rules, false)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Read(bytes.NewReader(b))
			if tc.bad {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("read %v, want ErrCorrupt", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Rules != tc.want {
				t.Fatalf("rules %d, want %d", r.Rules, tc.want)
			}
		})
	}
	if _, err := write([]uint64{2}, true); err == nil {
		t.Fatal("rules written after a turn")
	}
}
