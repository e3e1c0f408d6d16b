package network

import (
	"testing"
	"time"

	"hostfall/internal/testwait"
)

// BenchmarkStatusAmongStrangers: the loop's CPU for the status it
// publishes on each pass with Readys, on the host of a 2-player game that
// 64 strangers hold session streams to (their links are listed too). Each
// op is 100 passes in a row on the loop's thread, timed by its CPU clock,
// as a loop with Readys on every tick makes them in one second.
func BenchmarkStatusAmongStrangers(b *testing.B) {
	peers := newGame(b, gameOpts{players: 2, tweak: func(i int, o *PeerOptions) {
		if i == 0 {
			o.Limits.StrangersPerIP = 64 // the strangers all come from 127.0.0.1
		}
	}})
	host := peers[0]
	holdStrangers(b, host.host, 64)
	testwait.For(b, "the strangers' links", 20*time.Second, func() bool { return len(host.t.Links()) >= 48 })
	links := len(host.t.Links())
	const passes = 100
	var cpu time.Duration
	for b.Loop() {
		time.Sleep(time.Second) // each op starts a second of the loop's
		_ = host.call(func() error {
			start, _ := threadCPU()
			for range passes {
				host.publishStatus()
			}
			end, _ := threadCPU()
			cpu += end - start
			return nil
		})
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*passes), "cpu-ns/pass")
	b.ReportMetric(float64(links), "links")
}
