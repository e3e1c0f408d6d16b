package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
)

// lanGame is a game of headless peers, each in a namespace of its own on
// one switch; the joiners find the host's session by its name with mDNS.
type lanGame struct {
	w     *world
	procs []*peerproc.Proc          // the host first
	ids   map[*peerproc.Proc]string // peer IDs
	turns int64
}

// startLANGame starts n peers for a game of turns turns. netem, if given,
// impairs every peer's link (the egress of each side, so each direction).
func startLANGame(ctx context.Context, w *world, prefix, session string, n, turns int, netem ...string) *lanGame {
	w.t.Helper()
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("p%d", i)
	}
	_, spaces := w.lan(prefix, names...)
	if len(netem) > 0 {
		for _, ns := range spaces {
			w.must(ns.Netem("hflan0", netem...))
		}
	}
	return playOnLAN(ctx, w, spaces, names, session, turns)
}

// playOnLAN starts a game in spaces (already on one switch): the host in
// the first, a joiner in each other that finds the session by name with
// mDNS. It returns once every peer printed start. extra goes to every peer.
func playOnLAN(ctx context.Context, w *world, spaces []*netns.NS, names []string, session string, turns int, extra ...string) *lanGame {
	w.t.Helper()
	n := len(spaces)
	g := &lanGame{w: w, ids: map[*peerproc.Proc]string{}, turns: int64(turns)}
	host := w.run(spaces[0], names[0], hostArgs(session, n, turns, extra...)...)
	w.waitEv(ctx, host, "joined") // the session exists: it is advertised from now
	g.procs = append(g.procs, host)
	for i := 1; i < n; i++ {
		g.procs = append(g.procs, w.run(spaces[i], names[i], joinArgs(names[i], append([]string{"--session", session}, extra...)...)...))
	}
	for _, p := range g.procs {
		g.ids[p] = w.waitEv(ctx, p, "listening").Str("peer")
	}
	for _, p := range g.procs {
		w.waitEv(ctx, p, "start")
	}
	return g
}

// killHosts kills the host when the first survivor reached each turn of
// at, then the peer that took over, and so on; it returns the survivors.
func (g *lanGame) killHosts(ctx context.Context, at ...int64) []*peerproc.Proc {
	g.w.t.Helper()
	alive, mig, err := peerproc.KillHosts(ctx, g.procs, g.ids, g.procs[0], at...)
	g.w.must(err)
	g.w.t.Logf("killed %d hosts at turns %v; each survivor saw the next host %v ms after the kill", len(at), at, mig)
	return alive
}

// Four peers in four namespaces on one bridge find the session by mDNS
// and start; the host gets SIGKILL mid-game; every survivor prints
// host_changed, they all end with the same hash, and their replays verify.
func TestLANHostKilled(t *testing.T) {
	t.Parallel() // a lab of its own; its processes mostly wait on the network
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	g := startLANGame(ctx, w, "10.61.0", "lan-four", 4, 300)
	rest := g.killHosts(ctx, 100)
	w.survive(rest, g.turns, 1, 60*time.Second)
	w.verifyReplays(rest)
}

// The host is killed, then the peer that took over is killed too.
func TestLANTwoHostKills(t *testing.T) {
	t.Parallel() // a lab of its own; its processes mostly wait on the network
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	g := startLANGame(ctx, w, "10.62.0", "lan-twice", 4, 300)
	rest := g.killHosts(ctx, 80, 160)
	w.survive(rest, g.turns, 2, 60*time.Second)
	w.verifyReplays(rest)
}

// Every link delays 50 ms ± 10 ms and loses 1 % of packets; the game still
// ends with equal hashes everywhere, also after a host kill.
func TestLANNetem(t *testing.T) {
	t.Parallel() // a lab of its own; its processes mostly wait on the network
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	g := startLANGame(ctx, w, "10.63.0", "lan-netem", 4, 300, "delay", "50ms", "10ms", "loss", "1%")
	rest := g.killHosts(ctx, 100)
	w.survive(rest, g.turns, 1, 90*time.Second)
	w.verifyReplays(rest)
}

// Three peers started at once with `host --auto` and no session name agree
// on one host, end up in its lobby and play the game to the end together.
func TestLANAuto(t *testing.T) {
	t.Parallel() // a lab of its own; its processes mostly wait on the network
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	names := []string{"p0", "p1", "p2"}
	_, spaces := w.lan("10.64.0", names...)
	var procs []*peerproc.Proc
	for i, ns := range spaces {
		args := append([]string{"host", "--auto", "--player", names[i], "--players", "3", "--turns", "120", "--size", "64"}, gameArgs...)
		procs = append(procs, w.run(ns, names[i], args...))
	}
	hosts := map[string]int{}
	var host string
	for _, p := range procs {
		a := w.waitEv(ctx, p, "auto")
		if a.Str("role") == "host" {
			hosts[p.Name]++
			host = a.Str("host")
		}
		t.Logf("%s: %s, host %s", p.Name, a.Str("role"), tail(a.Str("host"), 6))
	}
	if len(hosts) != 1 {
		t.Fatalf("%d peers chose to host (%v), want 1", len(hosts), hosts)
	}
	for _, p := range procs {
		if a := p.Find("auto")[0]; a.Str("host") != host {
			t.Errorf("%s went to %s, the host is %s", p.Name, a.Str("host"), host)
		}
		if s := w.waitEv(ctx, p, "start"); s.Str("host") != host {
			t.Errorf("%s started a game hosted by %s, not %s", p.Name, s.Str("host"), host)
		}
	}
	w.survive(procs, 120, 0, 60*time.Second)
}
