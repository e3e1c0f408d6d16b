package e2e

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
	"hostfall/internal/wine"
)

// bin is the hostfall binary every test runs, built once by TestMain.
var (
	bin      string
	buildErr error
)

func TestMain(m *testing.M) {
	netns.RunHelper() // when this binary is started as the netem stand-in
	runDHTNet()       // when it is started as the simulated public network
	runMatrixPeer()   // when it is started as a peer of the NAT matrix
	flag.Parse()
	if testing.Verbose() {
		gameArgs = append(gameArgs, "-v") // session debug lines on stderr, kept on failure
	}
	var dir string
	if netns.Usable() == "" && !testing.Short() {
		dir, buildErr = os.MkdirTemp("", "hflan-e2e-")
		if buildErr == nil {
			bin = filepath.Join(dir, "hostfall")
			if out, err := exec.Command("go", "build", "-o", bin, "hostfall").CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			}
		}
	}
	code := m.Run()
	wine.Close() // the Windows build and Wine prefixes of wine_test.go
	if dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// world is one test's namespaces and processes.
type world struct {
	t   testing.TB
	lab *netns.Lab
	dir string
	env []string // added to every process's environment

	mu    sync.Mutex
	procs []*peerproc.Proc
}

func newWorld(t testing.TB) *world { return newWorldPrefixed(t, netns.Prefix) }

// newWorldPrefixed is newWorld with a lab whose names start with prefix. On
// cleanup every process is continued (a stopped one dies of SIGKILL too, but
// say so) and killed; the logs are kept when the test failed or
// HFLAN_KEEP_LOGS is set.
func newWorldPrefixed(t testing.TB, prefix string) *world {
	t.Helper()
	if testing.Short() {
		t.Skip("multi-process network test; skipped with -short")
	}
	if why := netns.Usable(); why != "" {
		t.Skip(why)
	}
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	lab, err := netns.NewPrefixed(prefix)
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, lab: lab, dir: t.TempDir()}
	t.Cleanup(func() {
		w.mu.Lock()
		procs := w.procs
		w.mu.Unlock()
		for _, p := range procs {
			_ = p.Cmd.Process.Signal(syscall.SIGCONT)
			p.Kill()
		}
		if t.Failed() {
			for _, p := range procs {
				t.Logf("%s stderr (end):\n%s", p.Name, tail(p.Stderr(), 3000))
			}
		}
		if t.Failed() || os.Getenv("HFLAN_KEEP_LOGS") != "" {
			keepLogs(t, procs)
		}
		lab.Close()
	})
	return w
}

func (w *world) must(err error) {
	w.t.Helper()
	if err != nil {
		w.t.Fatal(err)
	}
}

// lan makes a switch for prefix ("10.61.0") with a namespace plugged in
// for each name.
func (w *world) lan(prefix string, names ...string) (*netns.Switch, []*netns.NS) {
	w.t.Helper()
	sw, err := w.lab.Switch("sw"+strings.ReplaceAll(prefix, ".", ""), prefix)
	w.must(err)
	var spaces []*netns.NS
	for _, n := range names {
		ns, err := w.lab.Namespace(n)
		w.must(err)
		_, err = sw.Plug(ns)
		w.must(err)
		spaces = append(spaces, ns)
	}
	return sw, spaces
}

// run starts `hostfall args…` in ns as name, with a data directory and an
// identity of its own.
func (w *world) run(ns *netns.NS, name string, args ...string) *peerproc.Proc {
	w.t.Helper()
	return w.runAs(ns, name, name, args...)
}

// gameArgs are the flags every headless peer of these tests gets: easy
// bots (and the host's small map) keep the CPU of four peers on two cores low.
var gameArgs = []string{"--headless", "--level", "easy", "--status-json"}

func hostArgs(name string, players, turns int, extra ...string) []string {
	a := append([]string{"host", "--name", name, "--players", fmt.Sprint(players), "--turns", fmt.Sprint(turns), "--size", "64"}, gameArgs...)
	return append(a, extra...)
}

func joinArgs(player string, extra ...string) []string {
	a := append([]string{"join", "--player", player}, gameArgs...)
	return append(a, extra...)
}

func (w *world) wait(ctx context.Context, p *peerproc.Proc, match func(peerproc.Line) bool) peerproc.Line {
	w.t.Helper()
	l, err := p.Wait(ctx, match)
	w.must(err)
	return l
}

