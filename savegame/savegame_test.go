package savegame

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"hostfall/session"
)

func sample() *Save {
	return &Save{
		At: time.Unix(1_800_000_000, 0),
		Saved: session.Saved{
			Lobby: session.Lobby{Revision: 9, Name: "lan party", MapSeed: 7, MapSize: 64, TurnTicks: 5, MaxPlayers: 3,
				State: session.StatePlaying, GameVersion: "0.1.0", TurnLimit: 400, Slots: []session.Slot{
					{Kind: session.SlotHuman, Peer: "12D3KooWA", Name: "Ann", Color: 0, Team: 1, Ready: true},
					{Kind: session.SlotHuman, Peer: "12D3KooWB", Name: "Bob", Color: 1, Team: 2, Ready: true},
					{Kind: session.SlotBot, Name: "Bot 3", Color: 2, Team: 2, Ready: true, BotLevel: 1},
				}},
			State: session.Snapshot{Turn: 140, Chain: 0xfeedface, Departed: 0, NextSeq: []uint64{5, 9, 31},
				Data: []byte("HFm\x01\x03\x00\x01\x02 world bytes")},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	s := sample()
	var buf bytes.Buffer
	if err := Write(&buf, s); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, s)
	}
}

func TestDamageIsRefused(t *testing.T) {
	good, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte { b := bytes.Clone(good); b[i] ^= 0x40; return b }
	cases := []struct {
		name string
		data []byte
		want error
		text string
	}{
		{"empty", nil, ErrNotSave, "does not start"},
		{"replay file", []byte("HFREPLAY\x01\x00"), ErrNotSave, "does not start"},
		{"newer version", append([]byte("HFSAVE\x02\x00"), good[8:]...), ErrVersion, "version 2"},
		{"header only", good[:8], ErrCorrupt, "ends after the header"},
		{"cut off", good[:len(good)-10], ErrCorrupt, "checksum"},
		{"bit flip in the state", flip(len(good) - 8), ErrCorrupt, "checksum"},
		{"bit flip in the lobby", flip(20), ErrCorrupt, "checksum"},
		{"trailing bytes", append(bytes.Clone(good), 0), ErrCorrupt, "checksum"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.data)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
				t.Fatalf("got %v, want %v mentioning %q", err, c.want, c.text)
			}
		})
	}
}

func TestUnresumableSavesAreRefused(t *testing.T) {
	for name, mutate := range map[string]func(*Save){
		"turn 0":     func(s *Save) { s.State.Turn = 0 },
		"no state":   func(s *Save) { s.State.Data = nil },
		"no players": func(s *Save) { s.Lobby.Slots = s.Lobby.Slots[2:] },
	} {
		s := sample()
		mutate(s)
		b, err := Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

// FuzzDecode: any bytes either decode to a save that encodes and decodes to
// itself, or are refused with one of the package's errors; never a panic.
func FuzzDecode(f *testing.F) {
	good, err := Encode(sample())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("HFSAVE\x01\x00"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrNotSave) && !errors.Is(err, ErrVersion) && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		again, err := Encode(s)
		if err != nil {
			t.Fatalf("a decoded save does not encode: %v", err)
		}
		s2, err := Decode(again)
		if err != nil || !reflect.DeepEqual(s, s2) {
			t.Fatalf("re-encoded save differs: %v", err)
		}
	})
}

// FuzzDecodeBody mutates what follows the header and fixes the checksum, so
// the fuzzer reaches the field decoder instead of stopping at the CRC.
func FuzzDecodeBody(f *testing.F) {
	good, err := Encode(sample())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good[8 : len(good)-4])
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, body []byte) {
		b := append([]byte("HFSAVE\x01\x00"), body...)
		b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
		s, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		again, err := Encode(s)
		if err != nil {
			t.Fatalf("a decoded save does not encode: %v", err)
		}
		if s2, err := Decode(again); err != nil || !reflect.DeepEqual(s, s2) {
			t.Fatalf("re-encoded save differs: %v", err)
		}
	})
}

func TestWriteFileNamesAndNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	s := sample()
	a, err := WriteFile(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := WriteFile(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	want := "lan_party-" + s.At.Format("20060102-150405")
	if filepath.Base(a) != want+Ext || filepath.Base(b) != want+"-2"+Ext {
		t.Fatalf("names %s, %s", a, b)
	}
	got, err := ReadFile(b)
	if err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("read back: %v", err)
	}
	if err := os.WriteFile(a, []byte("HFSAVE\x01\x00junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(a); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), a) {
		t.Fatalf("damaged file: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("%d files left in the save dir (temporary files?)", len(entries))
	}
}

// File names made from session names stay inside the directory they go to.
func TestCleanName(t *testing.T) {
	for in, want := range map[string]string{
		"Ann's game":            "Anns_game",
		"../../etc/passwd":      "etcpasswd",
		"":                      "",
		strings.Repeat("x", 99): strings.Repeat("x", 40),
	} {
		if got := CleanName(in); got != want {
			t.Errorf("CleanName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestList lists a directory's saves newest first, a damaged one with its
// reason, and skips other files; a missing directory lists none.
func TestList(t *testing.T) {
	dir := t.TempDir()
	older, newer := sample(), sample()
	older.At, newer.At = time.Unix(1_700_000_000, 0), time.Unix(1_700_000_600, 0)
	newer.Lobby.Name = "Newer"
	for _, s := range []*Save{older, newer} {
		if _, err := WriteFile(dir, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "broken"+Ext), []byte("HFSAVE\x01\x00cut"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a save"), 0o644); err != nil {
		t.Fatal(err)
	}
	es, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 3 {
		t.Fatalf("%d entries, want 3 (two saves and the damaged one): %+v", len(es), es)
	}
	var good []string
	bad := 0
	for _, e := range es {
		switch {
		case e.Err != nil:
			bad++
			if !errors.Is(e.Err, ErrCorrupt) || e.Save != nil {
				t.Errorf("the damaged file: save %v, err %v", e.Save, e.Err)
			}
		default:
			good = append(good, e.Save.Lobby.Name)
		}
	}
	if bad != 1 || len(good) != 2 || good[0] != "Newer" {
		t.Errorf("saves %v (newest first, Newer first), %d damaged", good, bad)
	}
	if es, err := List(filepath.Join(dir, "none")); err != nil || len(es) != 0 {
		t.Errorf("a missing directory: %v, %v", es, err)
	}
}
