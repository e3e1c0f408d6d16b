package session_test

import (
	"encoding/binary"
	"runtime"
	"runtime/metrics"
	"testing"

	"hostfall/session"
	"hostfall/session/simnet"
)

// A member that names a generation far ahead (just under the 2^16 refused
// outright) in every message walks the others' generation, which their
// next claim builds on and which is written to disk, only a little per
// message, and the game goes on with its host.
func TestMemberMovesGenerationsLittle(t *testing.T) {
	const msgs, step = 50, 64
	n := gameOf(t, 5, 3, simConfig())
	n.Run(20)
	gen := n.Peers[0].Status.Generation
	epoch := n.Peers[0].Status.Epoch
	two := inSlot(t, n, 2)
	for range msgs {
		for _, p := range n.Peers {
			if p.ID != two.ID {
				cur := p.Status.Generation
				n.Inject(two.ID, p.ID, session.Message{Kind: session.MsgPing, Epoch: epochOf(cur+1<<16-1, 2), Count: 1, Slot: 2})
			}
		}
		n.Run(2)
	}
	n.Run(20)
	for _, p := range n.Peers {
		if p.ID == two.ID {
			continue
		}
		t.Logf("%s: generation %d → %d after %d messages", p.ID, gen, p.Status.Generation, msgs)
		if p.Status.Generation > gen+msgs*step {
			t.Errorf("%s: generation %d after %d messages from slot 2, more than %d past %d", p.ID, p.Status.Generation, msgs, msgs*step, gen)
		}
		if p.Status.Epoch != epoch {
			t.Errorf("%s: epoch %d, want the host's %d", p.ID, p.Status.Epoch, epoch)
		}
	}
	noViolations(t, n)
}

