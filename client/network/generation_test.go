package network

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestGenerationSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "identity.key.generation")
	log := slog.New(slog.DiscardHandler)
	if g := loadGeneration(path, log); g != 0 {
		t.Fatalf("a first run reads generation %d, want 0", g)
	}
	saveGeneration(path, 7, log)
	saveGeneration(path, 12, log)
	if g := loadGeneration(path, log); g != 12 {
		t.Fatalf("read %d after saving 12", g)
	}
	if err := os.WriteFile(path, []byte("twelve\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if g := loadGeneration(path, log); g != 0 {
		t.Fatalf("a garbled file reads %d, want 0", g)
	}
	if g := loadGeneration("", log); g != 0 {
		t.Fatalf("no file reads %d", g)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".generation-*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left behind: %v", left)
	}
}

// A generation this peer claims is written at once; generations heard from
// others at most every genSaveEvery, and the last one when the peer stops.
func TestGenerationWritesAreRationed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "identity.key.generation")
	log := slog.New(slog.DiscardHandler)
	k := genKeeper{path: path, log: log, saved: 3}
	t0 := time.Unix(1000, 0)
	read := func() uint64 { return loadGeneration(path, log) }
	k.note(5, false, t0) // the first heard raise since start: written
	if g := read(); g != 5 {
		t.Fatalf("file holds %d, want 5", g)
	}
	for i := range 1000 { // a member raising it with each message
		k.note(uint64(6+i), false, t0.Add(time.Duration(i)*time.Millisecond))
	}
	if g := read(); g != 5 {
		t.Errorf("heard raises within %v were written: file holds %d", genSaveEvery, g)
	}
	k.note(2000, true, t0.Add(2*time.Second)) // this peer claims
	if g := read(); g != 2000 {
		t.Errorf("a claimed generation was not written at once: file holds %d", g)
	}
	k.note(2001, false, t0.Add(3*time.Second))
	k.flush(t0.Add(4 * time.Second))
	if g := read(); g != 2001 {
		t.Errorf("the pending generation was not written on stop: file holds %d", g)
	}
}
