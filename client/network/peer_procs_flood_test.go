package network

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"hostfall/internal/peerproc"
	"hostfall/p2p/transport"
)

// benchProcs: the process tests also print their figures as benchmark
// lines (scripts/bench.d/budgets.sh sets it).
var benchProcs = os.Getenv("HOSTFALL_PROC_BENCH") != ""

// TestStrangerFloodFromOtherProcesses: 100 fresh identities in this test's
// process send valid session frames of the largest size a stranger may
// send, as fast as the host reads them, for 6 s, to the host of a running
// 3-player game whose host and joiners are hostfall processes. Each
// stranger connects again as soon as the host closes or refuses it. Nobody
// is gone, nobody is waited for and the host stays unless the machine
// starved a host that did little (checkFloodMovedNobody), and the game
// ends at its limit with one hash. The host's longest loop stall (its end line's
// stall_ms) is a figure; the bound of 50 ms is make bench's
// (TestBenchStrangerFlood). Before the handshake budget (p2p/transport
// accept.go) the ~110 connections a second starved the host at load 20 and
// its followers claimed.
func TestStrangerFloodFromOtherProcesses(t *testing.T) {
	strangerFloodProcs(t, 100, 6*time.Second, false)
}

// TestBenchStrangerFlood is the measurement of make bench
// (scripts/bench.d/budgets.sh): 16, then 100, identities flood for 20 s,
// after 20 s of the same game unflooded (what the machine's load alone
// costs), and the host's stall is printed as a benchmark line.
func TestBenchStrangerFlood(t *testing.T) {
	if !benchProcs {
		t.Skip("opt-in: make bench's longer flood (2 × 40 s of game): set HOSTFALL_PROC_BENCH=1 (scripts/bench.d/budgets.sh)")
	}
	for _, ids := range []int{16, 100} {
		t.Run(fmt.Sprintf("ids=%d", ids), func(t *testing.T) { strangerFloodProcs(t, ids, 20*time.Second, true) })
	}
}

// turnEvery is a game's turn period when nothing waits.
const turnEvery = 50 * time.Millisecond

// strangerFloodProcs floods a 3-process game with ids identities for
// lasting; with quiet, the game first runs as long unflooded.
func strangerFloodProcs(t *testing.T, ids int, lasting time.Duration, quiet bool) {
	var unflooded time.Duration
	if quiet {
		unflooded = lasting
	}
	const from, after = 20, 20 // turns before the flood, and at least after it
	turns := from + int64((unflooded+lasting)/turnEvery) + after
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	lab := startProcGame(t, ctx, 3, 2, uint64(turns))
	lab.waitTurn(t, ctx, from)
	calm := time.Now()
	time.Sleep(unflooded) // the same game unflooded: what this machine's load alone costs
	rssBefore, _ := rss(lab.host.Cmd.Process.Pid)
	frame := knockFrame(t)
	var sent, conns atomic.Int64
	var wg sync.WaitGroup
	hostCPU0, hostWait0 := schedStat(lab.host.Cmd.Process.Pid)
	selfCPU0, selfWait0 := schedStat(os.Getpid())
	start, load0 := time.Now(), loadAvg()
	until := start.Add(lasting)
	for range ids {
		h := newTestHost(t)
		wg.Go(func() {
			for time.Now().Before(until) {
				conns.Add(1)
				n, in := knock(h, lab, frame, until)
				sent.Add(n)
				// Closed: again, as an attacker would. Refused: again a
				// little later, still 25 times the address's budget, so
				// the attackers' own dials (in this process, on the same
				// cores) do not starve the players.
				if in {
					time.Sleep(50 * time.Millisecond)
				} else {
					time.Sleep(250 * time.Millisecond)
				}
			}
		})
	}
	wg.Wait()
	hostCPU1, hostWait1 := schedStat(lab.host.Cmd.Process.Pid)
	selfCPU1, selfWait1 := schedStat(os.Getpid())
	t.Logf("FIGURE in the flood the host's threads ran %v and waited, runnable, %v for a CPU; the attackers' (this process) ran %v and waited %v",
		(hostCPU1 - hostCPU0).Round(time.Millisecond), (hostWait1 - hostWait0).Round(time.Millisecond),
		(selfCPU1 - selfCPU0).Round(time.Millisecond), (selfWait1 - selfWait0).Round(time.Millisecond))
	rssAfter, _ := rss(lab.host.Cmd.Process.Pid)
	load1 := loadAvg()
	t.Logf("FIGURE the flood ran from unix_ms %d to %d (the game from turn %d to %d)", start.UnixMilli(), until.UnixMilli(), from, turns)
	ends := lab.ends(t, turns, time.Minute)
	lab.checkFloodMovedNobody(t, ends[0].Int("busy_ms"), float64(hostCPU1-hostCPU0)/float64(lasting))
	stall := ends[0].Int("stall_ms")
	for i, p := range lab.procs() {
		e := ends[i]
		t.Logf("FIGURE %s's loop: stall %d ms = its busiest pass took %d ms of CPU (%s), and up to %d ms of a stall it was not run (late_ms); GC pauses up to %d ms",
			p.Name, e.Int("stall_ms"), e.Int("busy_ms"), e.Str("busy_in"), e.Int("late_ms"), e.Int("gc_pause_ms"))
	}
	during := longestTurnGap(lab.host, start, until)
	t.Logf("FIGURE %d strangers (%d connection attempts) wrote %.1f MiB of %d-byte frames in %v; the host's RSS %.0f MB before, %.0f MB after; load %s → %s",
		ids, conns.Load(), float64(sent.Load())/(1<<20), len(frame), lasting, mb(rssBefore), mb(rssAfter), load0, load1)
	t.Logf("FIGURE longest loop stall (stall_ms, whole game): host %d ms, joiners %d and %d ms; the host's slowest 20 turns (its turn lines; 1,000 ms when nothing waits): %d ms during the flood",
		stall, ends[1].Int("stall_ms"), ends[2].Int("stall_ms"), during)
	if quiet {
		before := longestTurnGap(lab.host, calm, start)
		t.Logf("FIGURE the host's slowest 20 turns in %v before the flood: %d ms", unflooded, before)
		fmt.Printf("BenchmarkProcStrangerFlood/ids=%d 1 %d stall-ms %d busy-ms %d late-ms %d joiner-stall-ms %d ms-per-20-turns %d ms-per-20-turns-unflooded %.1f MiB-sent %s load\n",
			ids, stall, ends[0].Int("busy_ms"), ends[0].Int("late_ms"), max(ends[1].Int("stall_ms"), ends[2].Int("stall_ms")),
			during, before, float64(sent.Load())/(1<<20), load1)
		// What the loop's own code costs, apart from the machine's load:
		// what the issue bounds (a benchmark's property, never make test's).
		if busy := ends[0].Int("busy_ms"); busy >= loopWorked.Milliseconds() {
			t.Errorf("the host's loop was busy %d ms in one pass (%s) in a stranger flood: over 50 ms", busy, ends[0].Str("busy_in"))
		}
	}
}

