package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hostfall/internal/peerproc"
)

// buildBinary builds hostfall once per test binary run.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "hostfall")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// loopback listens on 127.0.0.1 only, TCP and QUIC.
var loopback = []string{"--listen", "/ip4/127.0.0.1/tcp/0", "--listen", "/ip4/127.0.0.1/udp/0/quic-v1"}

// Four headless processes on loopback: a host and three joins. The host
// gets SIGKILL mid-game; every survivor prints host_changed, they end at
// the same turn with the same hash, exit 0, and their replays verify.
func TestHeadlessHostKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("multi-process network test; skipped with -short")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	env := func(name string) []string {
		return []string{"HOSTFALL_DATA=" + filepath.Join(dir, "data"), "HOSTFALL_IDENTITY=" + filepath.Join(dir, name+".key")}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	const turns = 400
	host, err := peerproc.Start("host", append([]string{bin, "host", "--headless", "--name", "e2e", "--players", "4",
		"--turns", "400", "--size", "64", "--level", "easy", "--status-json"}, loopback...), env("host")...)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Kill()
	l, err := host.WaitEv(ctx, "listening")
	if err != nil {
		t.Fatal(err)
	}
	hostID := l.Str("peer")
	addr := ""
	for _, a := range l["addrs"].([]any) {
		if s := a.(string); strings.Contains(s, "/tcp/") {
			addr = s
		}
	}
	var joins []*peerproc.Proc
	for _, name := range []string{"j1", "j2", "j3"} {
		j, err := peerproc.Start(name, append([]string{bin, "join", "--headless", "--addr", addr, "--player", name,
			"--level", "easy", "--status-json"}, loopback...), env(name)...)
		if err != nil {
			t.Fatal(err)
		}
		defer j.Kill()
		joins = append(joins, j)
	}
	if _, err := host.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "turn" && l.Int("turn") >= 140 }); err != nil {
		t.Fatal(err)
	}
	host.Kill()
	var endHash string
	for _, j := range joins {
		if err := j.Exit(90 * time.Second); err != nil {
			t.Fatalf("%s: %v\n%s", j.Name, err, j.Stderr())
		}
		hc := j.Find("host_changed")
		if len(hc) != 1 || hc[0].Str("old") != hostID {
			t.Errorf("%s: host_changed lines %v, want one from %s", j.Name, hc, hostID)
		} else {
			t.Logf("%s: host_changed to %s at turn %d after %d ms", j.Name, hc[0].Str("new"), hc[0].Int("turn"), hc[0].Int("ms"))
		}
		end := j.Find("end")
		if len(end) != 1 || end[0].Int("turn") != turns {
			t.Fatalf("%s: end lines %v, want one at turn %d", j.Name, end, turns)
		}
		if endHash == "" {
			endHash = end[0].Str("hash")
		} else if h := end[0].Str("hash"); h != endHash {
			t.Errorf("%s ended with hash %s, %s with %s", j.Name, h, joins[0].Name, endHash)
		}
		rp := j.Find("replay")
		if len(rp) != 1 {
			t.Fatalf("%s printed no replay path", j.Name)
		}
		out, err := exec.Command(bin, "replay", "--headless", "--verify", rp[0].Str("path")).CombinedOutput()
		if err != nil {
			t.Errorf("%s: replay does not verify: %v\n%s", j.Name, err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "replays")); err != nil {
		t.Error(err)
	}
}
