package network

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/internal/peerproc"
	"hostfall/internal/testwait"
)

// Issue 30's measurements with the host in a process of its own: the host
// and its honest joiners are real hostfall processes on loopback (headless,
// --level none: nobody fights, so a game lasts to its turn limit), and the
// attackers (strangers, a hostile member) live in this test's process. What
// they cost the host is read from the host's own status lines and /proc.

// procLab is one game of hostfall processes on loopback.
type procLab struct {
	bin, dir, version string
	host              *peerproc.Proc
	joiners           []*peerproc.Proc
	hostInfo          peer.AddrInfo
}

// buildHostfall builds the hostfall command into dir.
func buildHostfall(tb testing.TB, dir string) string {
	tb.Helper()
	bin := filepath.Join(dir, "hostfall")
	if out, err := exec.Command("go", "build", "-o", bin, "hostfall").CombinedOutput(); err != nil {
		tb.Fatalf("go build hostfall: %v\n%s", err, out)
	}
	return bin
}

// gameVersion is the game version bin speaks (peers of another are refused).
func gameVersion(tb testing.TB, bin string) string {
	tb.Helper()
	out, err := exec.Command(bin, "version", "--json").Output()
	if err != nil {
		tb.Fatalf("%s version --json: %v", bin, err)
	}
	var v struct{ Game string }
	if err := json.Unmarshal(out, &v); err != nil || v.Game == "" {
		tb.Fatalf("%s version --json printed %q (%v)", bin, out, err)
	}
	return v.Game
}

// startProcGame starts a host process for players players ending at turn
// turns, and joiners of them as processes; the others join from this
// process. It returns once the host listens.
func startProcGame(tb testing.TB, ctx context.Context, players, joiners int, turns uint64) *procLab {
	tb.Helper()
	if testing.Short() {
		tb.Skip("multi-process network test; skipped with -short")
	}
	lab := &procLab{dir: tb.TempDir()}
	lab.bin = buildHostfall(tb, lab.dir)
	lab.version = gameVersion(tb, lab.bin)
	if err := os.WriteFile(filepath.Join(lab.dir, "settings.json"), []byte(`{"how_to_seen": true}`), 0o644); err != nil {
		tb.Fatal(err)
	}
	lo := []string{"--listen", "/ip4/127.0.0.1/tcp/0", "--headless", "--level", "none", "--status-json"}
	host, err := peerproc.Start("host", append([]string{lab.bin, "host", "--name", "budgets", "--players", strconv.Itoa(players),
		"--turns", strconv.FormatUint(turns, 10), "--size", "64"}, lo...), lab.env("host")...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(host.Kill)
	lab.host = host
	l, err := host.WaitEv(ctx, "listening")
	if err != nil {
		tb.Fatal(err)
	}
	addrs, _ := l["addrs"].([]any)
	if len(addrs) == 0 {
		tb.Fatalf("the host listens on nothing: %v", l)
	}
	addr, _ := addrs[0].(string)
	info, err := peer.AddrInfoFromString(addr)
	if err != nil {
		tb.Fatal(err)
	}
	lab.hostInfo = *info
	for i := range joiners {
		name := fmt.Sprintf("j%d", i+1)
		j, err := peerproc.Start(name, append([]string{lab.bin, "join", "--addr", addr, "--player", name}, lo...), lab.env(name)...)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(j.Kill)
		lab.joiners = append(lab.joiners, j)
	}
	return lab
}

// env gives process name a data dir and identity of its own, and the lab's
// settings; with $HOSTFALL_PROFILE set, its profiles go to a directory of
// its name there.
func (lab *procLab) env(name string) []string {
	env := []string{"HOSTFALL_DATA=" + filepath.Join(lab.dir, "data-"+name), "HOSTFALL_IDENTITY=" + filepath.Join(lab.dir, name+".key"),
		"HOSTFALL_CONFIG=" + lab.dir}
	if root := os.Getenv("HOSTFALL_PROFILE"); root != "" {
		dir := filepath.Join(root, name)
		_ = os.MkdirAll(dir, 0o755)
		env = append(env, "HOSTFALL_PROFILE="+dir)
	}
	return env
}

// procs is the host and the joiner processes.
func (lab *procLab) procs() []*peerproc.Proc {
	return append([]*peerproc.Proc{lab.host}, lab.joiners...)
}

// waitTurn waits until the host has played turn.
func (lab *procLab) waitTurn(tb testing.TB, ctx context.Context, turn int64) {
	tb.Helper()
	if _, err := lab.host.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "turn" && l.Int("turn") >= turn }); err != nil {
		tb.Fatal(err)
	}
}

// ends waits for every process's exit and checks one end line each, at
// turns, with one hash: one game, played to its end. It returns the end lines.
func (lab *procLab) ends(tb testing.TB, turns int64, within time.Duration) []peerproc.Line {
	tb.Helper()
	var out []peerproc.Line
	hash := ""
	for _, p := range lab.procs() {
		if err := p.Exit(within); err != nil {
			tb.Fatalf("%s: %v\n%s", p.Name, err, tail(p.Stderr()))
		}
		end := p.Find("end")
		if len(end) != 1 || end[0].Int("turn") != turns {
			tb.Fatalf("%s: end lines %v, want one at turn %d", p.Name, end, turns)
		}
		if h := end[0].Str("hash"); hash == "" {
			hash = h
		} else if h != hash {
			tb.Errorf("%s ended with hash %s, the host with %s: two games", p.Name, h, hash)
		}
		out = append(out, end[0])
	}
	return out
}

// checkNobodyMoved fails for any line of a process that shows the host
// changing or a player gone; waits are failures when waits is set, else
// figures.
func (lab *procLab) checkNobodyMoved(tb testing.TB, waits bool) {
	tb.Helper()
	for _, p := range lab.procs() {
		for _, l := range p.Lines() {
			switch l.Ev() {
			case "host_changed", "player_left", "left":
				tb.Errorf("%s: %v", p.Name, l)
			case "waiting", "player_away":
				if waits {
					tb.Errorf("%s: %v", p.Name, l)
				} else {
					tb.Logf("FIGURE %s: %v", p.Name, l)
				}
			}
		}
	}
}

// joinFromHere joins this process's peer to the lab's game and readies it.
func (lab *procLab) joinFromHere(t *testing.T, ctx context.Context, tp *tpeer) {
	t.Helper()
	if err := tp.Join(ctx, lab.hostInfo); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, tp.name+" joined", 20*time.Second, func() bool { return tp.Status().Joined })
	if err := tp.ready(tp.name); err != nil {
		t.Fatal(err)
	}
}

// rss is a process's resident set now and at its peak, in bytes, from
// /proc (VmRSS, VmHWM); zeros once it has exited.
func rss(pid int) (now, peak uint64) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "VmRSS":
			now = kb << 10
		case "VmHWM":
			peak = kb << 10
		}
	}
	return now, peak
}

// dirBytes is the size of the files in dir.
func dirBytes(dir string) int64 {
	var n int64
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && !e.IsDir() {
			n += fi.Size()
		}
	}
	return n
}

// tail is the end of a process's stderr, for a failure.
func tail(s string) string { return s[max(0, len(s)-4000):] }

// mb is bytes in MB (10^6, as RSS targets are stated).
func mb(b uint64) float64 { return float64(b) / 1e6 }
