package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
	"hostfall/internal/wine"
)

// runWindows starts the Windows build (exe) under Wine in ns as name, with
// a Wine prefix of its own (its wineserver then lives in ns, where Wine
// makes the process's sockets), a data directory and an identity.
func (w *world) runWindows(ns *netns.NS, exe, name string, args ...string) *peerproc.Proc {
	w.t.Helper()
	pfx := wine.NewPrefix(w.t)
	env := append([]string{
		"HOSTFALL_DATA=" + filepath.Join(w.dir, name),
		"HOSTFALL_IDENTITY=" + filepath.Join(w.dir, name+".key"),
	}, w.env...)
	p, err := peerproc.Start(name, ns.Argv(pfx.Argv(exe, args...)...), env...)
	w.must(err)
	w.mu.Lock()
	w.procs = append(w.procs, p)
	w.mu.Unlock()
	return p
}

// A Linux peer and a Windows peer (the release's Windows build under Wine)
// play one LAN game in namespaces of their own, each way round: the
// joiners find the host by the session's name alone (under Wine no Go UDP
// socket opens, so mDNS and QUIC fail there and the broadcast beacon finds
// the game; the game runs over TCP), the host is SIGKILLed at turn 100, a
// survivor takes over and the two survivors, one of each system, end with
// equal hashes. Three peers: the host and one joiner of each system.
func TestLANLinuxAndWindows(t *testing.T) {
	wine.Skip(t)
	exe := wine.Build(t) // before the lab, so its minutes do not count against the game's
	t.Logf("FIGURE Windows cross-build: %v", wine.BuildTime().Round(100*time.Millisecond))
	for i, dir := range []struct{ name, host string }{{"windows-hosts", "windows"}, {"linux-hosts", "linux"}} {
		t.Run(dir.name, func(t *testing.T) {
			playMixed(t, exe, fmt.Sprintf("10.8%d.0", i+5), dir.host == "windows")
		})
	}
}

// playMixed plays one game of TestLANLinuxAndWindows on a switch for
// prefix: the host of the system winHost says, then a joiner of each system.
func playMixed(t *testing.T, exe, prefix string, winHost bool) {
	w := newWorld(t)
	session := "mixed-linux"
	kinds := []bool{false, true, false} // host, joiner, joiner: is it Windows
	if winHost {
		session, kinds = "mixed-windows", []bool{true, false, true}
	}
	names := []string{"p0", "p1", "p2"}
	_, spaces := w.lan(prefix, names...)
	start := func(i int, args ...string) *peerproc.Proc {
		name := names[i] + "-linux"
		if kinds[i] {
			name = names[i] + "-windows"
			return w.runWindows(spaces[i], exe, name, args...)
		}
		return w.runAs(spaces[i], name, name, args...)
	}
	if winHost {
		pfx := time.Now()
		wine.NewPrefix(t) // the first one makes the template: time it apart from the game
		t.Logf("FIGURE Wine prefix: %v (the template made with wineboot %v)", time.Since(pfx).Round(time.Millisecond), wine.TemplateTime().Round(time.Millisecond))
	}
	// A bound on a stuck game, not a speed target, from after the prefix
	// (wineboot took 97 s at load 25, and a 4-minute bound that included
	// it ran out).
	ctx, cancel := context.WithTimeout(t.Context(), 6*time.Minute)
	defer cancel()
	begin := time.Now()
	host := start(0, hostArgs(session, len(names), 300)...)
	w.waitEv(ctx, host, "joined")
	t.Logf("FIGURE %s hosting %v after its start (a Windows peer's first process starts its prefix's wineserver)", host.Name, time.Since(begin).Round(time.Millisecond))
	g := &lanGame{w: w, procs: []*peerproc.Proc{host}, ids: map[*peerproc.Proc]string{}, turns: 300}
	for i := 1; i < len(names); i++ {
		g.procs = append(g.procs, start(i, joinArgs(names[i], "--session", session)...))
	}
	for _, p := range g.procs {
		g.ids[p] = w.waitEv(ctx, p, "listening").Str("peer")
	}
	for _, p := range g.procs {
		w.waitEv(ctx, p, "start")
	}
	for _, p := range g.procs[1:] {
		found := p.Find("found")
		if len(found) == 0 {
			t.Fatalf("%s started without printing that it found the host by the name %q", p.Name, session)
		}
		if found[0].Str("host") != g.ids[host] {
			t.Errorf("%s found %s by the name %q, the host is %s", p.Name, found[0].Str("host"), session, g.ids[host])
		}
		t.Logf("FIGURE %s found %s's game by name %d ms after it began looking", p.Name, host.Name, found[0].Int("ms"))
	}
	t.Logf("FIGURE game started %v after the host's start", time.Since(begin).Round(time.Millisecond))
	g.killHosts(ctx, 100)
	rest := g.procs[1:] // both survivors, the new host too (killHosts leaves it out)
	ends := w.survive(rest, g.turns, 1, 2*time.Minute)
	for i, p := range rest {
		t.Logf("FIGURE %s ended at turn %d with hash %s", p.Name, ends[i].Int("turn"), ends[i].Str("hash"))
	}
}
