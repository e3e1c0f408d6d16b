// Command netbench measures Hostfall's network figures with real processes
// on loopback: a host and three joins play with bots; the host gets SIGKILL,
// then the next host; every run adds two kills. It prints benchmark lines:
//
//	BenchmarkNetProcLatency 1 <p50> ms-p50 <p99> ms-p99 <n> cmds
//	BenchmarkNetProcMigration 1 <p50> ms-p50 <p99> ms-p99 <n> kills
//
// Latency is from a peer proposing a command for its own slot until the
// last peer that executed it did (HOSTFALL_TRACE lines); migration is from
// the SIGKILL until each survivor applied the first turn of the new host.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hostfall/internal/peerproc"
)

func main() {
	bin := flag.String("bin", "bin/hostfall", "the hostfall binary")
	runs := flag.Int("runs", 5, "games to play (two host kills each)")
	flag.Parse()
	var lat, mig []float64
	kills := 0
	for r := range *runs {
		l, m, err := run(*bin, r)
		if err != nil {
			fmt.Fprintf(os.Stderr, "netbench: run %d: %v\n", r+1, err)
			os.Exit(1)
		}
		lat = append(lat, l...)
		mig = append(mig, m...)
		kills += 2
		fmt.Fprintf(os.Stderr, "netbench: run %d: %d commands, migrations %v ms\n", r+1, len(l), m)
	}
	fmt.Printf("BenchmarkNetProcLatency 1 %.2f ms-p50 %.2f ms-p99 %d cmds\n", pct(lat, 50), pct(lat, 99), len(lat))
	fmt.Printf("BenchmarkNetProcMigration 1 %.2f ms-p50 %.2f ms-p99 %d kills\n", pct(mig, 50), pct(mig, 99), kills)
}

func pct(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

var loopback = []string{"--listen", "/ip4/127.0.0.1/tcp/0", "--listen", "/ip4/127.0.0.1/udp/0/quic-v1"}

// run plays one game with two host kills; it returns latency and
// migration samples in milliseconds.
func run(bin string, r int) (lat, mig []float64, err error) {
	dir, err := os.MkdirTemp("", "hostfall-netbench-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	env := func(name string) []string {
		return []string{"HOSTFALL_DATA=" + filepath.Join(dir, "data"), "HOSTFALL_IDENTITY=" + filepath.Join(dir, name+".key"), "HOSTFALL_TRACE=1"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	host, err := peerproc.Start("host", append([]string{bin, "host", "--headless", "--name", "bench", "--players", "4",
		"--turns", "300", "--size", "64", "--seed", fmt.Sprint(r + 1), "--status-json"}, loopback...), env("host")...)
	if err != nil {
		return nil, nil, err
	}
	procs := []*peerproc.Proc{host}
	defer func() {
		for _, p := range procs {
			p.Kill()
		}
	}()
	l, err := host.WaitEv(ctx, "listening")
	if err != nil {
		return nil, nil, err
	}
	addr := ""
	for _, a := range l["addrs"].([]any) {
		if s := a.(string); strings.Contains(s, "/tcp/") {
			addr = s
		}
	}
	for _, name := range []string{"j1", "j2", "j3"} {
		j, err := peerproc.Start(name, append([]string{bin, "join", "--headless", "--addr", addr, "--status-json"}, loopback...), env(name)...)
		if err != nil {
			return nil, nil, err
		}
		procs = append(procs, j)
	}
	ids := map[*peerproc.Proc]string{}
	for _, p := range procs {
		l, err := p.WaitEv(ctx, "listening")
		if err != nil {
			return nil, nil, err
		}
		ids[p] = l.Str("peer")
	}
	// Kill the host at turn 100, then the next host (whichever joined
	// first) at turn 200.
	alive := slices.Clone(procs)
	victim := host
	for _, at := range []int64{100, 200} {
		alive = slices.DeleteFunc(alive, func(p *peerproc.Proc) bool { return p == victim })
		if _, err := alive[0].Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "turn" && l.Int("turn") >= at }); err != nil {
			return nil, nil, err
		}
		killed := time.Now().UnixMilli()
		victim.Kill()
		next := ""
		for _, s := range alive {
			hc, err := s.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "host_changed" && l.Str("old") == ids[victim] })
			if err != nil {
				return nil, nil, err
			}
			mig = append(mig, float64(hc.Int("unix_ms")-killed))
			next = hc.Str("new")
		}
		for _, p := range alive {
			if ids[p] == next {
				victim = p
			}
		}
	}
	alive = slices.DeleteFunc(alive, func(p *peerproc.Proc) bool { return p == victim })
	for _, p := range alive {
		if err := p.Exit(time.Minute); err != nil {
			return nil, nil, err
		}
	}
	return latencies(procs), mig, nil
}

type cmdKey struct{ slot, seq int64 }

// latencies matches every own-slot proposal with the apply times on all
// processes and takes the latest.
func latencies(procs []*peerproc.Proc) []float64 {
	proposed := map[cmdKey]int64{}
	last := map[cmdKey]int64{}
	applied := map[cmdKey]int{}
	for _, p := range procs {
		for _, l := range p.Lines() {
			k := cmdKey{l.Int("slot"), l.Int("seq")}
			switch l.Ev() {
			case "cmd_proposed":
				proposed[k] = l.Int("us")
			case "cmd_applied":
				last[k] = max(last[k], l.Int("us"))
				applied[k]++
			}
		}
	}
	var out []float64
	for k, at := range proposed {
		if applied[k] >= 2 { // the two survivors at least
			out = append(out, float64(last[k]-at)/1000)
		}
	}
	return out
}
