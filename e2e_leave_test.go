package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"hostfall/internal/peerproc"
)

// A headless player stopped by SIGINT (Ctrl+C) or SIGTERM leaves on
// purpose: every other peer prints player_left for its slot, and never
// waits for it or marks it away first. In games of two, three and four, the
// host leaving or a joiner. The time from the signal to each player_left is
// printed.
func TestHeadlessSignalIsALeave(t *testing.T) {
	t.Parallel() // idle real processes: runs beside the other process tests
	if testing.Short() {
		t.Skip("multi-process network test; skipped with -short")
	}
	bin := buildBinary(t)
	for _, players := range []int{2, 3, 4} {
		for _, who := range []string{"host", "join"} {
			for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
				t.Run(fmt.Sprintf("%d-%s-%v", players, who, sig), func(t *testing.T) {
					signalLeave(t, bin, players, who, sig)
				})
			}
		}
	}
}

func signalLeave(t *testing.T, bin string, players int, who string, sig syscall.Signal) {
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	procs := loopbackGame(t, ctx, bin, "leave", players)
	host := procs[0]
	leaver := procs[len(procs)-1]
	if who == "host" {
		leaver = host
	}
	start, err := leaver.WaitEv(ctx, "start")
	if err != nil {
		t.Fatal(err)
	}
	slot := start.Int("slot")
	for _, p := range procs {
		if _, err := p.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "turn" && l.Int("turn") >= 60 }); err != nil {
			logPeers(t, procs)
			t.Fatalf("%s did not reach turn 60: %v", p.Name, err)
		}
	}
	sent := time.Now()
	if err := leaver.Cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	for _, p := range procs {
		if p == leaver {
			continue
		}
		ofLeaver := func(ev string) func(peerproc.Line) bool {
			return func(l peerproc.Line) bool { return l.Ev() == ev && l.Int("slot") == slot }
		}
		wctx, wcancel := context.WithTimeout(ctx, 30*time.Second)
		_, err := p.Wait(wctx, ofLeaver("player_left"))
		wcancel()
		if err != nil {
			logPeers(t, procs)
			t.Fatalf("%s: no player_left for slot %d: %v", p.Name, slot, err)
		}
		took := time.Since(sent)
		for _, ev := range []string{"waiting", "player_away"} {
			for _, l := range p.Lines() {
				switch {
				case !ofLeaver(ev)(l):
				case l.Int("unix_ms") < sent.UnixMilli():
					// Before the signal: the leaver's process was starved
					// for a moment (seen at load 12), not leaving yet.
					t.Logf("FIGURE %s printed %s for the leaver before the signal: %v", p.Name, ev, l)
				default:
					t.Errorf("%s printed %s for the leaver: %v", p.Name, ev, l)
				}
			}
		}
		t.Logf("%s: player_left for slot %d %d ms after %v to %s", p.Name, slot, took.Milliseconds(), sig, leaver.Name)
		if backBySnapshot(p) {
			// Away itself in the hand-over (slow to follow the claim), it
			// came back by snapshot, which brought the departure.
			t.Logf("FIGURE %s was away itself in the hand-over and came back by snapshot", p.Name)
		}
	}
	if err := leaver.Exit(10 * time.Second); err != nil {
		t.Errorf("the leaver did not end well after %v: %v", sig, err)
	}
}

