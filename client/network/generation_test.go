package network

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"
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
