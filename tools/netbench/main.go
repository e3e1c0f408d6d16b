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
	fmt.Printf("BenchmarkNetProcLatency 1 %.2f ms-p50 %.2f ms-p99 %d cmds\n", peerproc.Percentile(lat, 50), peerproc.Percentile(lat, 99), len(lat))
	fmt.Printf("BenchmarkNetProcMigration 1 %.2f ms-p50 %.2f ms-p99 %d kills\n", peerproc.Percentile(mig, 50), peerproc.Percentile(mig, 99), kills)
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
	// Kill the host at turn 100, then the next host at turn 200.
	alive, mig, err := peerproc.KillHosts(ctx, procs, ids, host, 100, 200)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range alive {
		if err := p.Exit(time.Minute); err != nil {
			return nil, nil, err
		}
	}
	return peerproc.CommandLatencies(procs, 2), mig, nil // the two survivors at least
}
