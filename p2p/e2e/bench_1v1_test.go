package e2e

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"hostfall/internal/peerproc"
)

// TestBenchLAN1v1HostKill measures issue 29's figure with two processes in
// two namespaces on one bridge, joining by mDNS: the host of a game of two
// gets SIGKILL at turn 100, and the time from the kill to the survivor's
// host_changed line (printed with the first turn it sequences: its turns
// flow again) is one sample. HFLAN_BENCH_1V1 games (default 10):
//
//	BenchmarkLAN1v1HostKill 1 <p50> ms-p50 <p99> ms-p99 <n> kills
func TestBenchLAN1v1HostKill(t *testing.T) {
	if os.Getenv(benchEnv) == "" {
		t.Skip("opt-in: network benchmark; scripts/bench.d/lan1v1.sh runs it with " + benchEnv + "=1")
	}
	kills := benchRuns("HFLAN_BENCH_1V1", 10)
	w := newWorld(t)
	names := []string{"ann", "bo"}
	_, spaces := w.lan("10.67.0", names...)
	var took []float64
	for r := range kills {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		g := playOnLAN(ctx, w, spaces, names, fmt.Sprintf("duel-%d", r), 400, "--level", "easy")
		_, m, err := peerproc.KillHosts(ctx, g.procs, g.ids, g.procs[0], 100)
		w.must(err)
		survivor := g.procs[1]
		handOver, hcAt := int64(-1), int64(0) // from the survivor's loss of the host to its first turn, as it measured it
		if hc := survivor.Find("host_changed"); len(hc) > 0 {
			handOver, hcAt = hc[0].Int("ms"), hc[0].Int("unix_ms")
		}
		if len(m) > 0 && m[0] > 100 {
			// A slow sample: what the survivor's transport and session said.
			killed := time.UnixMilli(hcAt - int64(m[0])).UTC().Format("15:04:05.000")
			t.Logf("bench_1v1: kill %d was slow (killed at %s); the survivor's log:\nbench_1v1 | %s", r+1, killed,
				strings.ReplaceAll(tail(survivor.Stderr(), 4000), "\n", "\nbench_1v1 | "))
		}
		for _, l := range strings.Split(survivor.Stderr(), "\n") {
			if strings.Contains(l, "libp2p connection") { // which transports carried the game
				t.Logf("bench_1v1: kill %d: %s", r+1, l)
			}
		}
		survivor.Kill() // the figure is in; the rest of the game would only load the next one
		took = append(took, m...)
		t.Logf("bench_1v1: kill %d: the survivor's turns flow again %v ms after the kill (hand-over %d ms from the loss it saw)", r+1, m, handOver)
		cancel()
	}
	fmt.Printf("BenchmarkLAN1v1HostKill 1 %.2f ms-p50 %.2f ms-p99 %d kills\n",
		peerproc.Percentile(took, 50), peerproc.Percentile(took, 99), len(took))
}
