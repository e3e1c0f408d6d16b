package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/game/ai"
	"hostfall/internal/peerproc"
	"hostfall/match"
	"hostfall/p2p/transport"
	"hostfall/savegame"
	"hostfall/session"
)

// Issue 14's figures of `make bench` (scripts/bench.d/lanreturn.sh), opt-in
// as TestBenchLAN is (HFLAN_BENCH=1):
//
//	BenchmarkLANRejoin10min/restart 1 <p50> ms-p50 <p99> ms-p99 <max> ms-max <n> returns
//	BenchmarkLANRejoin10min/welcome 1 <p50> ms-p50 <p99> ms-p99 <max> ms-max <n> returns
//	BenchmarkLANRejoin10min/command 1 <p50> ms-p50 <p99> ms-p99 <max> ms-max <n> returns
//	BenchmarkLANRejoin10min/kill 1 <p50> ms-p50 <max> ms-max <n> returns
//	BenchmarkLANHealOneGame 1 <p50> ms-p50 <max> ms-max <n> heals
//
// Rejoin: a joiner of a game 10 minutes in (turn 12,000) is SIGKILLed, and
// once the host marked it away it is started again as `join --rejoin` (same
// identity and data dir); the time from its restart (restart), and from the
// host's welcome (its "joined" line: its first connection that reached the
// game took it back), to the player_back line of its slot (the turn from
// which its commands execute); from its restart to the first command of
// its slot the host executed after that (command: when its bot's orders
// run again; bots order now and then, so this adds their pause); from the
// kill to player_back (kill: the host marks it away after DropTicks, 3 s,
// and only then is it restarted). Heal: four peers split 2/2
// for 20 s, healed; the time from the heal until every peer follows the
// one host the game goes on with (host_changed lines, see healToOneHost).

// rejoinTurn is where the rejoin benchmark's game starts: 10 minutes of
// game time at 20 turns a second.
const rejoinTurn = 12000

// benchRuns is $name as a count in [1, 50], or def.
func benchRuns(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return min(n, 50)
	}
	return def
}

