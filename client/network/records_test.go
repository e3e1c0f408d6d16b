package network

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hostfall/match"
	"hostfall/session"
)

func TestReplayFileIsCreatedOnFirstWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "replays")
	f := NewReplayFile(dir, "12D3KooWabcdefXYZ123", func() string { return "Friday night: LAN!" })
	if path, err := f.Close(); path != "" || err != nil {
		t.Fatalf("closing an unwritten replay: %q %v", path, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the directory exists before any write: %v", err)
	}
	f = NewReplayFile(dir, "12D3KooWabcdefXYZ123", func() string { return "Friday night: LAN!" })
	for _, s := range []string{"HF", "RP"} {
		if _, err := f.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	path, err := f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if base := filepath.Base(path); !strings.HasSuffix(base, "-Friday_night_LAN-XYZ123.hfreplay") {
		t.Errorf("replay named %q", base)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "HFRP" {
		t.Errorf("replay holds %q %v", b, err)
	}
	if _, err := f.Write([]byte("late")); err == nil {
		t.Error("a write after Close was taken")
	}
	if p, err := f.Close(); p != "" || err != nil {
		t.Errorf("second Close: %q %v", p, err)
	}
}

func TestWriteReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "desync")
	r := &match.Report{Desync: session.DesyncInfo{Turn: 140, Majority: 0xabc,
		Hashes: []session.PeerHash{{Peer: "a", Hash: 0xabc}, {Peer: "b", Hash: 0xdef}}}}
	path, err := WriteReport(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "turn 140") || !strings.Contains(string(b), "DIFFERS") {
		t.Fatalf("report %s: %q %v", path, b, err)
	}
	if _, err := WriteReport(dir, nil); err == nil {
		t.Error("an empty report was written")
	}
}