// checkFloodMovedNobody fails for a player who left or was dropped, and
// for a wait or a hand-over when the host did the strangers' work: its
// loop's busiest pass took busy ms of CPU, 50 or more, or its process used
// share (of one core, over the flood) of half a core or more (handshakes:
// before the handshake budget they took most of a core and the followers
// claimed). A host that did neither but was not run (the machine starved:
// other tests, CPU hogs, the attackers' own dials on the same cores) may
// be waited for or replaced, as the protocol allows of any live host that
// falls silent; those lines are figures. (Beside two CPU hogs and the
// plain tests, at load 18, the followers claimed once while the host's
// busiest pass was a few ms.)
func (lab *procLab) checkFloodMovedNobody(t *testing.T, busy int64, share float64) {
	t.Helper()
	worked := busy >= loopWorked.Milliseconds() || share >= 0.5
	for _, p := range lab.procs() {
		for _, l := range p.Lines() {
			switch l.Ev() {
			case "player_left", "left":
				t.Errorf("%s: %v", p.Name, l)
			case "host_changed", "waiting", "player_away":
				if worked {
					t.Errorf("%s: %v (the host's loop was busy %d ms in one pass; its process used %.0f%% of a core in the flood)", p.Name, l, busy, 100*share)
				} else {
					t.Logf("FIGURE %s, the host starved, not busy (busiest pass %d ms, %.0f%% of a core in the flood): %v", p.Name, busy, 100*share, l)
				}
			}
		}
	}
}

// loadAvg is the machine's 1-minute load average, as /proc says.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

// longestTurnGap is the longest time, in milliseconds, between two turn
// lines p printed from from to to (one every 20 turns: 1,000 ms when
// nothing waits).
func longestTurnGap(p *peerproc.Proc, from, to time.Time) int64 {
	var gap, last int64
	for _, l := range p.Find("turn") {
		at := l.Int("unix_ms")
		if at < from.UnixMilli() || at > to.UnixMilli() {
			continue
		}
		if last != 0 {
			gap = max(gap, at-last)
		}
		last = at
	}
	return gap
}

// knock connects h to the lab's host as a stranger, says a valid hello and
// writes frame after frame until the host closes the stream or until
// passes. It returns the bytes written, and whether it got in.
func knock(h *transport.Host, lab *procLab, frame []byte, until time.Time) (int64, bool) {
	ctx, cancel := context.WithDeadline(context.Background(), until)
	defer cancel()
	if h.LibP2P().Connect(network.WithForceDirectDial(ctx, "flood"), lab.hostInfo) != nil {
		return 0, false
	}
	s, err := h.LibP2P().NewStream(ctx, lab.hostInfo.ID, transport.ProtocolID)
	if err != nil {
		return 0, true
	}
	defer s.Reset()
	_ = s.SetWriteDeadline(until)
	if _, err := s.Write(helloFrame); err != nil {
		return 0, true
	}
	var n int64
	for ctx.Err() == nil {
		if _, err := s.Write(frame); err != nil {
			break
		}
		n += int64(len(frame))
	}
	return n, true
}

// schedStat is the CPU time a process's threads have used and the time
// they waited, runnable, for a CPU (/proc/PID/task/*/schedstat).
func schedStat(pid int) (cpu, wait time.Duration) {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, tk := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, tk.Name()))
		if err != nil {
			continue
		}
		var c, w int64
		if _, err := fmt.Sscan(string(b), &c, &w); err == nil {
			cpu += time.Duration(c)
			wait += time.Duration(w)
		}
	}
	return cpu, wait
}