// TestBenchLANRejoin: four headless peers (a bot plays every slot) in four
// namespaces resume a game saved at turn 12,000 (writeSave10min: the save
// is made here, by playing hard bots in the six slots of a 256×256 game for
// 12,000 turns in-process, so the game does not take 10 real minutes to get
// there; the four peers take four slots still in, bots keep the other two),
// then, HFLAN_BENCH_RETURNS times (default 10), a joiner (in turn) is
// SIGKILLed and restarted with `join --rejoin`.
func TestBenchLANRejoin(t *testing.T) {
	if os.Getenv(benchEnv) == "" {
		t.Skip("opt-in: network benchmark; scripts/bench.d/lanreturn.sh runs it with " + benchEnv + "=1")
	}
	returns := benchRuns("HFLAN_BENCH_RETURNS", 10)
	w := newChaosWorld(t)
	w.env = []string{"HOSTFALL_TRACE=1"}
	began := time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()

	const n = 4
	names := []string{"p0", "p1", "p2", "p3"}
	ids := make([]string, n)
	for i, name := range names { // the identities the processes will load
		k, err := transport.LoadIdentity(filepath.Join(w.dir, name+".key"))
		w.must(err)
		id, err := peer.IDFromPrivateKey(k)
		w.must(err)
		ids[i] = id.String()
	}
	// Long enough for every return (about 8 s each) and some slack; the
	// game is not played to its end.
	limit := uint64(rejoinTurn + 20*(30+10*returns))
	saveStart := time.Now()
	path, units := writeSave10min(t, w.dir, names, ids, limit)
	t.Logf("save of turn %d written in %v: %s (%d units and buildings)", rejoinTurn, time.Since(saveStart).Round(time.Millisecond), path, units)

	sw, err := w.lab.Switch("sw", "10.73.0")
	w.must(err)
	g := &chaosGame{w: w, t: t, turns: int64(limit), ids: ids}
	for _, name := range names {
		ns, err := w.lab.Namespace(name)
		w.must(err)
		l, err := sw.Plug(ns)
		w.must(err)
		g.names, g.spaces, g.links = append(g.names, name), append(g.spaces, ns), append(g.links, l)
	}
	host := w.runAs(g.spaces[0], "p0", "p0", append([]string{"host", "--load", path, "--player", "p0"}, gameArgs...)...)
	w.waitEv(ctx, host, "resume")
	g.procs = [][]*peerproc.Proc{{host}}
	addr := g.addr(ctx, 0)
	for i := 1; i < n; i++ {
		p := w.runAs(g.spaces[i], names[i], names[i], joinArgs(names[i], "--addr", addr)...)
		g.procs = append(g.procs, []*peerproc.Proc{p})
	}
	for i := range n {
		g.slots = append(g.slots, w.waitEv(ctx, g.cur(i), "joined").Int("slot"))
	}
	for i := range n {
		w.waitEv(ctx, g.cur(i), "start")
	}
	first := w.wait(ctx, host, atTurn(rejoinTurn+40))
	g.start = time.Now()
	t.Logf("resumed at turn %d: players %v in slots %v (game at turn %d %v after the test began)",
		rejoinTurn, names, g.slots, first.Int("turn"), time.Since(began).Round(time.Second))

	var fromRestart, fromJoined, fromCommand, fromKill []float64
	for r := range returns {
		i := 1 + r%(n-1) // the joiners in turn
		slot := g.slots[i]
		killed := g.kill(i)
		away := w.wait(ctx, host, func(l peerproc.Line) bool {
			return l.Ev() == "player_away" && l.Int("slot") == slot && l.Int("unix_ms") >= killed.UnixMilli()
		})
		restarted := g.restart(ctx, i, -1)
		bctx, bcancel := context.WithTimeout(ctx, 30*time.Second)
		back := g.backAfter(bctx, i, restarted)
		bcancel()
		if back < 0 {
			t.Fatalf("return %d: %s (slot %d) not back 30 s after its restart", r+1, g.cur(i).Name, slot)
		}
		p := g.cur(i)
		backAt := restarted.Add(back)
		line := fmt.Sprintf("return %d: %s (slot %d): away %d ms after the kill; back %d ms after the restart",
			r+1, p.Name, slot, away.Int("unix_ms")-killed.UnixMilli(), back.Milliseconds())
		fromRestart = append(fromRestart, float64(back.Milliseconds()))
		fromKill = append(fromKill, float64(backAt.Sub(killed).Milliseconds()))
		if ls := p.Lines(); len(ls) > 0 {
			line += fmt.Sprintf(" (its first status line after %d ms", ls[0].Int("unix_ms")-restarted.UnixMilli())
			if j := p.Find("joined"); len(j) > 0 {
				d := backAt.UnixMilli() - j[0].Int("unix_ms")
				fromJoined = append(fromJoined, float64(d))
				line += fmt.Sprintf("; the host's welcome (joined slot %d) after %d ms, %d ms before it was back", j[0].Int("slot"), j[0].Int("unix_ms")-restarted.UnixMilli(), d)
			}
			if f := p.Find("found"); len(f) > 0 {
				line += fmt.Sprintf("; found after %d ms", f[0].Int("unix_ms")-restarted.UnixMilli())
			}
			line += ")"
		}
		// Its bot's first order after that, executed: the first command of
		// its slot the host applied after the back line.
		if c := firstOwnCommand(ctx, host, slot, backAt); c >= 0 {
			fromCommand = append(fromCommand, float64(c-restarted.UnixMilli()))
			line += fmt.Sprintf("; its first command after that executed on the host %d ms after the restart", c-restarted.UnixMilli())
		}
		t.Log(line)
		if back > 2*time.Second {
			keepSlow(t, fmt.Sprintf("return%d", r+1), restarted, p, host)
		}
		// Let it play a moment before the next kill.
		w.wait(ctx, host, atTurn(lastTurn(host)+20))
	}
	checkOneGame(ctx, g)
	t.Logf("FIGURE TestBenchLANRejoin wall time %v", time.Since(began).Round(time.Second))
	fmt.Printf("BenchmarkLANRejoin10min/restart 1 %.0f ms-p50 %.0f ms-p99 %.0f ms-max %d returns\n",
		peerproc.Percentile(fromRestart, 50), peerproc.Percentile(fromRestart, 99), peerproc.Percentile(fromRestart, 100), len(fromRestart))
	fmt.Printf("BenchmarkLANRejoin10min/welcome 1 %.0f ms-p50 %.0f ms-p99 %.0f ms-max %d returns\n",
		peerproc.Percentile(fromJoined, 50), peerproc.Percentile(fromJoined, 99), peerproc.Percentile(fromJoined, 100), len(fromJoined))
	fmt.Printf("BenchmarkLANRejoin10min/command 1 %.0f ms-p50 %.0f ms-p99 %.0f ms-max %d returns\n",
		peerproc.Percentile(fromCommand, 50), peerproc.Percentile(fromCommand, 99), peerproc.Percentile(fromCommand, 100), len(fromCommand))
	fmt.Printf("BenchmarkLANRejoin10min/kill 1 %.0f ms-p50 %.0f ms-max %d returns\n",
		peerproc.Percentile(fromKill, 50), peerproc.Percentile(fromKill, 100), len(fromKill))
}