// encodedSize is m's size on the wire.
func encodedSize(t *testing.T, m session.Message) int {
	t.Helper()
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

// A member whose acks ask for the turns after turn 1, then after turn 2,
// and so on alternately (each a new gap to a host that answers one
// catch-up per gap) late in a game gets answers of at most one catch-up's
// room plus answerRatio (4) times the bytes it sent: not one catch-up per
// ack. The others play on.
func TestAcksCannotAmplifyCatchUps(t *testing.T) {
	const (
		ratio = 4
		room  = 4 << 20
		acks  = 1500
	)
	n := gameOf(t, 9, 3, simConfig())
	for i := range 2000 {
		if i%5 == 0 {
			proposeAll(n)
		}
		n.Tick()
	}
	host, bad := n.Peers[0], inSlot(t, n, 2)
	start := host.Last()
	sent, recv := 0, 0
	n.OnReady = func(p *simnet.Peer, rd session.Ready) {
		for _, m := range rd.Messages {
			switch {
			case p == host && m.To == bad.ID && m.Kind == session.MsgTurns && len(m.Turns) > 0 && m.Turns[0].Number < start:
				sent += encodedSize(t, m)
			case p == bad && m.To == host.ID:
				recv += encodedSize(t, m)
			}
		}
	}
	for i := range acks {
		m := session.Message{Kind: session.MsgAck, Epoch: host.Status.Epoch, Have: uint64(1 + i%2), Need: true}
		recv += encodedSize(t, m)
		n.Inject(bad.ID, host.ID, m)
		if i%5 == 0 {
			proposeAll(n)
		}
		n.Tick()
	}
	t.Logf("turn %d → %d: the member sent %d bytes (%d forged acks), the host answered %d bytes of catch-ups (%.1f×)",
		start, host.Last(), recv, acks, sent, float64(sent)/float64(recv))
	if sent > room+ratio*recv {
		t.Errorf("the host answered %d bytes to a member that sent %d: more than %d + %d×", sent, recv, room, ratio)
	}
}

// lagAndCatchUp plays a 3-player game for ticks ticks; with lag, slot 2's
// client says it is just over MaxLagTurns behind (its acks ask for the
// turns after that) for 280 ticks, nearly DropTicks, then lets its honest
// acks catch up for 100, again and again. It returns the turns played.
func lagAndCatchUp(t *testing.T, ticks int, lag bool) uint64 {
	n := gameOf(t, 13, 3, simConfig())
	n.Run(200)
	host, bad := n.Peers[0], inSlot(t, n, 2)
	start := host.Last()
	for i := range ticks {
		if lag && i%380 < 280 && host.Last() > 11 {
			n.Inject(bad.ID, host.ID, session.Message{Kind: session.MsgAck, Epoch: host.Status.Epoch, Have: host.Last() - 11, Need: true})
		}
		if i%5 == 0 {
			proposeAll(n)
		}
		n.Tick()
	}
	return host.Last() - start
}

// A player that lags just long enough to be waited for, catches up before
// it would be marked away, and does it again, costs the others at most
// its share of waiting: they keep at least 90 % of their pace over two
// minutes.
func TestLagAndCatchUpCostsLittleWaiting(t *testing.T) {
	const ticks = 12000
	normal := lagAndCatchUp(t, ticks, false)
	lagged := lagAndCatchUp(t, ticks, true)
	t.Logf("turns in %d ticks: %d without the pattern, %d with it (%.0f %%)", ticks, normal, lagged, 100*float64(lagged)/float64(normal))
	if lagged*10 < normal*9 {
		t.Errorf("the game played %d turns with a member lagging and catching up, %d without: under 90 %%", lagged, normal)
	}
}

// A member whose client proposes one 64 KiB command a turn (inside the
// per-turn budget of its slot) is over its minute's budget of command
// bytes within seconds: warned, then removed as for other offences, so the
// history and the replay grow no further by it.
func TestBulkMemberIsRemoved(t *testing.T) {
	n := gameOf(t, 17, 3, simConfig())
	bad := inSlot(t, n, 2)
	bulk := make([]byte, 64<<10)
	for i := range 3000 {
		if i%5 == 0 {
			proposeAll(n)
			if bad.Live() && bad.Status.Slot == 2 && bad.Status.State == session.StatePlaying {
				binary.BigEndian.PutUint32(bulk, uint32(i))
				_ = n.Propose(bad, 2, bulk)
			}
		}
		n.Tick()
	}
	host := hostOf(n)
	if departed(host, 2) != session.DepartMisbehaved {
		t.Errorf("the member sending 64 KiB a turn was not removed for it (departure %v)", departed(host, 2))
	}
}

// The history a peer holds stays within Config.KeepBytes (here 4 MiB)
// when turns are large: the host's own slot, which no budget limits,
// sends 64 KiB a turn for 400 turns (25 MiB).
func TestHistoryBoundedInBytes(t *testing.T) {
	const keep = 4 << 20
	cfg := simConfig()
	cfg.KeepBytes = keep
	n := gameOf(t, 17, 3, cfg)
	host := n.Peers[0]
	bulk := make([]byte, 64<<10)
	most := 0
	for i := range 2000 {
		if i%5 == 0 {
			proposeAll(n)
			binary.BigEndian.PutUint32(bulk, uint32(i)) // the checker tells commands by their bytes
			_ = n.Propose(host, host.Status.Slot, bulk)
		}
		n.Tick()
		for _, p := range n.Peers {
			most = max(most, p.Node.HistoryBytes())
		}
	}
	t.Logf("largest history held: %.1f MiB (bound %d MiB) over %d turns", float64(most)/(1<<20), keep>>20, host.Last())
	if most > keep+(64<<10)+(1<<10) {
		t.Errorf("a peer held %d bytes of history, more than the %d kept", most, keep)
	}
	noViolations(t, n)
}

// BenchmarkBulkMemberHeap: a 3-player simnet game of 10 minutes (60,000
// ticks) in which one member sends the most command bytes its budget
// allows (16 KiB every second, just under 1 MiB a minute) and the others
// play. Figures: the live heap of the process above what it was before
// (three nodes, their toy games and simnet's record of every applied turn,
// which a real peer does not keep), and the largest history a node held.
func BenchmarkBulkMemberHeap(b *testing.B) {
	var heap, hist float64
	for b.Loop() {
		n := gameOf(b, 23, 3, simConfig())
		bad := n.Peers[2]
		base := liveHeap()
		bulk := make([]byte, 16<<10)
		most := 0
		for i := range 60000 {
			if i%5 == 0 {
				proposeAll(n)
			}
			if i%100 == 0 && bad.Live() && bad.Status.Slot >= 0 && bad.Status.State == session.StatePlaying {
				binary.BigEndian.PutUint32(bulk, uint32(i))
				_ = n.Propose(bad, bad.Status.Slot, bulk)
			}
			n.Tick()
			if i%1000 == 0 {
				for _, p := range n.Peers {
					most = max(most, p.Node.HistoryBytes())
				}
			}
		}
		if departed(hostOf(n), bad.Status.Slot) != 255 {
			b.Fatalf("the member within its budget left (%v)", departed(hostOf(n), bad.Status.Slot))
		}
		live := liveHeap()
		runtime.KeepAlive(n) // measured with the nodes alive
		heap = max(heap, float64(live-min(live, base))/1e6)
		hist = max(hist, float64(most)/1e6)
	}
	b.ReportMetric(heap, "heap-MB")
	b.ReportMetric(hist, "history-MB")
}

// liveHeap is the heap the last GC found live, after a fresh GC.
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
