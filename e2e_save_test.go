package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hostfall/internal/peerproc"
)

// hostAddr returns a host process's peer ID and the TCP multiaddr it listens on.
func hostAddr(t *testing.T, ctx context.Context, host *peerproc.Proc) (id, addr string) {
	t.Helper()
	l, err := host.WaitEv(ctx, "listening")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range l["addrs"].([]any) {
		if s := a.(string); strings.Contains(s, "/tcp/") {
			return l.Str("peer"), s
		}
	}
	t.Fatalf("%s listens on no TCP address: %v", host.Name, l)
	return "", ""
}

// playerEnv makes a process player name, with a data dir and an identity
// of its own under dir.
func playerEnv(dir, name string) []string {
	return []string{"HOSTFALL_DATA=" + filepath.Join(dir, "data-"+name), "HOSTFALL_IDENTITY=" + filepath.Join(dir, name+".key")}
}

// checkEnd checks that p printed one end line, at turn, and that its hash is
// *hash (the first peer checked sets it): every peer ended in one game.
func checkEnd(t *testing.T, p *peerproc.Proc, turn int64, hash *string) {
	t.Helper()
	end := p.Find("end")
	if len(end) != 1 || end[0].Int("turn") != turn {
		t.Fatalf("%s: end lines %v, want one at turn %d", p.Name, end, turn)
	}
	if h := end[0].Str("hash"); *hash == "" {
		*hash = h
	} else if h != *hash {
		t.Errorf("%s ended with hash %s, the peer before with %s", p.Name, h, *hash)
	}
}

// verifyReplayOf checks every replay a process says it saved with
// `hostfall replay --headless --verify`: one, or one more for each time it
// took the game back by snapshot (peerproc.ReplayPaths).
func verifyReplayOf(t *testing.T, bin string, p *peerproc.Proc) {
	t.Helper()
	paths := peerproc.ReplayPaths(p)
	if len(paths) == 0 {
		t.Fatalf("%s printed no replay path", p.Name)
	}
	for _, path := range paths {
		out, err := exec.Command(bin, "replay", "--headless", "--verify", path).CombinedOutput()
		if err != nil {
			t.Errorf("%s: the replay %s does not verify: %v\n%s", p.Name, path, err, out)
			continue
		}
		t.Logf("%s: %s", p.Name, strings.TrimSpace(string(out)))
	}
}

// checkHandOver checks that p saw the killed host (old) replaced in the
// game of turns turns, and logs that hand-over and any other as figures:
// a live host replaced because its machine was starved is allowed.
func checkHandOver(t *testing.T, p *peerproc.Proc, old string, turns int64) {
	t.Helper()
	hc, ok, others := peerproc.HostChanges(p, old, turns)
	if !ok {
		t.Errorf("%s: no host_changed line replaced the killed host %s: %v", p.Name, old, p.Find("host_changed"))
		return
	}
	t.Logf("FIGURE %s: host_changed to %s at turn %d after %d ms; other hand-overs (from a live host) %d",
		p.Name, hc.Str("new"), hc.Int("turn"), hc.Int("ms"), others)
}

// A headless game of three players and a bot is saved at turn 150, every
// process ends, then another of the players hosts the save, the same
// players (the same identities, each with its own data dir) rejoin, and the
// game goes on from the saved state to its turn limit with equal hashes on
// every peer; the replays of the resumed game verify.
func TestHeadlessSaveAndLoad(t *testing.T) {
	t.Parallel() // idle real processes: runs beside the other process tests
	if testing.Short() {
		t.Skip("multi-process network test; skipped with -short")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	env := func(name string) []string {
		return []string{"HOSTFALL_DATA=" + filepath.Join(dir, "data-"+name), "HOSTFALL_IDENTITY=" + filepath.Join(dir, name+".key")}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	start := func(name string, args ...string) *peerproc.Proc {
		t.Helper()
		argv := append([]string{bin}, args...)
		argv = append(argv, "--player", name, "--level", "easy", "--status-json")
		p, err := peerproc.Start(name, append(argv, loopback...), env(name)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Kill)
		return p
	}
	const saveAt, limit = 150, 400

	// The first session: ann hosts, bob and cid join, a bot plays slot 3.
	ann := start("ann", "host", "--headless", "--name", "saved game", "--players", "3", "--bots", "1",
		"--turns", "400", "--size", "64", "--save-at", "150")
	_, addr := hostAddr(t, ctx, ann)
	bob := start("bob", "join", "--headless", "--addr", addr)
	cid := start("cid", "join", "--headless", "--addr", addr)
	saved, err := ann.WaitEv(ctx, "saved")
	if err != nil {
		t.Fatal(err)
	}
	path := saved.Str("path")
	if saved.Int("turn") != saveAt || !strings.HasPrefix(path, filepath.Join(dir, "data-ann", "saves", "saved_game-")) {
		t.Fatalf("saved line %v", saved)
	}
	for _, p := range []*peerproc.Proc{ann, bob, cid} {
		p.Kill()
	}

	// The second session: bob hosts the save; ann and cid come back.
	bob2 := start("bob", "host", "--headless", "--load", path)
	resume, err := bob2.WaitEv(ctx, "resume")
	if err != nil {
		t.Fatal(err)
	}
	if resume.Int("turn") != saveAt || resume.Str("hash") != saved.Str("hash") {
		t.Fatalf("the loaded save (%v) is not the saved game (%v)", resume, saved)
	}
	_, addr = hostAddr(t, ctx, bob2)
	ann2 := start("ann", "join", "--headless", "--addr", addr)
	cid2 := start("cid", "join", "--headless", "--addr", addr)

	var endHash string
	turnHashes := map[int64]string{}
	for _, p := range []*peerproc.Proc{bob2, ann2, cid2} {
		if err := p.Exit(2 * time.Minute); err != nil {
			t.Fatalf("%s: %v\n%s", p.Name, err, p.Stderr())
		}
		checkEnd(t, p, limit, &endHash)
		turns := p.Find("turn")
		if len(turns) == 0 || turns[0].Int("turn") <= saveAt {
			t.Fatalf("%s: turn lines %v; the resumed game must go on after turn %d", p.Name, turns, saveAt)
		}
		for _, l := range turns {
			if h, ok := turnHashes[l.Int("turn")]; ok && h != l.Str("hash") {
				t.Errorf("%s: hash %s at turn %d, another peer had %s", p.Name, l.Str("hash"), l.Int("turn"), h)
			}
			turnHashes[l.Int("turn")] = l.Str("hash")
		}
		verifyReplayOf(t, bin, p)
	}
	if len(turnHashes) < (limit-saveAt)/20-1 {
		t.Errorf("only %d turns' hashes compared", len(turnHashes))
	}
}