// A joiner of a game of two whose process dies (SIGKILL: its kernel closes
// its connections) is away on the host at once, and the host's game goes
// on. The time from the kill to player_away, and any wait the host showed
// first (a countdown when the close came late), are figures.
func TestHeadlessJoinerKilledIsAwayAtOnce(t *testing.T) {
	t.Parallel() // idle real processes: runs beside the other process tests
	if testing.Short() {
		t.Skip("multi-process network test; skipped with -short")
	}
	bin := buildBinary(t)
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	procs := loopbackGame(t, ctx, bin, "duel", 2)
	host, j := procs[0], procs[1]
	start, err := j.WaitEv(ctx, "start")
	if err != nil {
		t.Fatal(err)
	}
	slot := start.Int("slot")
	if _, err := host.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "turn" && l.Int("turn") >= 60 }); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	j.Kill()
	away, err := host.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "player_away" && l.Int("slot") == slot })
	if err != nil {
		t.Fatalf("the host never marked the killed joiner away: %v", err)
	}
	// Its game goes on: turns well past the one the joiner left at.
	if _, err := host.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "turn" && l.Int("turn") >= away.Int("turn")+40 }); err != nil {
		t.Fatalf("the host's turns stood still after the joiner was away: %v", err)
	}
	if got := host.Find("player_left"); len(got) > 0 {
		t.Errorf("the killed joiner was taken for one who left: %v", got)
	}
	t.Logf("FIGURE the host marked the killed joiner away %d ms after the kill (at turn %d)", away.Int("unix_ms")-killed.UnixMilli(), away.Int("turn"))
	// The loss and the close are told apart milliseconds apart (p2p/transport/hangup.go):
	// a wait may flash in between, but it is never counted down.
	var waits []peerproc.Line
	for _, l := range host.Find("waiting") {
		if l.Int("slot") == slot {
			waits = append(waits, l)
			t.Logf("FIGURE the host showed a wait for the killed joiner first: %v", l)
		}
	}
	// A countdown means the host heard of the close only after a silence
	// (seen at load 15: the close came 2.7 s late, or the link was QUIC,
	// which tells no close): a figure here. The rule itself, a closed
	// connection is away at the next turn, is simnet's to check
	// (session/onevone_test.go), and its delay make bench's (lan1v1).
	if len(waits) > 1 {
		t.Logf("FIGURE the host counted down a wait for the killed joiner (%d lines): it heard no close first", len(waits))
	}
}

// loopbackGame starts a headless host on loopback for a game of players
// (3000 turns) and its joiners, each with data and an identity of its own;
// the host comes first. Every process is killed when the test ends.
func loopbackGame(t *testing.T, ctx context.Context, bin, name string, players int) []*peerproc.Proc {
	t.Helper()
	dir := t.TempDir()
	start := func(who string, args ...string) *peerproc.Proc {
		p, err := peerproc.Start(who, append(append([]string{bin}, args...), loopback...),
			"HOSTFALL_DATA="+filepath.Join(dir, "data-"+who), "HOSTFALL_IDENTITY="+filepath.Join(dir, who+".key"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Kill)
		return p
	}
	host := start("host", "host", "--headless", "--name", name, "--players", fmt.Sprint(players),
		"--turns", "3000", "--size", "64", "--level", "easy", "--status-json")
	_, addr := hostAddr(t, ctx, host)
	procs := []*peerproc.Proc{host}
	for i := 1; i < players; i++ {
		who := fmt.Sprintf("j%d", i)
		procs = append(procs, start(who, "join", "--headless", "--addr", addr, "--player", who, "--level", "easy", "--status-json"))
	}
	return procs
}

// backBySnapshot reports whether p was marked away and came back: its own
// slot's player_back (a return by snapshot, which starts a new replay).
func backBySnapshot(p *peerproc.Proc) bool {
	own := p.Find("start")
	return len(own) > 0 && slices.ContainsFunc(p.Find("player_back"), func(l peerproc.Line) bool { return l.Int("slot") == own[0].Int("slot") })
}

// logPeers logs each process's lines but its turns, and the end of its
// stderr: what a failed wait needs to be understood.
func logPeers(t *testing.T, procs []*peerproc.Proc) {
	t.Helper()
	for _, q := range procs {
		t.Logf("%s's lines but turns: %v\nits stderr (end): %s", q.Name,
			slices.DeleteFunc(q.Lines(), func(l peerproc.Line) bool { return l.Ev() == "turn" }), lastBytes(q.Stderr(), 2000))
	}
}
