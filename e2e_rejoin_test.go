package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"hostfall/internal/peerproc"
)

// Three headless processes on loopback: a host and two joins. One join is
// killed (SIGKILL) mid-game and started again 5 s later with the same
// identity and data dir, as `join --rejoin` with no address: the record of
// its game in the data dir leads it back. It is back in its own slot (the
// host marks it away, then back, and nobody leaves), every peer ends at the
// turn limit with one hash, its units are still there at the end, and the
// record is gone once the game ended (a second --rejoin is a usage error).
func TestHeadlessRejoinAfterKill(t *testing.T) {
	t.Parallel() // idle real processes: runs beside the other process tests
	if testing.Short() {
		t.Skip("multi-process network test; skipped with -short")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	env := func(name string) []string { return playerEnv(dir, name) }
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	const turns = 400 // 20 s of play
	start := func(name string, args ...string) *peerproc.Proc {
		t.Helper()
		p, err := peerproc.Start(name, append(append([]string{bin}, args...), loopback...), env(name)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Kill)
		return p
	}
	host := start("host", "host", "--headless", "--name", "rejoin", "--players", "3", "--turns", fmt.Sprint(turns),
		"--size", "64", "--level", "easy", "--status-json")
	_, addr := hostAddr(t, ctx, host)
	j1 := start("j1", "join", "--headless", "--addr", addr, "--player", "j1", "--level", "easy", "--status-json")
	victim := start("j2", "join", "--headless", "--addr", addr, "--player", "j2", "--level", "easy", "--status-json")
	slot := killMidGame(t, ctx, host, victim, 80, filepath.Join(dir, "data-j2"))
	time.Sleep(5 * time.Second)
	restarted := time.Now()
	back := start("j2", "join", "--headless", "--rejoin", "--player", "j2", "--level", "easy", "--status-json")
	back.Name = "j2 (rejoined)"
	joined, err := back.WaitEv(ctx, "joined")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the restarted join is in slot %d %v after it started (killed in slot %d)", joined.Int("slot"), time.Since(restarted).Round(time.Millisecond), slot)
	if joined.Int("slot") != slot {
		t.Fatalf("the restarted join is in slot %d, want its own slot %d", joined.Int("slot"), slot)
	}
	if _, err := host.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "player_back" && l.Int("slot") == slot }); err != nil {
		t.Fatalf("the host never marked slot %d back: %v", slot, err)
	}
	t.Logf("the host marked it back %v after it started", time.Since(restarted).Round(time.Millisecond))

	var hash string
	for _, p := range []*peerproc.Proc{host, j1, back} {
		if err := p.Exit(90 * time.Second); err != nil {
			t.Fatalf("%s: %v\n%s", p.Name, err, p.Stderr())
		}
		checkEnd(t, p, turns, &hash)
		if left := p.Find("player_left"); len(left) > 0 {
			t.Errorf("%s: players left: %v", p.Name, left)
		}
		if !slotHasUnits(p.Find("end")[0], slot) {
			t.Errorf("%s: at the end slot %d has no units: %v", p.Name, slot, p.Find("end")[0]["players"])
		}
	}
	away := slices.IndexFunc(host.Lines(), func(l peerproc.Line) bool { return l.Ev() == "player_away" && l.Int("slot") == slot })
	if away < 0 {
		t.Error("the host never marked the killed join away")
	}
	t.Logf("players at the end: %v", back.Find("end")[0]["players"])
	if recs, _ := filepath.Glob(filepath.Join(dir, "data-j2", "lastgame", "*.json")); len(recs) != 0 {
		t.Errorf("the record of the game outlived it: %v", recs)
	}
	cmd := exec.Command(bin, append([]string{"join", "--headless", "--rejoin"}, loopback...)...)
	cmd.Env = append(os.Environ(), env("j2")...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Errorf("--rejoin with no game to rejoin: %v, want exit code 2\n%s", err, out)
	}
}

// killMidGame kills victim (SIGKILL) once host has played turn, and returns
// the slot it played; the record of its game stays in its data dir.
func killMidGame(t *testing.T, ctx context.Context, host, victim *peerproc.Proc, turn int64, data string) int64 {
	t.Helper()
	st, err := victim.WaitEv(ctx, "start")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := host.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "turn" && l.Int("turn") >= turn }); err != nil {
		t.Fatal(err)
	}
	victim.Kill()
	<-victim.Done()
	if recs, _ := filepath.Glob(filepath.Join(data, "lastgame", "*.json")); len(recs) != 1 {
		t.Fatalf("the killed %s left %d records of its game, want 1", victim.Name, len(recs))
	}
	return st.Int("slot")
}

// slotHasUnits tells whether an end line's players list gives slot any
// units or buildings.
func slotHasUnits(end peerproc.Line, slot int64) bool {
	players, _ := end["players"].([]any)
	for _, x := range players {
		pl := peerproc.Line(nil)
		if m, ok := x.(map[string]any); ok {
			pl = m
		}
		if pl.Int("slot") == slot {
			return pl.Int("units")+pl.Int("buildings") > 0
		}
	}
	return false
}
