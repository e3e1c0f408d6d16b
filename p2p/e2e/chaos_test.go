package e2e

import (
	"context"
	"flag"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
)

// Issue 14's real-process chaos: nobody is forced out. Four headless peers,
// each in a namespace of its own on one switch, play a game while players
// are killed and restarted, stopped and continued, cut off and relinked, or
// split 2/2 and healed; every player must end in its own slot, in one game
// with one end hash, with its units.

// chaosPrefix starts the names of these tests' namespaces, apart from the
// other tests' labs.
const chaosPrefix = "hfchaos-"

// newChaosWorld is newWorld with a lab of chaosPrefix.
func newChaosWorld(t *testing.T) *world { return newWorldPrefixed(t, chaosPrefix) }

// runAs starts `hostfall args…` in ns for player id (its data directory and
// identity key, as run gives them) under the process name label: a restarted
// player is the same id under another label, so the logs of both are kept.
func (w *world) runAs(ns *netns.NS, id, label string, args ...string) *peerproc.Proc {
	w.t.Helper()
	env := append([]string{
		"HOSTFALL_DATA=" + filepath.Join(w.dir, id),
		"HOSTFALL_IDENTITY=" + filepath.Join(w.dir, id+".key"),
	}, w.env...)
	p, err := peerproc.Start(label, ns.Argv(append([]string{bin}, args...)...), env...)
	w.must(err)
	w.mu.Lock()
	w.procs = append(w.procs, p)
	w.mu.Unlock()
	return p
}

// chaosViaHost makes TestLANChaos restart the killed host through the
// player that hosts now rather than through another member.
var chaosViaHost = flag.Bool("chaos-via-host", false, "TestLANChaos: the restarted host joins through the new host, not through another member")

// rejoinArgs is how a restarted player comes back: `join` with its own
// identity and data directory, either with --rejoin (the game it was in,
// remembered in its data directory: what a player types) or, with
// memberAddr, through that live member, which names its host.
func rejoinArgs(player, memberAddr string) []string {
	if memberAddr == "" {
		return joinArgs(player, "--rejoin")
	}
	return joinArgs(player, "--addr", memberAddr)
}

// chaosGame is a game of headless peers, player i in namespace i; a
// restarted player has more than one process.
type chaosGame struct {
	w      *world
	t      *testing.T
	turns  int64
	names  []string
	spaces []*netns.NS
	links  []*netns.Link
	ids    []string           // peer ID of each player
	slots  []int64            // the lobby slot each player joined in
	procs  [][]*peerproc.Proc // each player's processes, the newest last
	start  time.Time          // when the host reached the first event's turn
}

// startChaos starts n peers in n namespaces on one switch for prefix, with
// netem (if given) on every peer's link, and returns once every peer
// printed start: the host, then joiners that find the session by mDNS.
func startChaos(ctx context.Context, w *world, t *testing.T, prefix, session string, n, turns int, netem ...string) *chaosGame {
	t.Helper()
	sw, err := w.lab.Switch("sw", prefix)
	w.must(err)
	g := &chaosGame{w: w, t: t, turns: int64(turns)}
	for i := range n {
		name := fmt.Sprintf("p%d", i)
		ns, err := w.lab.Namespace(name)
		w.must(err)
		l, err := sw.Plug(ns)
		w.must(err)
		if len(netem) > 0 {
			w.must(ns.Netem(l.Dev, netem...))
		}
		g.names, g.spaces, g.links = append(g.names, name), append(g.spaces, ns), append(g.links, l)
	}
	host := w.runAs(g.spaces[0], "p0", "p0", hostArgs(session, n, turns)...)
	w.waitEv(ctx, host, "joined")
	g.procs = [][]*peerproc.Proc{{host}}
	for i := 1; i < n; i++ {
		p := w.runAs(g.spaces[i], g.names[i], g.names[i], joinArgs(g.names[i], "--session", session)...)
		g.procs = append(g.procs, []*peerproc.Proc{p})
	}
	for i := range n {
		p := g.cur(i)
		g.ids = append(g.ids, w.waitEv(ctx, p, "listening").Str("peer"))
		g.slots = append(g.slots, w.waitEv(ctx, p, "joined").Int("slot"))
	}
	for i := range n {
		w.waitEv(ctx, g.cur(i), "start")
	}
	t.Logf("started: players %v in slots %v, ids %v", g.names, g.slots, shortIDs(g.ids))
	return g
}

