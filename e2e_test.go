package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"hostfall/internal/peerproc"
)

// built is the hostfall binary the process tests run: one build per test
// binary run, shared by tests that run in parallel, removed by TestMain.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// buildBinary builds hostfall once per test binary run.
func buildBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "hostfall-e2e-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "hostfall")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	// The processes the tests start read settings of their own, not the
	// machine's: the how-to seen, every other setting its default.
	cfg, err := os.MkdirTemp("", "hostfall-config-")
	if err == nil {
		err = os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"how_to_seen": true}`), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot make the tests' settings:", err)
		os.Exit(1)
	}
	os.Setenv("HOSTFALL_CONFIG", cfg)
	code := m.Run()
	os.RemoveAll(cfg)
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// loopback listens on 127.0.0.1 only, TCP and QUIC.
var loopback = []string{"--listen", "/ip4/127.0.0.1/tcp/0", "--listen", "/ip4/127.0.0.1/udp/0/quic-v1"}

// Four headless processes on loopback: a host and three joins. The host
// gets SIGKILL mid-game; every survivor sees it replaced (host_changed), they
// end at the same turn with the same hash, exit 0, and their replays verify.
// Hand-overs from a live host (a starved machine) are figures.
func TestHeadlessHostKilled(t *testing.T) {
	t.Parallel() // idle real processes: runs beside the other process tests
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
	hostID, addr := hostAddr(t, ctx, host)
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
		checkHandOver(t, j, hostID, turns)
		checkEnd(t, j, turns, &endHash)
		verifyReplayOf(t, bin, j)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "replays")); err != nil {
		t.Error(err)
	}
}

// A 1v1 of two headless processes on loopback, bots playing both sides: one
// player's process is stopped (SIGSTOP: a laptop lid, a debugger) for 10 s
// mid-game and continued. The other waits, marks it away and plays on; the
// stopped one finds the game again. Both end at the turn limit with the same
// hash: one game, never two victories. Once with the joiner stopped, once
// with the host.
func TestHeadless1v1SurvivesAStop(t *testing.T) {
	t.Parallel() // idle real processes: runs beside the other process tests
	if testing.Short() {
		t.Skip("multi-process network test; skipped with -short")
	}
	bin := buildBinary(t)
	for _, stopped := range []string{"join", "host"} {
		t.Run(stopped, func(t *testing.T) {
			t.Parallel() // each its own pair of processes and data dirs
			dir := t.TempDir()
			env := func(name string) []string {
				return []string{"HOSTFALL_DATA=" + filepath.Join(dir, "data-"+name), "HOSTFALL_IDENTITY=" + filepath.Join(dir, name+".key")}
			}
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			const turns = 600 // 30 s of play
			host, err := peerproc.Start("host", append([]string{bin, "host", "--headless", "--name", "stop", "--players", "2",
				"--turns", fmt.Sprint(turns), "--size", "64", "--level", "easy", "--status-json"}, loopback...), env("host")...)
			if err != nil {
				t.Fatal(err)
			}
			defer host.Kill()
			_, addr := hostAddr(t, ctx, host)
			join, err := peerproc.Start("join", append([]string{bin, "join", "--headless", "--addr", addr, "--player", "j",
				"--level", "easy", "--status-json"}, loopback...), env("join")...)
			if err != nil {
				t.Fatal(err)
			}
			defer join.Kill()
			victim := join
			if stopped == "host" {
				victim = host
			}
			if _, err := victim.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "turn" && l.Int("turn") >= 100 }); err != nil {
				t.Fatal(err)
			}
			_ = victim.Cmd.Process.Signal(syscall.SIGSTOP)
			time.Sleep(10 * time.Second)
			_ = victim.Cmd.Process.Signal(syscall.SIGCONT)
			var hash string
			for _, p := range []*peerproc.Proc{host, join} {
				if err := p.Exit(90 * time.Second); err != nil {
					t.Fatalf("%s: %v\n%s", p.Name, err, p.Stderr())
				}
				if left := p.Find("left"); len(left) > 0 {
					t.Errorf("%s was put out of the game: %v", p.Name, left)
				}
				checkEnd(t, p, turns, &hash)
				t.Logf("%s: away/back lines %d/%d, host changes %d", p.Name,
					len(p.Find("player_away")), len(p.Find("player_back")), len(p.Find("host_changed")))
			}
		})
	}
}
