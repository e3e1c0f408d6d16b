package session_test

import (
	"encoding/binary"
	"runtime"
	"runtime/metrics"
	"slices"
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
// catch-up per gap) late in a game, for a minute and a half, gets answers
// of at most one catch-up's room plus answerRatio (4) times the bytes it
// sent: not one catch-up per ack. The others play on.
func TestAcksCannotAmplifyCatchUps(t *testing.T) {
	const acks = 9000
	n := gameOf(t, 9, 3, simConfig())
	for i := range 2000 {
		if i%5 == 0 {
			proposeAll(n)
		}
		n.Tick()
	}
	host, bad := n.Peers[0], inSlot(t, n, 2)
	start := host.Last()
	c := newAnswerCount(n)
	n.OnReady = func(p *simnet.Peer, rd session.Ready) {
		for _, m := range rd.Messages {
			switch {
			case p == host && m.To == bad.ID && m.Kind == session.MsgTurns && len(m.Turns) > 0 && m.Turns[0].Number < start:
				c.answered(wireSize(t, m))
			case p == bad && m.To == host.ID:
				c.heard(wireSize(t, m))
			}
		}
	}
	for i := range acks {
		m := session.Message{Kind: session.MsgAck, Epoch: host.Status.Epoch, Have: uint64(1 + i%2), Need: true}
		c.heard(wireSize(t, m))
		n.Inject(bad.ID, host.ID, m)
		if i%5 == 0 {
			proposeAll(n)
		}
		n.Tick()
	}
	t.Logf("turn %d → %d with %d forged acks", start, host.Last(), acks)
	c.check(t, "forged acks")
}

// lagAndCatchUp plays a 3-player game of seed for ticks ticks; with lag >
// 0, slot 2's client says it is just over MaxLagTurns behind (its acks ask
// for the turns after that) for lag ticks, then lets its honest acks catch
// up for keep, again and again. It returns the turns played.
func lagAndCatchUp(t *testing.T, seed uint64, ticks, lag, keep int) uint64 {
	n := gameOf(t, seed, 3, simConfig())
	n.Run(200)
	host, bad := n.Peers[0], inSlot(t, n, 2)
	start := host.Last()
	for i := range ticks {
		if lag > 0 && i%(lag+keep) < lag && host.Last() > 11 {
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
	normal := lagAndCatchUp(t, 13, ticks, 0, 0)
	lagged := lagAndCatchUp(t, 13, ticks, 280, 100)
	t.Logf("turns in %d ticks: %d without the pattern, %d with it (%.0f %%)", ticks, normal, lagged, 100*float64(lagged)/float64(normal))
	if lagged*10 < normal*9 {
		t.Errorf("the game played %d turns with a member lagging and catching up, %d without: under 90 %%", lagged, normal)
	}
}

// The same attack, timed as well as the attacker can: it searches the
// lengths of its lags (short ones, near the wait's start; long ones, to the
// edge of DropTicks) and of its catch-ups (from a few ticks to several
// seconds, around the refill of the wait budget), and the others must keep
// at least 90 % of their pace under the best of them, over two minutes.
func TestBestTimedLaggerCostsLittleWaiting(t *testing.T) {
	const ticks, seed = 12000, 29
	normal := lagAndCatchUp(t, seed, ticks, 0, 0)
	worst, at := normal, [2]int{}
	for _, lag := range []int{60, 290} {
		for _, keep := range []int{80, 300, 1200} {
			got := lagAndCatchUp(t, seed, ticks, lag, keep)
			t.Logf("seed %d: lags of %d ticks, catch-ups of %d: %d turns (%.1f %%)", seed, lag, keep, got, 100*float64(got)/float64(normal))
			if got < worst {
				worst, at = got, [2]int{lag, keep}
			}
		}
	}
	t.Logf("seed %d: worst timing lags %d, catch-ups %d: %d of %d turns (%.1f %%)", seed, at[0], at[1], worst, normal, 100*float64(worst)/float64(normal))
	if worst*10 < normal*9 {
		t.Errorf("the best-timed lagger (lags %d, catch-ups %d ticks) left the others %d of %d turns: under 90 %%", at[0], at[1], worst, normal)
	}
}

// An honest player on a flaky link is not held to the attacker's budget
// for a stall: a 1 s stall, then within the same minute one of nearly
// DropTicks (2.8 s), and it is waited for both times, never marked away.
func TestFlakyLinkStallIsWaitedFor(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		n := gameOf(t, seed, 3, simConfig())
		flaky := inSlot(t, n, 2)
		for _, stall := range []int{100, 280} {
			for range 200 {
				proposeAll(n)
				n.Run(5)
			}
			n.Pause(flaky.ID, stall)
			n.Run(stall + 200)
		}
		if ab := awayBack(n.Peers[0], 2); len(ab) > 0 {
			t.Errorf("seed %d: the flaky player was marked away or back at turns %v", seed, ab)
		}
		waited := slices.ContainsFunc(n.Peers[1].Events, func(e session.Event) bool { return e.Kind == session.EvWaiting && e.Slot == 2 })
		if !waited {
			t.Errorf("seed %d: the others never waited for the stalled player: the case is not tested", seed)
		}
		n.Run(1000)
		noViolations(t, n)
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

// wireSize is m's size in a transport frame: its encoding, the frame's
// length (a uvarint) and its type byte (p2p/frame.go).
func wireSize(t *testing.T, m session.Message) int {
	n := encodedSize(t, m)
	return n + len(binary.AppendUvarint(nil, uint64(n)+1)) + 1
}

// answerCount holds the bytes of the answers a host sent a member and of
// everything the member sent it, as frames on the wire, by tick of the
// simnet's clock.
type answerCount struct {
	n          *simnet.Net
	sent, recv map[int]int
	first      int // the tick of the first answer (0: none yet)
}

func newAnswerCount(n *simnet.Net) *answerCount {
	return &answerCount{n: n, sent: map[int]int{}, recv: map[int]int{}}
}

// answered counts an answer of b bytes sent now.
func (c *answerCount) answered(b int) {
	if c.first == 0 {
		c.first = c.n.Now
	}
	c.sent[c.n.Now] += b
}

// heard counts b bytes the member sent now.
func (c *answerCount) heard(b int) { c.recv[c.n.Now] += b }

// countAnswers counts, in n's traffic from now on, the answers of kinds
// the host sends the member and what the member sends the host (forged
// messages are added by the caller).
func countAnswers(t *testing.T, n *simnet.Net, host, bad *simnet.Peer, kinds ...session.MsgKind) *answerCount {
	c := newAnswerCount(n)
	n.OnReady = func(p *simnet.Peer, rd session.Ready) {
		for _, m := range rd.Messages {
			switch {
			case p == host && m.To == bad.ID && slices.Contains(kinds, m.Kind):
				c.answered(wireSize(t, m))
			case p == bad && m.To == host.ID:
				c.heard(wireSize(t, m))
			}
		}
	}
	return c
}

// answerWindow is a minute of the simnet's clock (10 ms ticks).
const answerWindow = 6000

// check fails unless the host answered at most one catch-up's room plus
// 4× what the member sent over the whole run. It logs the worst minute
// (window of answerWindow ticks) after the first answer: the budget's room
// and the credit a member saved may go in one minute, so a minute's ratio
// is not bounded by 4 (see the budget model in docs/ARCHITECTURE.md).
func (c *answerCount) check(t *testing.T, what string) {
	t.Helper()
	const room, ratio = 4 << 20, 4
	if c.first == 0 {
		t.Fatalf("%s: the host answered nothing", what)
	}
	sent, recv := 0, 0
	for _, b := range c.sent {
		sent += b
	}
	for _, b := range c.recv {
		recv += b
	}
	ws, wr, at := c.worstMinute()
	t.Logf("%s: the member sent %d bytes, the host answered %d (%.1f×); worst minute after the first answer (tick %d) starts at tick %d: %d bytes answered for %d sent (%.2f×)",
		what, recv, sent, float64(sent)/float64(max(recv, 1)), c.first, at, ws, wr, float64(ws)/float64(max(wr, 1)))
	if sent > room+ratio*recv {
		t.Errorf("%s: the host answered %d bytes to a member that sent %d: more than %d + %d×", what, sent, recv, room, ratio)
	}
}

// worstMinute finds the window of answerWindow ticks after the first
// answer (the whole stretch after it if shorter) with the highest ratio of
// bytes answered to bytes sent, and returns both and its first tick.
func (c *answerCount) worstMinute() (sent, recv, at int) {
	from, end := c.first+1, c.n.Now
	span := max(end-from+1, 1)
	prefix := func(m map[int]int) []int {
		sum := make([]int, span+1)
		for i := range span {
			sum[i+1] = sum[i] + m[from+i]
		}
		return sum
	}
	ps, pr := prefix(c.sent), prefix(c.recv)
	w, worst := min(answerWindow, span), -1.0
	for a := 0; a+w <= span; a++ {
		s, r := ps[a+w]-ps[a], pr[a+w]-pr[a]
		if q := float64(s) / float64(max(r, 1)); q > worst {
			worst, sent, recv, at = q, s, r, from+a
		}
	}
	return sent, recv, at
}

// A member that says Hello again and again during play is welcomed back
// each time, with a snapshot (here 256 KiB): the snapshots come out of
// its answer budget, and a new Hello does not refill it.
func TestRejoinsCannotAmplifySnapshots(t *testing.T) {
	n := gameOf(t, 31, 3, simConfig())
	n.SnapshotPad = 256 << 10
	n.Run(100)
	host, bad := n.Peers[0], inSlot(t, n, 2)
	c := countAnswers(t, n, host, bad, session.MsgSnapshot, session.MsgWelcome)
	for i := range 9000 {
		if i%10 == 0 {
			m := session.Message{Kind: session.MsgHello, Hello: &session.Hello{Protocol: session.ProtocolVersion, GameVersion: "0.1.0", Name: "p2"}}
			c.heard(wireSize(t, m))
			n.Inject(bad.ID, host.ID, m)
		}
		if i%5 == 0 {
			proposeAll(n)
		}
		n.Tick()
	}
	c.check(t, "900 Hellos in play")
}

// After a migration, a member that follows the new host's claim saying it
// holds nothing (Turn 0) gets the history as a catch-up, which comes out of
// its answer budget: with the forged acks that follow (asking for the turns
// after turn 1, then 2, …) the new host answers it at most one catch-up's
// room plus 4× what it sent.
func TestMigrationCatchUpIsCharged(t *testing.T) {
	const acks = 9000
	n := gameOf(t, 37, 4, simConfig())
	host, bad := n.Peers[0], inSlot(t, n, 3)
	bulk := make([]byte, 64<<10)
	for i := range 600 { // 120 turns of 64 KiB from the host's own slot (which no budget limits)
		if i%5 == 0 {
			binary.BigEndian.PutUint32(bulk, uint32(i))
			_ = n.Propose(host, host.Status.Slot, bulk)
			proposeAll(n)
		}
		n.Tick()
	}
	start := host.Last()
	n.Lose = func(from session.PeerID, m session.Message) bool {
		if from == bad.ID && m.Kind == session.MsgFollow {
			n.Inject(bad.ID, m.To, session.Message{Kind: session.MsgFollow, Epoch: m.Epoch, Lobby: m.Lobby})
			return true
		}
		return false
	}
	c := newAnswerCount(n)
	n.OnReady = func(p *simnet.Peer, rd session.Ready) {
		for _, m := range rd.Messages {
			switch {
			case p != bad && p.Status.IsHost && m.To == bad.ID && m.Kind == session.MsgTurns && len(m.Turns) > 0 && m.Turns[0].Number < start:
				c.answered(wireSize(t, m))
			case p == bad && p.Status.Host == m.To:
				c.heard(wireSize(t, m))
			}
		}
	}
	n.Crash(host.ID)
	if _, ok := runUntil(n, 1000, func() bool { h := hostOf(n); return h != nil && h != host && bad.Status.Host == h.ID }); !ok {
		t.Fatalf("no new host that the member follows: %+v", bad.Status)
	}
	n.Lose = nil
	h2 := hostOf(n)
	t.Logf("after the migration: %d bytes answered", c.sent[c.first])
	for i := range acks {
		m := session.Message{Kind: session.MsgAck, Epoch: h2.Status.Epoch, Have: uint64(1 + i%2), Need: true}
		c.heard(wireSize(t, m))
		n.Inject(bad.ID, h2.ID, m)
		n.Tick()
	}
	c.check(t, "a Follow of turn 0, then 9,000 forged acks")
}