func shortIDs(ids []string) []string {
	var out []string
	for _, id := range ids {
		out = append(out, tail(id, 6))
	}
	return out
}

// alive reports whether player i's newest process runs.
func (g *chaosGame) alive(i int) bool {
	select {
	case <-g.cur(i).Done():
		return false
	default:
		return true
	}
}

// cur is player i's newest process.
func (g *chaosGame) cur(i int) *peerproc.Proc { return g.procs[i][len(g.procs[i])-1] }

// since is the time from the start of the events, for the log.
func (g *chaosGame) since() string { return time.Since(g.start).Round(100 * time.Millisecond).String() }

// addr is a TCP address of player i's newest process on the switch, with
// its peer ID: what `join --addr` takes.
func (g *chaosGame) addr(ctx context.Context, i int) string {
	g.t.Helper()
	l := g.w.waitEv(ctx, g.cur(i), "listening")
	for _, a := range l["addrs"].([]any) {
		s := a.(string)
		if strings.Contains(s, "/ip4/"+g.links[i].IP+"/tcp/") {
			if !strings.Contains(s, "/p2p/") {
				s += "/p2p/" + l.Str("peer")
			}
			return s
		}
	}
	g.t.Fatalf("%s listens on no TCP address on %s: %v", g.cur(i).Name, g.links[i].IP, l)
	return ""
}

// kill SIGKILLs player i's process.
func (g *chaosGame) kill(i int) time.Time {
	p := g.cur(i)
	p.Kill()
	<-p.Done()
	g.t.Logf("%s: SIGKILL %s (slot %d)", g.since(), p.Name, g.slots[i])
	return time.Now()
}

// restart starts player i again, same identity and data directory, through
// member via's address. It returns when the process was started.
// With via < 0 it comes back by --rejoin.
func (g *chaosGame) restart(ctx context.Context, i, via int) time.Time {
	g.t.Helper()
	addr, through := "", "--rejoin"
	if via >= 0 {
		addr, through = g.addr(ctx, via), g.cur(via).Name
	}
	label := fmt.Sprintf("%s-%d", g.names[i], len(g.procs[i])+1)
	at := time.Now()
	p := g.w.runAs(g.spaces[i], g.names[i], label, rejoinArgs(g.names[i], addr)...)
	g.procs[i] = append(g.procs[i], p)
	g.t.Logf("%s: restarted %s as %s through %s", g.since(), g.names[i], label, through)
	return at
}

// signal sends sig to player i's process.
func (g *chaosGame) signal(i int, sig syscall.Signal) time.Time {
	g.t.Helper()
	p := g.cur(i)
	g.w.must(p.Cmd.Process.Signal(sig))
	g.t.Logf("%s: %v %s (slot %d)", g.since(), sig, p.Name, g.slots[i])
	return time.Now()
}

// cut drops everything in and out of player i's link (on) or lets it
// through again (off), with iptables in its namespace: before netem's
// queue, so nothing of it leaks.
func (g *chaosGame) cut(i int, on bool) time.Time {
	g.t.Helper()
	op := "-D"
	if on {
		op = "-I"
	}
	dev := g.links[i].Dev
	for _, rule := range [][]string{{"INPUT", "-i", dev}, {"OUTPUT", "-o", dev}} {
		_, err := g.spaces[i].Output(append(append([]string{"iptables", op}, rule...), "-j", "DROP")...)
		g.w.must(err)
	}
	what := map[bool]string{true: "cut", false: "relinked"}[on]
	g.t.Logf("%s: %s %s's link (slot %d)", g.since(), what, g.names[i], g.slots[i])
	return time.Now()
}

// split cuts the players of a from those of b (off: heals the split), with
// iptables in each one's namespace, by the others' addresses.
func (g *chaosGame) split(a, b []int, on bool) time.Time {
	g.t.Helper()
	op := "-D"
	if on {
		op = "-I"
	}
	block := func(i int, others []int) {
		for _, o := range others {
			ip := g.links[o].IP
			for _, rule := range [][]string{{"INPUT", "-s", ip}, {"OUTPUT", "-d", ip}} {
				_, err := g.spaces[i].Output(append(append([]string{"iptables", op}, rule...), "-j", "DROP")...)
				g.w.must(err)
			}
		}
	}
	for _, i := range a {
		block(i, b)
	}
	for _, i := range b {
		block(i, a)
	}
	return time.Now()
}