// keepSlow keeps the status lines (but the trace's) and stderr of procs in
// a directory that outlives the test, for a return slower than the target,
// and logs the rejoiner's stderr from its start, its times from since.
func keepSlow(t *testing.T, what string, since time.Time, procs ...*peerproc.Proc) {
	dir, err := os.MkdirTemp("", "hflan-bench-"+what+"-")
	if err != nil {
		t.Logf("logs not kept: %v", err)
		return
	}
	for _, p := range procs {
		var b strings.Builder
		for _, l := range p.Lines() {
			if ev := l.Ev(); ev == "cmd_applied" || ev == "cmd_proposed" || ev == "traffic" {
				continue
			}
			js, _ := json.Marshal(l)
			b.Write(js)
			b.WriteByte('\n')
		}
		_ = os.WriteFile(filepath.Join(dir, p.Name+".status"), []byte(b.String()), 0o644)
		_ = os.WriteFile(filepath.Join(dir, p.Name+".stderr"), []byte(p.Stderr()), 0o644)
	}
	t.Logf("%s: slower than 2 s; status lines and stderr of %d processes kept in %s (restart at unix ms %d); %s's stderr:\n%s",
		what, len(procs), dir, since.UnixMilli(), procs[0].Name, tail(procs[0].Stderr(), 6000))
}

// firstOwnCommand waits up to 10 s for p to apply a command of slot after
// at (HOSTFALL_TRACE lines) and returns when it did (unix ms), or -1.
func firstOwnCommand(ctx context.Context, p *peerproc.Proc, slot int64, at time.Time) int64 {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	l, err := p.Wait(ctx, func(l peerproc.Line) bool {
		return l.Ev() == "cmd_applied" && l.Int("slot") == slot && l.Int("us") >= at.UnixMicro()
	})
	if err != nil {
		return -1
	}
	return l.Int("us") / 1000
}

// lastTurn is the turn of p's newest turn line (0: none yet).
func lastTurn(p *peerproc.Proc) int64 {
	ts := p.Find("turn")
	if len(ts) == 0 {
		return 0
	}
	return ts[len(ts)-1].Int("turn")
}

// checkOneGame waits until every player's newest process printed a turn
// line 40 turns past the host's turn now and fails unless they all name
// one host and one hash there: the returns left one game.
func checkOneGame(ctx context.Context, g *chaosGame) {
	g.t.Helper()
	at := (lastTurn(g.cur(0))/20 + 2) * 20
	var host, hash string
	for i := range g.procs {
		g.w.wait(ctx, g.cur(i), atTurn(at))
		var l peerproc.Line
		for _, x := range g.cur(i).Find("turn") {
			if x.Int("turn") == at {
				l = x
			}
		}
		switch {
		case l == nil:
			g.t.Logf("%s printed no turn line at turn %d (it went past it by snapshot)", g.cur(i).Name, at)
		case host == "":
			host, hash = l.Str("host"), l.Str("hash")
		case l.Str("host") != host || l.Str("hash") != hash:
			g.t.Errorf("%s at turn %d: host %s hash %s; %s: host %s hash %s", g.cur(i).Name, at,
				tail(l.Str("host"), 6), l.Str("hash"), g.cur(0).Name, tail(host, 6), hash)
		}
	}
	g.t.Logf("at turn %d every player follows host %s with hash %s", at, tail(host, 6), hash)
}

// The saved game of the rejoin benchmark: a free-for-all of saveSlots
// players on a saveSize map, a hard bot playing each for 12,000 turns. With
// four players (on maps of 64 to 256) the bots always put one or two of
// them out by then, and a player that is out has no game to come back to;
// so the game has six, and the four peers play four that are still in.
const (
	saveSlots = 6
	saveSize  = 256
)

