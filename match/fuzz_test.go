package match

import (
	"testing"

	"hostfall/session"
)

// FuzzRestore feeds damaged snapshots to Restore: an error or a match whose
// snapshot restores to itself, never a panic.
func FuzzRestore(f *testing.F) {
	m := New(Options{})
	if err := m.Load(session.Lobby{MapSeed: 1, MapSize: 32, Slots: []session.Slot{{Kind: session.SlotBot}, {Kind: session.SlotBot}}}); err != nil {
		f.Fatal(err)
	}
	for n := uint64(1); n <= 5; n++ {
		m.Step(session.Turn{Number: n})
	}
	good := m.Snapshot()
	f.Add(good)
	f.Add(good[:40])
	f.Add([]byte("HFm\x01\x09"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := New(Options{})
		if r.Restore(data) != nil {
			return
		}
		again := New(Options{})
		if err := again.Restore(r.Snapshot()); err != nil {
			t.Fatalf("a restored snapshot does not restore: %v", err)
		}
	})
}
