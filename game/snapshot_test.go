package game

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"hash/crc32"
	"strings"
	"testing"
)

var seedFlag = flag.Uint64("seed", 0, "replay the property tests with this seed (0: the built-in seeds)")

// seeds returns the seeds a property test runs, printing them so a failure
// can be replayed with -seed.
func seeds(t *testing.T, builtIn ...uint64) []uint64 {
	if *seedFlag != 0 {
		builtIn = []uint64{*seedFlag}
	}
	t.Logf("seeds %v (replay one with -seed N)", builtIn)
	return builtIn
}

// chaosWorld plays a small 3-player world for turns ticks of random commands.
func chaosWorld(t testing.TB, seed uint64, turns int) (*World, *RNG) {
	cfg := FreeForAll(seed, 3)
	cfg.Width, cfg.Height = 64, 64
	w, err := NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRNG(seed, 99)
	for range turns {
		w.Step(Chaos(w, &r))
	}
	return w, &r
}

func TestRandomCommandsKeepInvariants(t *testing.T) {
	for _, seed := range seeds(t, 1, 2, 3) {
		cfg := FreeForAll(seed, 3)
		cfg.Width, cfg.Height = 64, 64
		w, _ := NewWorld(cfg)
		r := NewRNG(seed, 99)
		for turn := range 1500 {
			w.Step(Chaos(w, &r))
			if turn%50 == 0 {
				checkInvariants(t, w)
			}
		}
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	for _, seed := range seeds(t, 4, 5) {
		w, r := chaosWorld(t, seed, 700)
		s1 := w.Snapshot()
		w2 := new(World)
		if err := w2.Restore(s1); err != nil {
			t.Fatal(err)
		}
		if s2 := w2.Snapshot(); !bytes.Equal(s1, s2) {
			t.Fatalf("seed %d: restore then snapshot gives other bytes (%d vs %d)", seed, len(s1), len(s2))
		}
		for turn := range 500 {
			cmds := Chaos(w, r)
			w.Step(cmds)
			w2.Step(cmds)
			if w.Hash() != w2.Hash() {
				t.Fatalf("seed %d: restored world diverged %d turns after the snapshot", seed, turn+1)
			}
		}
	}
}

// withCRC replaces the checksum at the end of a snapshot with the right one.
func withCRC(b []byte) []byte {
	if len(b) < 4 {
		return b
	}
	b = append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
	return b
}

func TestRestoreErrors(t *testing.T) {
	w, _ := chaosWorld(t, 6, 100)
	good := w.Snapshot()
	header := func(version uint64) []byte {
		b := append([]byte("HFsn"), binary.AppendUvarint(nil, version)...)
		return withCRC(append(b, good[5:]...))
	}
	onePlayer := append([]byte{}, good...)
	onePlayer[4+1+8+1+1] = 1 // player count (128×… sizes take two bytes each)
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "not a Hostfall snapshot"},
		{"garbage", []byte("hello, world, this is not a snapshot"), "not a Hostfall snapshot"},
		{"newer", header(4), "snapshot version 4 is newer than this build (3); update Hostfall"},
		{"older rules", header(2), "snapshot version 2 is from an older Hostfall whose game rules differ"},
		{"version 0", header(0), "version 0"},
		{"damaged", func() []byte { b := append([]byte{}, good...); b[len(b)/2] ^= 0x55; return b }(), "checksum mismatch"},
		{"truncated", good[:len(good)/2], "checksum mismatch"},
		{"stray bytes", withCRC(append(append([]byte{}, good[:len(good)-4]...), 1, 2, 3, 0, 0, 0, 0)), "stray bytes"},
		{"truncated body", withCRC(append(append([]byte{}, good[:len(good)/3]...), 0, 0, 0, 0)), "bad snapshot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := w.Snapshot()
			err := w.Restore(tc.b)
			if err == nil || !errors.Is(err, ErrBadSnapshot) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if !bytes.Equal(before, w.Snapshot()) {
				t.Fatal("a failed restore changed the world")
			}
		})
	}
	_ = onePlayer
}

// TestHashCoversSnapshot flips bits of valid snapshots: whenever the damaged
// snapshot still restores to a different state, the hash must differ too —
// so Hash misses nothing that a snapshot holds.
func TestHashCoversSnapshot(t *testing.T) {
	for _, seed := range seeds(t, 7) {
		w, _ := chaosWorld(t, seed, 800)
		good := w.Snapshot()
		h := w.Hash()
		r := NewRNG(seed, 5)
		tried, restored := 0, 0
		w2 := new(World)
		for range 20000 {
			b := append([]byte{}, good...)
			pos := 5 + r.Intn(len(b)-9)
			b[pos] ^= 1 << r.Intn(8)
			b = withCRC(b)
			tried++
			if w2.Restore(b) != nil {
				continue
			}
			restored++
			if s := w2.Snapshot(); !bytes.Equal(s, good) && w2.Hash() == h {
				t.Fatalf("seed %d: flipping byte %d changes the state but not the hash", seed, pos)
			}
		}
		t.Logf("%d damaged snapshots, %d restored, every one with a new hash", tried, restored)
		if restored < tried/10 {
			t.Fatalf("only %d of %d restored: the test covers too little", restored, tried)
		}
	}
}

// FuzzRestore: no input panics Restore; a failed restore leaves the world as
// it was; a restored world snapshots to bytes that restore to the same bytes
// and can be stepped.
func FuzzRestore(f *testing.F) {
	for _, turns := range []int{0, 300} {
		w, _ := chaosWorld(f, 8, turns)
		f.Add(w.Snapshot())
	}
	f.Add([]byte("HFsn\x01"))
	f.Add([]byte{})
	base := newTestWorld(f, 2)
	baseSnap := base.Snapshot()
	f.Fuzz(func(t *testing.T, b []byte) {
		w := new(World)
		if err := w.Restore(baseSnap); err != nil {
			t.Fatal(err)
		}
		for _, in := range [][]byte{b, withCRC(b)} {
			err := w.Restore(in)
			if err != nil {
				if !errors.Is(err, ErrBadSnapshot) {
					t.Fatalf("error does not wrap ErrBadSnapshot: %v", err)
				}
				if !bytes.Equal(w.Snapshot(), baseSnap) {
					t.Fatal("a failed restore changed the world")
				}
				continue
			}
			s1 := w.Snapshot()
			w2 := new(World)
			if err := w2.Restore(s1); err != nil {
				t.Fatalf("a snapshot of a restored world does not restore: %v", err)
			}
			if !bytes.Equal(s1, w2.Snapshot()) {
				t.Fatal("snapshot of a restored world is not stable")
			}
			r := NewRNG(1, 1)
			for range 20 {
				w.Step(Chaos(w, &r))
			}
			checkInvariants(t, w)
			return
		}
	})
}
