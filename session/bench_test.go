package session_test

import (
	"fmt"
	"testing"

	"hostfall/session"
	"hostfall/session/simnet"
)

// gameOfN is gameOf for up to 16 players.
func gameOfN(tb testing.TB, seed uint64, players int, cfg session.Config) *simnet.Net {
	tb.Helper()
	n := simnet.New(seed, cfg)
	host := n.Add(pid(0), "p0")
	if err := host.Node.Host(session.Settings{Name: "bench", MaxPlayers: uint32(players)}); err != nil {
		tb.Fatal(err)
	}
	for i := 1; i < players; i++ {
		_ = n.Add(pid(i), fmt.Sprintf("p%d", i)).Node.Join(pid(0))
	}
	n.Run(10)
	for _, p := range n.Peers[1:] {
		_ = p.Node.EditSlot(session.SlotEdit{Ready: true})
	}
	n.Run(5)
	if err := host.Node.Start(); err != nil {
		tb.Fatal(err)
	}
	if _, ok := runUntil(n, 1000, func() bool { return allPlaying(n) }); !ok {
		tb.Fatal("game did not start")
	}
	return n
}

// BenchmarkSessionTurn16 measures the CPU one turn costs with 16 players, each
// proposing a command every turn: the whole simulated network (16 nodes, every
// message encoded and decoded) and the share of one node.
func BenchmarkSessionTurn16(b *testing.B) {
	n := gameOfN(b, 1, 16, simConfig())
	n.Run(50)
	turns := 0
	for b.Loop() {
		proposeAll(n)
		n.Run(5)
		turns++
	}
	perTurn := float64(b.Elapsed().Nanoseconds()) / float64(turns)
	b.ReportMetric(perTurn/1e3, "µs/turn-all16")
	b.ReportMetric(perTurn/16/1e3, "µs/turn/node")
	if len(n.Checker.Violations) > 0 {
		b.Fatal(n.Checker.Violations)
	}
}

// BenchmarkSessionIdleBytes measures the bytes a peer sends and receives per
// second in an idle game at the default 50 ms turn and 10 ms tick, counting
// the encoded messages plus their varint length prefix.
func BenchmarkSessionIdleBytes(b *testing.B) {
	for _, players := range []int{2, 8} {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			var perPeer float64
			for b.Loop() {
				n := gameOfN(b, 2, players, session.Config{GameVersion: "0.1.0"})
				n.Run(200)
				clear(n.Bytes)
				const ticks = 3000 // 30 s
				n.Run(ticks)
				host := float64(n.Bytes[pid(0)]) / float64(players-1)
				var worst float64
				for _, p := range n.Peers[1:] {
					worst = max(worst, host+float64(n.Bytes[p.ID]))
				}
				perPeer = worst / (ticks * session.DefaultTickMillis / 1000.0)
			}
			b.ReportMetric(perPeer, "B/s/peer")
		})
	}
}

// BenchmarkSessionMigration measures host-kill → first turn of the new epoch
// in ticks, with the loss reported by the transport and with a silent hang.
func BenchmarkSessionMigration(b *testing.B) {
	for _, silent := range []bool{false, true} {
		name := "reported"
		if silent {
			name = "silent"
		}
		b.Run(name, func(b *testing.B) {
			worst, sum, k := 0, 0, 0
			seed := uint64(100)
			for b.Loop() {
				seed++
				n := gameOfN(b, seed, 8, session.Config{GameVersion: "0.1.0"})
				n.Run(20 + int(seed%7))
				if silent {
					n.Hang(pid(0))
				} else {
					n.Crash(pid(0))
				}
				ticks, ok := runUntil(n, 500, newTurnAfter(n, 16))
				if !ok {
					b.Fatal("no new host")
				}
				worst = max(worst, ticks)
				sum += ticks
				k++
			}
			b.ReportMetric(float64(worst), "ticks-worst")
			b.ReportMetric(float64(sum)/float64(k), "ticks-mean")
		})
	}
}