func (w *world) waitEv(ctx context.Context, p *peerproc.Proc, ev string) peerproc.Line {
	w.t.Helper()
	return w.wait(ctx, p, func(l peerproc.Line) bool { return l.Ev() == ev })
}

func atTurn(n int64) func(peerproc.Line) bool {
	return func(l peerproc.Line) bool { return l.Ev() == "turn" && l.Int("turn") >= n }
}

// survive checks the end of a game for the peers still playing: each exits
// 0 within d, printed one end line at the turn limit with the same hash as
// the others, and it printed at least hostChanges host changes (one per
// host the test killed; more are figures). It returns the end lines.
func (w *world) survive(procs []*peerproc.Proc, turns int64, hostChanges int, d time.Duration) []peerproc.Line {
	w.t.Helper()
	var ends []peerproc.Line
	for _, p := range procs {
		if err := p.Exit(d); err != nil {
			w.t.Fatalf("%s: %v\n%s", p.Name, err, tail(p.Stderr(), 3000))
		}
		end := p.Find("end")
		if len(end) != 1 || end[0].Int("turn") != turns {
			w.t.Fatalf("%s: end lines %v, want one at turn %d", p.Name, end, turns)
		}
		ends = append(ends, end[0])
		if h := end[0].Str("hash"); h != ends[0].Str("hash") {
			w.t.Errorf("%s ended with hash %s, %s with %s", p.Name, h, procs[0].Name, ends[0].Str("hash"))
		}
		// Peers linger after the end so the last turns reach everyone; a
		// host that leaves first may still be replaced then. Count the
		// game's host changes only.
		// More than the hosts the test killed is allowed (a live host on a
		// starved machine replaced): a figure.
		hc := slices.DeleteFunc(p.Find("host_changed"), func(l peerproc.Line) bool { return l.Int("turn") > turns })
		if len(hc) < hostChanges {
			w.t.Errorf("%s printed %d host_changed lines, want %d (one per host killed): %v", p.Name, len(hc), hostChanges, hc)
		} else if len(hc) > hostChanges {
			w.t.Logf("FIGURE %s: %d hand-overs from a live host besides the %d killed", p.Name, len(hc)-hostChanges, hostChanges)
		}
		for _, l := range hc {
			w.t.Logf("%s: host_changed to %s at turn %d, %d ms after the loss", p.Name, tail(l.Str("new"), 6), l.Int("turn"), l.Int("ms"))
		}
	}
	return ends
}

// verifyReplays runs `hostfall replay --headless --verify` on every replay
// each process saved (peerproc.ReplayPaths).
func (w *world) verifyReplays(procs []*peerproc.Proc) {
	w.t.Helper()
	for _, p := range procs {
		paths := peerproc.ReplayPaths(p)
		if len(paths) == 0 {
			w.t.Errorf("%s printed no replay path", p.Name)
		}
		for _, path := range paths {
			out, err := exec.Command(bin, "replay", "--headless", "--verify", path).CombinedOutput()
			if err != nil {
				w.t.Errorf("%s: the replay %s does not verify: %v\n%s", p.Name, path, err, out)
			}
		}
	}
}

// keepLogs writes each process's status lines and whole stderr to a
// directory that outlives the test, and prints the status lines other than
// the periodic turn lines, so a failure can be read after the fact.
func keepLogs(t testing.TB, procs []*peerproc.Proc) {
	dir, err := os.MkdirTemp("", "hflan-fail-")
	if err != nil {
		t.Logf("logs not kept: %v", err)
		return
	}
	for _, p := range procs {
		select { // killed by the cleanup: let its last lines arrive
		case <-p.Done():
		case <-time.After(2 * time.Second):
		}
		var b strings.Builder
		for _, l := range p.Lines() {
			js, _ := json.Marshal(l)
			b.Write(js)
			b.WriteByte('\n')
			if l.Ev() != "turn" {
				t.Logf("%s: %s", p.Name, js)
			}
		}
		_ = os.WriteFile(filepath.Join(dir, p.Name+".status"), []byte(b.String()), 0o644)
		_ = os.WriteFile(filepath.Join(dir, p.Name+".stderr"), []byte(p.Stderr()), 0o644)
		t.Logf("%s exit: %v", p.Name, p.ExitErr())
	}
	t.Logf("status lines and stderr of every process kept in %s", dir)
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
