package e2e

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"hostfall/internal/peerproc"
)

// TestBenchLANDiscovery measures issue 28's discovery figure on each path
// apart: one host waits in its lobby in one namespace; joiners in three
// other namespaces on the same bridge start `join --session`, looking one
// way only (HOSTFALL_DISCOVERY), one after another, and each is killed as
// soon as it printed "found". A figure is the joiner's own: its browser
// opened → the session in its list (the "found" line's ms). It prints
//
//	BenchmarkLANDiscoveryMDNS 1 <p50> ms-p50 <p99> ms-p99 <n> joins
//	BenchmarkLANDiscoveryBeacon 1 <p50> ms-p50 <p99> ms-p99 <n> joins
//
// HFLAN_BENCH_OPENINGS sets the openings per path (default 24, at most 50).
func TestBenchLANDiscovery(t *testing.T) {
	if os.Getenv(benchEnv) == "" {
		t.Skip("opt-in: network benchmark; scripts/bench.d/lan.sh runs it with " + benchEnv + "=1")
	}
	openings := benchRuns("HFLAN_BENCH_OPENINGS", 24)
	w := newWorld(t)
	names := []string{"p0", "p1", "p2", "p3"}
	_, spaces := w.lan("10.68.0", names...)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	// Each joiner is gone before the next starts: the lobby of 8 never fills.
	host := w.run(spaces[0], "p0", hostArgs("bench-find", 8, 100)...)
	w.waitEv(ctx, host, "joined")
	// The figure is for a game already on the LAN: the host starts
	// announcing within 100 ms of "joined" (p2p.AnnounceLobby's period).
	time.Sleep(time.Second)
	for _, p := range []struct{ name, path string }{{"MDNS", "mdns"}, {"Beacon", "beacon"}} {
		w.env = []string{"HOSTFALL_DISCOVERY=" + p.path}
		var found []float64
		for i := range openings {
			id := fmt.Sprintf("%s%d", p.path, i)
			j := w.run(spaces[1+i%3], id, joinArgs(id, "--session", "bench-find")...)
			f := w.waitEv(ctx, j, "found")
			j.Kill()
			found = append(found, float64(f.Int("ms")))
		}
		t.Logf("discovery %s: %v ms", p.path, found)
		fmt.Printf("BenchmarkLANDiscovery%s 1 %.0f ms-p50 %.0f ms-p99 %d joins\n", p.name,
			peerproc.Percentile(found, 50), peerproc.Percentile(found, 99), len(found))
	}
}
