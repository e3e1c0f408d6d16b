package network

import (
	"slices"
	"sync"
	"testing"
	"time"

	"hostfall/game"
	"hostfall/internal/peerproc"
	"hostfall/internal/testwait"
	"hostfall/session"
)

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkNetCommandLatency: 4 peers on loopback (real libp2p hosts, one
// loop each, bots playing); a follower proposes a command every 100 ms, and
// the time until the last peer has executed it is one sample.
func BenchmarkNetCommandLatency(b *testing.B) {
	const players, samples = 4, 100
	var mu sync.Mutex
	applied := map[string][]time.Time{} // command bytes → when each peer applied it
	for b.Loop() {
		clear(applied)
		peers := newGame(b, gameOpts{players: players, size: 96, tweak: func(i int, o *PeerOptions) {
			o.OnTurn = func(t session.Turn, at time.Time) {
				for _, c := range t.Commands {
					if c.Slot == 1 && len(c.Data) > 0 && c.Data[1] == byte(game.CmdMove) {
						mu.Lock()
						applied[string(c.Data)] = append(applied[string(c.Data)], at)
						mu.Unlock()
					}
				}
			}
		}})
		proposed := map[string]time.Time{}
		for i := range samples {
			c := game.Command{Kind: game.CmdMove, X: int32(i % 90), Y: int32(i / 90)}
			data, _ := c.AppendBinary(nil)
			proposed[string(data)] = time.Now()
			if err := peers[1].Propose(c); err != nil {
				b.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond)
		}
		time.Sleep(500 * time.Millisecond)
		var lat []time.Duration
		mu.Lock()
		for data, at := range proposed {
			times := applied[data]
			if len(times) < players {
				continue // a bot happened to send the same bytes, or not everywhere yet
			}
			lat = append(lat, slices.MaxFunc(times, func(a, b time.Time) int { return a.Compare(b) }).Sub(at))
		}
		mu.Unlock()
		if len(lat) < samples*9/10 {
			b.Fatalf("only %d of %d commands were executed on every peer", len(lat), samples)
		}
		b.ReportMetric(ms(peerproc.Percentile(lat, 50)), "ms-p50")
		b.ReportMetric(ms(peerproc.Percentile(lat, 99)), "ms-p99")
		for _, p := range peers {
			p.stop()
		}
	}
}

// BenchmarkNetMigration: 8 peers on loopback; the host's libp2p host closes
// every 40 turns until two players are left, twice over (12 kills). Each
// sample is the time from the close to the first turn of the new host on
// one survivor.
func BenchmarkNetMigration(b *testing.B) {
	const players, games = 8, 2
	for b.Loop() {
		var samples []time.Duration
		kills := 0
		for range games {
			peers := newGame(b, gameOpts{players: players, size: 96})
			alive := slices.Clone(peers)
			for len(alive) > 2 {
				host := alive[0]
				target := host.Status().Turn + 40
				testwait.For(b, "40 more turns", 30*time.Second, func() bool { return host.Status().Turn >= target })
				before := make([]int, len(alive))
				for i, p := range alive[1:] {
					before[i] = len(p.all(EvHostChanged))
				}
				killed := time.Now()
				host.host.Close()
				kills++
				alive = alive[1:]
				testwait.For(b, "the new host's first turn everywhere", 10*time.Second, func() bool {
					for i, p := range alive {
						if len(p.all(EvHostChanged)) <= before[i] {
							return false
						}
					}
					return true
				})
				for i, p := range alive {
					e := p.all(EvHostChanged)[before[i]]
					samples = append(samples, e.At.Sub(killed))
				}
			}
			for _, p := range peers {
				p.cancel()
			}
		}
		b.ReportMetric(float64(kills), "kills")
		b.ReportMetric(ms(peerproc.Percentile(samples, 50)), "ms-p50")
		b.ReportMetric(ms(peerproc.Percentile(samples, 99)), "ms-p99")
	}
}

// BenchmarkNetIdleBytes: 4 peers in a game where nobody gives orders; the
// bytes each peer sends and receives per second, averaged over all peers
// (session heartbeats and turns, pings, libp2p framing and encryption
// excluded: these are the session stream's frame bytes).
func BenchmarkNetIdleBytes(b *testing.B) {
	const players = 4
	for b.Loop() {
		peers := newGame(b, gameOpts{players: players, tweak: func(i int, o *PeerOptions) { o.Match.SelfBot = false }})
		time.Sleep(1500 * time.Millisecond) // past the start; rates are per second
		start := make([][2]uint64, players)
		for i, p := range peers {
			start[i] = p.frameBytes()
		}
		const span = 5 * time.Second
		time.Sleep(span)
		var total float64
		for i, p := range peers {
			now := p.frameBytes()
			total += float64(now[0]-start[i][0]+now[1]-start[i][1]) / span.Seconds()
		}
		b.ReportMetric(total/players, "B/s/peer")
		for _, p := range peers {
			p.stop()
		}
	}
}

// frameBytes is what the peer's links received and sent so far.
func (tp *tpeer) frameBytes() [2]uint64 {
	var in, out uint64
	for _, l := range tp.t.Links() {
		in += l.Recv
		out += l.Sent
	}
	return [2]uint64{in, out}
}
