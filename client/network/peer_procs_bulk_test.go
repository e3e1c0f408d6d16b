package network

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"hostfall/internal/testwait"
)

// What a member may send, at most, without being warned: 1 MiB of command
// bytes a minute per slot (session's bulk budget), and frames under the
// transport's 1,000 a second (each proposal is a frame). A turn is 50 ms.
const (
	bulkSmallPerTurn = 40     // 1-byte commands a turn: 800 frames a second
	bulkBigBytes     = 15_500 // one command a second: with the small ones ~0.95 MiB a minute
)

// TestBenchBulkMember (opt-in: HOSTFALL_BULK_MINUTES, default of the bench
// script 10): a 3-player game of two hostfall processes (host, honest
// joiner) and a hostile member in this process that sends, for the whole
// game, the most its budgets allow: 40 tiny commands every turn and a
// 15.5 KB one of random bytes every second, just under the 1 MiB a minute that gets a
// member warned. It prints the host's resident memory (peak and at the
// end), the joiner's, and the size of the host's replay (issue 30 item 3's
// target: host RSS ≤ 256 MB). The member must not be removed, and the
// game ends at its limit with one hash.
func TestBenchBulkMember(t *testing.T) {
	minutes, _ := strconv.ParseFloat(os.Getenv("HOSTFALL_BULK_MINUTES"), 64)
	if minutes <= 0 {
		t.Skip("opt-in: a benchmark of minutes: set HOSTFALL_BULK_MINUTES (scripts/bench.d/budgets.sh)")
	}
	turns := uint64(minutes * 60 * 20)
	ctx, cancel := context.WithTimeout(t.Context(), time.Duration(minutes*float64(time.Minute))*2+2*time.Minute)
	defer cancel()
	lab := startProcGame(t, ctx, 3, 1, turns)
	opt := testPeerOptions("hostile")
	opt.GameVersion, opt.Match.SelfBot = lab.version, false
	member := startPeer(t, "hostile", opt)
	lab.joinFromHere(t, ctx, member)
	testwait.For(t, "the game start", time.Minute, func() bool { return member.Status().Turn > 0 })

	var sent atomic.Int64
	go bulk(ctx, member, &sent)
	var peak, joinerPeak uint64
	for {
		now, _ := rss(lab.host.Cmd.Process.Pid)
		jnow, _ := rss(lab.joiners[0].Cmd.Process.Pid)
		if now == 0 {
			break // the host exited at the end
		}
		peak, joinerPeak = max(peak, now), max(joinerPeak, jnow)
		select {
		case <-lab.host.Done():
		case <-time.After(time.Second):
			continue
		case <-ctx.Done():
			t.Fatalf("the game did not end: %v", ctx.Err())
		}
		break
	}
	lab.ends(t, int64(turns), 2*time.Minute)
	member.cancel() // its leave, unhurried: a loaded machine takes more than the harness's 5 s
	<-member.Done()
	lab.checkNobodyMoved(t, false) // a member this busy in a loaded test process lags
	for _, e := range member.all(EvChat) {
		if e.Chat != nil {
			t.Logf("the member was told: %q", e.Chat.Text)
		}
	}
	replay := dirBytes(filepath.Join(lab.dir, "data-host", "replays"))
	t.Logf("FIGURE %.1f min, the member sent %.1f MiB of commands: host RSS peak %.0f MB, joiner %.0f MB; the host's replay %.1f MB",
		minutes, float64(sent.Load())/(1<<20), mb(peak), mb(joinerPeak), float64(replay)/1e6)
	if benchProcs {
		fmt.Printf("BenchmarkProcBulkMember 1 %.0f MB-rss %.1f MB-replay %.0f MB-rss-joiner %.1f MiB-sent\n",
			mb(peak), float64(replay)/1e6, mb(joinerPeak), float64(sent.Load())/(1<<20))
	}
}

// bulk proposes, every turn, bulkSmallPerTurn tiny commands, and every
// second a bulkBigBytes one, until ctx ends or the member cannot.
func bulk(ctx context.Context, member *tpeer, sent *atomic.Int64) {
	slot := member.Status().Slot
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	rng := rand.NewChaCha8([32]byte{30})
	big, small := make([]byte, bulkBigBytes), []byte{0xff}
	for n := 0; ; n++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for range bulkSmallPerTurn {
			if member.proposeRaw(slot, small) != nil {
				return
			}
			sent.Add(1)
		}
		if n%20 == 0 {
			_, _ = rng.Read(big) // nothing a replay's compression could shrink
			if member.proposeRaw(slot, big) != nil {
				return
			}
			sent.Add(int64(len(big)))
		}
	}
}