// writeSave10min writes a save file of a game at rejoinTurn into dir and
// returns its path and the units and buildings alive: the lobby names the
// players (names) by their peer IDs (ids) in four slots whose players are
// in (units and buildings) at turn 12,000, and the others are bot slots.
// The state is what match makes of 12,000 turns of a hard bot playing each
// slot, as a network peer's bots would. It takes the first map seed from 1
// with four players in at turn 12,000.
func writeSave10min(t *testing.T, dir string, names, ids []string, limit uint64) (string, int) {
	t.Helper()
	for seed := uint64(1); seed <= 20; seed++ {
		sv, units, why := save10min(seed, names, ids, limit)
		if sv == nil {
			t.Logf("save: map seed %d: %s", seed, why)
			continue
		}
		if _, err := match.CheckSaved(sv.Saved); err != nil {
			t.Fatal(err)
		}
		path, err := savegame.WriteFile(filepath.Join(dir, "saves"), sv)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("save: map seed %d: %s", seed, why)
		return path, units
	}
	t.Fatalf("no map seed of 1..20 has %d players in at turn %d", len(names), rejoinTurn)
	return "", 0
}

// save10min plays the game of map seed for rejoinTurn turns; nil (and
// why) when fewer than len(names) players are in then.
func save10min(seed uint64, names, ids []string, limit uint64) (*savegame.Save, int, string) {
	l := session.Lobby{Revision: 1, Name: "bench-rejoin", MapSeed: seed, MapSize: saveSize, TurnTicks: 5,
		MaxPlayers: saveSlots, State: session.StatePlaying, TurnLimit: limit}
	for range saveSlots {
		l.Slots = append(l.Slots, session.Slot{Kind: session.SlotBot, BotLevel: uint8(ai.Hard), Ready: true})
	}
	m := match.New(match.Options{})
	if err := m.Load(l); err != nil {
		return nil, 0, err.Error()
	}
	var bots []*ai.Bot
	seqs := make([]uint64, saveSlots)
	for slot := range saveSlots {
		p, _ := m.Player(slot)
		bots = append(bots, ai.New(p, ai.Hard, l.MapSeed^uint64(slot+1)*0x9e3779b97f4a7c15))
	}
	for turn := uint64(1); turn <= rejoinTurn; turn++ {
		var cmds []session.Command
		for slot, b := range bots {
			for _, c := range b.Think(m.World()) {
				data, err := c.AppendBinary(nil)
				if err != nil {
					continue
				}
				seqs[slot]++
				cmds = append(cmds, session.Command{Slot: slot, Seq: seqs[slot], Data: data})
			}
		}
		if err := m.Step(session.Turn{Number: turn, Commands: cmds}); err != nil {
			return nil, 0, err.Error()
		}
		if m.World().Over() {
			return nil, 0, fmt.Sprintf("the game ended at turn %d", turn)
		}
	}
	units, j := 0, 0
	w := m.World()
	var parts []string
	for slot := range saveSlots {
		p, _ := m.Player(slot)
		pi := w.Player(p)
		if j < len(names) && !pi.Out && pi.Units >= 5 && pi.Buildings >= 1 {
			l.Slots[slot] = session.Slot{Kind: session.SlotHuman, Peer: session.PeerID(ids[j]), Name: names[j], Color: uint8(slot), Ready: true}
			parts = append(parts, fmt.Sprintf("slot %d %s: %d units %d buildings", slot, names[j], pi.Units, pi.Buildings))
			units += pi.Units + pi.Buildings
			j++
			continue
		}
		parts = append(parts, fmt.Sprintf("slot %d bot: %d units %d buildings", slot, pi.Units, pi.Buildings))
	}
	if j < len(names) {
		return nil, 0, fmt.Sprintf("%d players are in at turn %d: %v", j, rejoinTurn, parts)
	}
	data, err := m.SaveState(rejoinTurn)
	if err != nil {
		return nil, 0, err.Error()
	}
	next := make([]uint64, len(seqs))
	for i, s := range seqs {
		next[i] = s + 1
	}
	return &savegame.Save{Saved: session.Saved{Lobby: l, State: session.Snapshot{
			Turn: rejoinTurn, Data: data, Chain: 0x5eed, NextSeq: next}}, At: time.Now()},
		units, fmt.Sprintf("%v, a state of %d bytes", parts, len(data))
}

