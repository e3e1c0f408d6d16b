package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hostfall/client/fake"
	"hostfall/match"
	"hostfall/session/replay"
	"hostfall/status"
)

// verifyJSON runs replay --headless --verify --status-json on the file data
// and returns its JSON lines and error.
func verifyJSON(t *testing.T, data []byte) ([]map[string]any, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "game.hfreplay")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := VerifyReplay(context.Background(), path, &status.Line{JSON: true, Out: &out}, &out)
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if e := json.Unmarshal([]byte(l), &m); e != nil {
			t.Fatalf("not a JSON line: %q", l)
		}
		lines = append(lines, m)
	}
	return lines, err
}

func TestReplayVerifyStatusJSON(t *testing.T) {
	data, err := fake.Replay(3, 2, 64, 4100)
	if err != nil {
		t.Fatal(err)
	}
	r, err := replay.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	forged := rewrite(t, r, func(r *replay.Replay) { r.Hashes[200].Hash ^= 1 }) // the hash of turn 2010

	damaged := bytes.Clone(data)
	damaged[len(damaged)/2] ^= 0x10

	for _, tt := range []struct {
		name   string
		data   []byte
		result string
		turn   float64
		lines  int
		is     error
	}{
		{"good", data, "ok", 4100, 3, nil},
		{"forged hash", forged, "mismatch", 2010, 2, match.ErrReplayMismatch},
		{"damaged", damaged, "damaged", 0, 1, replay.ErrCorrupt},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lines, err := verifyJSON(t, tt.data)
			if !errors.Is(err, tt.is) && !(tt.is == nil && err == nil) {
				t.Fatalf("error %v, want %v", err, tt.is)
			}
			if len(lines) != tt.lines {
				t.Fatalf("%d lines %v, want %d", len(lines), lines, tt.lines)
			}
			for _, l := range lines[:len(lines)-1] {
				if l["ev"] != "progress" || l["turns"] != 4100.0 {
					t.Errorf("progress line %v", l)
				}
			}
			end := lines[len(lines)-1]
			if end["ev"] != "end" || end["ok"] != (tt.result == "ok") || end["result"] != tt.result {
				t.Fatalf("last line %v, want the end with result %s", end, tt.result)
			}
			if tt.result != "damaged" && end["turn"] != tt.turn {
				t.Errorf("end at turn %v, want %v", end["turn"], tt.turn)
			}
			if tt.result != "ok" && !strings.Contains(end["error"].(string), "replay") {
				t.Errorf("error text %q", end["error"])
			}
		})
	}
}

// rewrite returns the file of r after change.
func rewrite(t *testing.T, r *replay.Replay, change func(*replay.Replay)) []byte {
	t.Helper()
	change(r)
	var buf bytes.Buffer
	w, err := replay.NewWriter(&buf, r.Lobby)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRules(r.Rules); err != nil {
		t.Fatal(err)
	}
	for _, tn := range r.Turns {
		if err := w.WriteTurn(tn); err != nil {
			t.Fatal(err)
		}
	}
	for _, h := range r.Hashes {
		if err := w.WriteHash(h.Turn, h.Hash); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
