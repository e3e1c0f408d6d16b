package e2e

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"hostfall/internal/peerproc"
)

// TestBenchInternet measures internet play on the simulated public network
// of TestInternetShortCode (scripts/bench.d/internet.sh runs it with
// benchEnv set; HFLAN_BENCH_JOINS sets the joins, default 20), and prints:
//
//	BenchmarkInternetCodeToLobby 1 <p50> ms-p50 <p99> ms-p99 <n> joins
//	BenchmarkInternetFind 1 <p50> ms-p50 <p99> ms-p99 <n> joins
//	BenchmarkInternetDirect 1 <share> %direct <n> joins
//
// Code to lobby: the joiner's process starts with the short code → it is
// in the host's lobby (it joins the network, looks the code up, connects
// through a relay, and the host lets it in). Find: the lookup alone. Direct:
// the share of joins whose connection went direct by hole punching within
// 5 s of joining. Each join has a fresh host behind one NAT and a joiner
// behind another.
func TestBenchInternet(t *testing.T) {
	if os.Getenv(benchEnv) == "" {
		t.Skip("opt-in: network benchmark; scripts/bench.d/internet.sh runs it with " + benchEnv + "=1")
	}
	joins := 20
	if n, err := strconv.Atoi(os.Getenv("HFLAN_BENCH_JOINS")); err == nil && n > 0 {
		joins = min(n, 100)
	}
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Duration(joins)*30*time.Second+time.Minute)
	defer cancel()
	iw := newInternetWorld(ctx, w)
	var lobby, find []float64
	direct := 0
	for i := range joins {
		tag := fmt.Sprintf("bench%d", i)
		host := w.run(iw.host, "host-"+tag, hostArgs(tag, 2, 100, iw.internetArgs()...)...)
		code := w.waitEv(ctx, host, "invite").Str("code")
		began := time.Now()
		join := w.run(iw.join, "join-"+tag, joinArgs("join-"+tag, append([]string{"--invite", code}, iw.internetArgs()...)...)...)
		w.waitEv(ctx, join, "joined")
		lobby = append(lobby, float64(time.Since(began).Milliseconds()))
		if f := join.Find("found"); len(f) == 1 {
			find = append(find, float64(f[0].Int("ms")))
		}
		dctx, dcancel := context.WithTimeout(ctx, 5*time.Second)
		if _, err := join.Wait(dctx, func(l peerproc.Line) bool { return l.Ev() == "path" && l.Str("path") == "direct" }); err == nil {
			direct++
		}
		dcancel()
		t.Logf("join %d: %s in the lobby after %.0f ms, direct so far %d", i+1, code, lobby[len(lobby)-1], direct)
		host.Kill()
		join.Kill()
	}
	fmt.Printf("BenchmarkInternetCodeToLobby 1 %.0f ms-p50 %.0f ms-p99 %d joins\n", peerproc.Percentile(lobby, 50), peerproc.Percentile(lobby, 99), len(lobby))
	fmt.Printf("BenchmarkInternetFind 1 %.0f ms-p50 %.0f ms-p99 %d joins\n", peerproc.Percentile(find, 50), peerproc.Percentile(find, 99), len(find))
	fmt.Printf("BenchmarkInternetDirect 1 %.0f %%direct %d joins\n", 100*float64(direct)/float64(joins), joins)
}