// at sleeps until d after the start of the events.
func (g *chaosGame) at(d time.Duration) { time.Sleep(time.Until(g.start.Add(d))) }

// all is every process of every player.
func (g *chaosGame) all() []*peerproc.Proc {
	var out []*peerproc.Proc
	for _, ps := range g.procs {
		out = append(out, ps...)
	}
	return out
}

// backAfter waits for the first player_back line of player i's slot that
// any process printed at or after since and returns the time from since to
// it; -1 if none came before ctx ended or player i's newest process exited.
func (g *chaosGame) backAfter(ctx context.Context, i int, since time.Time) time.Duration {
	slot, p := g.slots[i], g.cur(i)
	for {
		best := int64(-1)
		for _, q := range g.all() {
			for _, l := range q.Find("player_back") {
				if l.Int("slot") == slot && l.Int("unix_ms") >= since.UnixMilli() && (best < 0 || l.Int("unix_ms") < best) {
					best = l.Int("unix_ms")
				}
			}
		}
		if best >= 0 {
			return time.Duration(best-since.UnixMilli()) * time.Millisecond
		}
		select {
		case <-ctx.Done():
			return -1
		case <-p.Done():
			return -1
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// host is the player the others follow now: the host of most live
// processes' newest turn lines (-1 if none names a player).
func (g *chaosGame) host() int {
	votes := map[string]int{}
	for i := range g.procs {
		p := g.cur(i)
		if !g.alive(i) {
			continue
		}
		if ts := p.Find("turn"); len(ts) > 0 {
			votes[ts[len(ts)-1].Str("host")]++
		}
	}
	best, n := -1, 0
	for i, id := range g.ids {
		if votes[id] > n {
			best, n = i, votes[id]
		}
	}
	return best
}

// logBack logs a measured time to a player_back line, or that none came:
// not an error by itself (a peer cut off whose side won the merge was never
// away in the game that went on); the end checks say whether everyone is in.
func (g *chaosGame) logBack(what string, d time.Duration) {
	if d < 0 {
		g.t.Logf("FIGURE %s → player_back: none came", what)
		return
	}
	g.t.Logf("FIGURE %s → player_back: %v", what, d.Round(time.Millisecond))
}

// checkEnd checks the game's end for every player's newest process: it exits
// 0 within d, printed one end line at the turn limit with the hash of the
// others, in its own slot, and every player of the game still has units or
// buildings and is not out. No process of a player was ever seated as a
// spectator, and none printed player_left. It returns the newest processes.
func (g *chaosGame) checkEnd(d time.Duration) []*peerproc.Proc {
	t := g.t
	t.Helper()
	var last []*peerproc.Proc
	var hash string
	for i := range g.procs {
		p := g.cur(i)
		last = append(last, p)
		if err := p.Exit(d); err != nil {
			t.Errorf("%s (slot %d) did not end well: %v\nstderr (end):\n%s", p.Name, g.slots[i], err, tail(p.Stderr(), 2000))
			continue
		}
		end := p.Find("end")
		if len(end) != 1 || end[0].Int("turn") != g.turns {
			t.Errorf("%s: end lines %v, want one at turn %d", p.Name, end, g.turns)
			continue
		}
		e := end[0]
		if hash == "" {
			hash = e.Str("hash")
			t.Logf("end at turn %d, hash %s, players %v", e.Int("turn"), hash, e["players"])
		} else if e.Str("hash") != hash {
			t.Errorf("%s ended with hash %s, the players before with %s", p.Name, e.Str("hash"), hash)
		}
		if e.Int("slot") != g.slots[i] {
			t.Errorf("%s ended in slot %d, it joined in slot %d (-1: a spectator)", p.Name, e.Int("slot"), g.slots[i])
		}
		players, _ := e["players"].([]any)
		if len(players) != len(g.procs) {
			t.Errorf("%s: the end line lists %d players, want %d: %v", p.Name, len(players), len(g.procs), e)
		}
		for _, pl := range players {
			m, _ := pl.(map[string]any)
			l := peerproc.Line(m)
			if out, _ := m["out"].(bool); out || l.Int("units")+l.Int("buildings") == 0 {
				t.Errorf("%s: at the end slot %d is out or has nothing left: %v", p.Name, l.Int("slot"), m)
			}
		}
	}
	for i, ps := range g.procs {
		for _, p := range ps {
			for _, j := range p.Find("joined") {
				if j.Int("slot") != g.slots[i] {
					t.Errorf("%s joined in slot %d, its player's slot is %d (-1: a spectator)", p.Name, j.Int("slot"), g.slots[i])
				}
			}
			for _, l := range p.Find("player_left") {
				if l.Int("turn") <= g.turns {
					t.Errorf("%s saw a player forced out: %v", p.Name, l)
				}
			}
			t.Logf("%s: away %d, back %d, host changes %d, desyncs %d", p.Name, len(p.Find("player_away")),
				len(p.Find("player_back")), len(p.Find("host_changed")), len(p.Find("desync")))
		}
	}
	return last
}

// verify runs `hostfall replay --headless --verify` on every replay each
// process saved: one, or one more for each time it took the game back by
// snapshot (its replay ends there and goes on in another file).
func (g *chaosGame) verify(procs []*peerproc.Proc) {
	g.t.Helper()
	for _, p := range procs {
		if p.ExitErr() != nil {
			continue // said already
		}
		rp := p.Find("replay")
		if len(rp) == 0 {
			g.t.Errorf("%s printed no replay path", p.Name)
		}
		for _, l := range rp {
			out, err := exec.Command(bin, "replay", "--headless", "--verify", l.Str("path")).CombinedOutput()
			if err != nil {
				g.t.Errorf("%s: the replay does not verify: %v\n%s", p.Name, err, out)
				continue
			}
			g.t.Logf("%s: %s", p.Name, strings.TrimSpace(string(out)))
		}
	}
}

// TestLANChaos: four peers (a host and three joins, bots playing every
// slot) on one switch with 5 % loss and 80 ± 20 ms delay on every link play
// to the turn limit while one joiner is SIGKILLed and restarted 20 s later,
// one is stopped for 30 s, one loses its link for 15 s, and the host is
// killed and restarted; the events overlap. Every player ends in its own
// slot with its units, all at one end turn with one hash, and the replays
// verify.
func TestLANChaos(t *testing.T) {
	t.Parallel() // a lab of its own (chaosPrefix); its processes mostly wait on the network
	w := newChaosWorld(t)
	began := time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	const turns = 1200
	g := startChaos(ctx, w, t, "10.71.0", "chaos", 4, turns, "delay", "80ms", "20ms", "loss", "5%")
	const host, killed, stopped, unlinked = 0, 1, 2, 3
	w.wait(ctx, g.cur(host), atTurn(100))
	g.start = time.Now()

	// 0 s: a joiner is killed and another stopped; 5 s: the third loses its
	// link; 20 s: the killed one restarts (through the host, the one member
	// not absent then), the link comes back; 30 s: the stopped one
	// continues; 35 s: the host is killed; 45 s: it restarts through a
	// member that is not the new host, as a restarted host would: it cannot
	// know who took over.
	g.kill(killed)
	g.signal(stopped, syscall.SIGSTOP)
	g.at(5 * time.Second)
	g.cut(unlinked, true)
	g.at(20 * time.Second)
	restarted := g.restart(ctx, killed, -1) // as a player would: join --rejoin
	relinked := g.cut(unlinked, false)
	g.at(30 * time.Second)
	continued := g.signal(stopped, syscall.SIGCONT)
	g.at(35 * time.Second)
	g.kill(host)
	g.at(45 * time.Second)
	// The member answers a Hello from a player of the game with the name
	// of its host; -chaos-via-host goes to that host directly.
	now, via := g.host(), -1
	if *chaosViaHost && now >= 0 {
		via = now
	} else {
		for _, i := range []int{unlinked, killed, stopped} {
			if i != now && g.alive(i) {
				via = i
				break
			}
		}
	}
	if via < 0 {
		t.Fatalf("no live member to restart the host through (host now %d)", now)
	}
	if now >= 0 {
		t.Logf("%s: the players follow %s now", g.since(), g.names[now])
	}
	hostBack := g.restart(ctx, host, via)

	bctx, bcancel := context.WithTimeout(ctx, 60*time.Second)
	g.logBack("killed joiner: restart", g.backAfter(bctx, killed, restarted))
	g.logBack("cut joiner: relink", g.backAfter(bctx, unlinked, relinked))
	g.logBack("stopped joiner: SIGCONT", g.backAfter(bctx, stopped, continued))
	g.logBack("killed host: restart", g.backAfter(bctx, host, hostBack))
	bcancel()

	last := g.checkEnd(2 * time.Minute)
	g.verify(last)
	t.Logf("FIGURE TestLANChaos wall time %v (game events from %v)", time.Since(began).Round(time.Second), g.start.Sub(began).Round(time.Second))
}

// TestLANSplitHeals: four peers in four namespaces are split 2/2 for 20 s
// mid-game, then healed; the game ends as one game: every player in its own
// slot, one end hash at one end turn, every process a player to the end.
func TestLANSplitHeals(t *testing.T) {
	t.Parallel() // a lab of its own (chaosPrefix); its processes mostly wait on the network
	w := newChaosWorld(t)
	began := time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	const turns = 1000
	g := startChaos(ctx, w, t, "10.72.0", "split", 4, turns)
	w.wait(ctx, g.cur(0), atTurn(200))
	g.start = time.Now()
	a, b := []int{0, 1}, []int{2, 3}
	g.split(a, b, true)
	t.Logf("%s: split %v | %v", g.since(), a, b)
	g.at(20 * time.Second)
	healed := g.split(a, b, false)
	t.Logf("%s: healed", g.since())

	last := g.checkEnd(2 * time.Minute)
	g.logOneHost(last, healed)
	g.verify(last)
	t.Logf("FIGURE TestLANSplitHeals wall time %v (split from %v)", time.Since(began).Round(time.Second), g.start.Sub(began).Round(time.Second))
}

// logOneHost logs how long after the heal every process followed the host
// of the end for good: for each, the first turn line after which all its
// turn lines up to the end carry the end's epoch and host.
func (g *chaosGame) logOneHost(procs []*peerproc.Proc, healed time.Time) {
	t := g.t
	var epoch int64 = -1
	var host string
	latest := healed.UnixMilli() // a side that kept its host followed it all along
	changed := healed.UnixMilli()
	for _, p := range procs {
		var turnsSeen []peerproc.Line
		for _, l := range p.Find("turn") {
			if l.Int("turn") <= g.turns {
				turnsSeen = append(turnsSeen, l)
			}
		}
		if len(turnsSeen) == 0 {
			t.Errorf("%s printed no turn lines", p.Name)
			continue
		}
		fin := turnsSeen[len(turnsSeen)-1]
		if epoch < 0 {
			epoch, host = fin.Int("epoch"), fin.Str("host")
		} else if fin.Int("epoch") != epoch || fin.Str("host") != host {
			t.Errorf("%s's last turn line is of epoch %d, host %s; another's of epoch %d, host %s",
				p.Name, fin.Int("epoch"), tail(fin.Str("host"), 6), epoch, tail(host, 6))
		}
		from := len(turnsSeen) - 1
		for from > 0 && turnsSeen[from-1].Int("epoch") == fin.Int("epoch") && turnsSeen[from-1].Str("host") == fin.Str("host") {
			from--
		}
		at := turnsSeen[from].Int("unix_ms")
		if at < healed.UnixMilli() {
			t.Logf("%s: followed epoch %d (host %s) all along", p.Name, fin.Int("epoch"), tail(fin.Str("host"), 6))
		} else {
			t.Logf("%s: follows epoch %d (host %s) from turn %d, %d ms after the heal",
				p.Name, fin.Int("epoch"), tail(fin.Str("host"), 6), turnsSeen[from].Int("turn"), at-healed.UnixMilli())
		}
		latest = max(latest, at)
		for _, hc := range p.Find("host_changed") {
			t.Logf("%s: host_changed %s → %s at turn %d (%d ms after the heal)", p.Name, tail(hc.Str("old"), 6),
				tail(hc.Str("new"), 6), hc.Int("turn"), hc.Int("unix_ms")-healed.UnixMilli())
			if hc.Int("turn") <= g.turns && hc.Int("unix_ms") > changed {
				changed = hc.Int("unix_ms")
			}
		}
	}
	t.Logf("FIGURE split heal → one host: last host_changed %d ms after the heal; every process's turn lines on the end's epoch after %d ms (turn lines come every 20 turns)",
		changed-healed.UnixMilli(), latest-healed.UnixMilli())
}