// TestBenchLANHeal: four peers in four namespaces on one switch play a
// game that is split 2/2 ({p0,p1} | {p2,p3}) for 20 s and healed,
// HFLAN_BENCH_HEALS times (default 5), and each time the time from the heal
// until every peer follows one host is measured.
func TestBenchLANHeal(t *testing.T) {
	if os.Getenv(benchEnv) == "" {
		t.Skip("opt-in: network benchmark; scripts/bench.d/lanreturn.sh runs it with " + benchEnv + "=1")
	}
	heals := benchRuns("HFLAN_BENCH_HEALS", 5)
	const split = 20 * time.Second
	w := newChaosWorld(t)
	began := time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), time.Duration(heals)*40*time.Second+time.Minute)
	defer cancel()
	// The turn limit outlasts the heals: 20 s split + up to 10 s after each.
	turns := 200 + heals*20*32
	g := startChaos(ctx, w, t, "10.74.0", "bench-heal", 4, turns)
	w.wait(ctx, g.cur(0), atTurn(100))
	g.start = time.Now()
	a, b := []int{0, 1}, []int{2, 3}
	var took []float64
	for r := range heals {
		g.split(a, b, true)
		t.Logf("%s: split %v | %v", g.since(), a, b)
		time.Sleep(split)
		healed := g.split(a, b, false)
		d, line := healToOneHost(ctx, g, healed)
		if d < 0 {
			t.Fatalf("heal %d: no one host 10 s after the heal: %s", r+1, line)
		}
		t.Logf("heal %d: one host %d ms after the heal: %s", r+1, d, line)
		took = append(took, float64(d))
		checkOneGame(ctx, g)
	}
	for i := range g.procs {
		g.cur(i).Kill()
	}
	t.Logf("FIGURE TestBenchLANHeal wall time %v", time.Since(began).Round(time.Second))
	fmt.Printf("BenchmarkLANHealOneGame 1 %.0f ms-p50 %.0f ms-max %d heals\n",
		peerproc.Percentile(took, 50), peerproc.Percentile(took, 100), len(took))
}

// healToOneHost waits until, after healed, every peer has followed one host
// for 2 s of turn lines (at least two turn lines each, all on one host and
// epoch, the first printed after the heal), and returns how long after the
// heal the last peer started following it: its host_changed line to that
// host and epoch after the heal, or 0 for a peer that never changed host
// (its side won). The time is -1 (and the line says what the peers follow)
// if that does not happen within 10 s.
func healToOneHost(ctx context.Context, g *chaosGame, healed time.Time) (int64, string) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	h := healed.UnixMilli()
	for {
		var host string
		var epoch int64 = -1
		one := true
		var state []string
		for i := range g.procs {
			var ts []peerproc.Line
			for _, l := range g.cur(i).Find("turn") {
				if l.Int("unix_ms") > h {
					ts = append(ts, l)
				}
			}
			if len(ts) < 2 {
				one = false
				state = append(state, g.names[i]+": no turns")
				continue
			}
			last := ts[len(ts)-1]
			state = append(state, fmt.Sprintf("%s: host %s epoch %d turn %d", g.names[i], tail(last.Str("host"), 6), last.Int("epoch"), last.Int("turn")))
			if prev := ts[len(ts)-2]; prev.Str("host") != last.Str("host") || prev.Int("epoch") != last.Int("epoch") {
				one = false
			}
			if epoch < 0 {
				host, epoch = last.Str("host"), last.Int("epoch")
			} else if last.Str("host") != host || last.Int("epoch") != epoch {
				one = false
			}
		}
		if one {
			// turns: when the last peer printed its first turn line on the
			// host and epoch after the heal (a turn line every 20 turns:
			// coarse), 0 for one that printed them before the heal too.
			var worst, turns int64
			for i := range g.procs {
				p := g.cur(i)
				for _, hc := range p.Find("host_changed") {
					if hc.Int("unix_ms") >= h && hc.Str("new") == host {
						worst = max(worst, hc.Int("unix_ms")-h)
					}
				}
				ts := p.Find("turn")
				from := len(ts) - 1
				for from > 0 && ts[from-1].Str("host") == host && ts[from-1].Int("epoch") == epoch {
					from--
				}
				turns = max(turns, ts[from].Int("unix_ms")-h)
			}
			return worst, fmt.Sprintf("%v; turn lines on it from %d ms after the heal", state, max(turns, 0))
		}
		select {
		case <-ctx.Done():
			return -1, fmt.Sprint(state)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
