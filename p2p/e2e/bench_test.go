package e2e

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
)

// benchEnv turns TestBenchLAN on (scripts/bench.d/lan.sh sets it); it is
// too long for every test run. HFLAN_BENCH_RUNS sets the games (two host
// kills each; default 5).
const benchEnv = "HFLAN_BENCH"

// TestBenchLAN measures the network figures of `make bench` with four
// processes in four namespaces on one bridge, joining by mDNS, and prints
// them as benchmark lines:
//
//	BenchmarkLANCommandLatency 1 <p50> ms-p50 <p99> ms-p99 <n> cmds
//	BenchmarkLANMigration 1 <p50> ms-p50 <p99> ms-p99 <n> samples
//	BenchmarkLANIdleBytes 1 <mean> B/s/peer <max> B/s/peer-max
//	BenchmarkLANIdleWireBytes 1 <mean> B/s/peer <max> B/s/peer-max
//
// Latency: a peer proposes a command for its own slot → the last peer
// executed it. Migration: SIGKILL of the host → each survivor applied the
// first turn of the new host. Idle, while nobody gives orders: the
// session's frame bytes in and out per peer (what the peers report), and
// everything through each peer's link (IP packets: TCP, encryption, yamux,
// mDNS). Discovery has a test of its own (TestBenchLANDiscovery).
func TestBenchLAN(t *testing.T) {
	if os.Getenv(benchEnv) == "" {
		t.Skip("opt-in: network benchmark; scripts/bench.d/lan.sh runs it with " + benchEnv + "=1")
	}
	runs := 5
	if n, err := strconv.Atoi(os.Getenv("HFLAN_BENCH_RUNS")); err == nil && n > 0 {
		runs = min(n, 50)
	}
	w := newWorld(t)
	w.env = []string{"HOSTFALL_TRACE=1"}
	names := []string{"p0", "p1", "p2", "p3"}
	_, spaces := w.lan("10.66.0", names...)
	var lat, mig []float64
	for r := range runs {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		g := playOnLAN(ctx, w, spaces, names, fmt.Sprintf("bench-%d", r), 300, "--level", "hard")
		alive, m, err := peerproc.KillHosts(ctx, g.procs, g.ids, g.procs[0], 100, 200)
		w.must(err)
		for _, p := range alive {
			w.must(p.Exit(time.Minute))
		}
		lat = append(lat, peerproc.CommandLatencies(g.procs, 2)...)
		mig = append(mig, m...)
		t.Logf("run %d: migrations %v ms", r+1, m)
		cancel()
	}
	idle := idleBytes(t, w, spaces, names)
	fmt.Printf("BenchmarkLANCommandLatency 1 %.2f ms-p50 %.2f ms-p99 %d cmds\n", peerproc.Percentile(lat, 50), peerproc.Percentile(lat, 99), len(lat))
	fmt.Printf("BenchmarkLANMigration 1 %.2f ms-p50 %.2f ms-p99 %d samples %d kills\n", peerproc.Percentile(mig, 50), peerproc.Percentile(mig, 99), len(mig), 2*runs)
	fmt.Printf("BenchmarkLANIdleBytes 1 %.0f B/s/peer %.0f B/s/peer-max\n", mean(idle.session), slices.Max(idle.session))
	fmt.Printf("BenchmarkLANIdleWireBytes 1 %.0f B/s/peer %.0f B/s/peer-max\n", mean(idle.wire), slices.Max(idle.wire))
}

type idleRates struct{ session, wire []float64 } // bytes a second, one per peer

// idleBytes plays a game where no peer gives orders and measures each
// peer's traffic over 5 s of play.
func idleBytes(t *testing.T, w *world, spaces []*netns.NS, names []string) idleRates {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	g := playOnLAN(ctx, w, spaces, names, "bench-idle", 400, "--level", "none")
	const from, to = 60, 160 // past the start and the input delay's settling
	w.wait(ctx, g.procs[0], atTurn(from))
	count := func() []uint64 {
		var c []uint64
		for _, ns := range spaces {
			rx, tx, err := ns.Counters("hflan0")
			w.must(err)
			c = append(c, rx+tx)
		}
		return c
	}
	before, start := count(), time.Now()
	w.wait(ctx, g.procs[0], atTurn(to))
	after, took := count(), time.Since(start)
	var r idleRates
	for i, p := range g.procs {
		r.wire = append(r.wire, float64(after[i]-before[i])/took.Seconds())
		var sum, n float64
		for _, l := range p.Find("traffic") {
			if turn := l.Int("turn"); turn > from && turn <= to {
				sum += float64(l.Int("in") + l.Int("out"))
				n++
			}
		}
		r.session = append(r.session, sum/max(n, 1))
	}
	for _, p := range g.procs {
		p.Kill()
	}
	return r
}

func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(max(len(v), 1))
}
