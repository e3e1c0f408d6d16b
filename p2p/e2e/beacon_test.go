package e2e

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
)

// dropMulticast makes ns drop every multicast packet in and out, as a LAN
// whose access point or switch filters it: mDNS cannot work there.
func dropMulticast(w *world, ns *netns.NS) {
	for _, chain := range [][]string{{"INPUT", "-d"}, {"OUTPUT", "-d"}} {
		_, err := ns.Output("iptables", "-A", chain[0], chain[1], "224.0.0.0/4", "-j", "DROP")
		w.must(err)
	}
}

// listed runs `hostfall list --json` in ns with env added and returns the
// session names it printed.
func listed(ctx context.Context, w *world, ns *netns.NS, env ...string) []string {
	w.t.Helper()
	cmd := ns.Command(bin, "list", "--json", "--timeout", "1s")
	cmd.Env = append(append(os.Environ(), "HOSTFALL_DATA="+w.dir, "HOSTFALL_CONFIG="+w.dir), env...)
	out, err := cmd.Output()
	w.must(err)
	var ss []struct{ Name string }
	w.must(json.Unmarshal(out, &ss))
	var names []string
	for _, s := range ss {
		names = append(names, s.Name)
	}
	return names
}

// On a LAN that drops multicast, mDNS finds nothing, yet three peers find
// the game by its name through the broadcast beacon; the host is killed
// mid-game and the two survivors end it with equal hashes.
func TestLANWithoutMulticast(t *testing.T) {
	t.Parallel() // a lab of its own; its processes mostly wait on the network
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	names := []string{"p0", "p1", "p2"}
	_, spaces := w.lan("10.63.0", names...)
	for _, ns := range spaces {
		dropMulticast(w, ns)
	}
	host := w.run(spaces[0], "p0", hostArgs("no-multicast", 3, 300)...)
	w.waitEv(ctx, host, "joined")
	time.Sleep(300 * time.Millisecond) // the announcements are up
	if got := listed(ctx, w, spaces[1], "HOSTFALL_DISCOVERY=mdns"); len(got) != 0 {
		t.Fatalf("mDNS lists %v on a LAN that drops multicast: the test does not test the beacon", got)
	}
	if got := listed(ctx, w, spaces[1], "HOSTFALL_DISCOVERY=beacon"); len(got) != 1 || got[0] != "no-multicast" {
		t.Fatalf("the beacon lists %v, want [no-multicast]", got)
	}
	g := &lanGame{w: w, procs: []*peerproc.Proc{host}, ids: map[*peerproc.Proc]string{}, turns: 300}
	for i := 1; i < len(names); i++ {
		g.procs = append(g.procs, w.run(spaces[i], names[i], joinArgs(names[i], "--session", "no-multicast")...))
	}
	for _, p := range g.procs {
		g.ids[p] = w.waitEv(ctx, p, "listening").Str("peer")
	}
	for _, p := range g.procs {
		w.waitEv(ctx, p, "start")
	}
	for _, p := range g.procs[1:] {
		for _, f := range p.Find("found") {
			t.Logf("%s found the host by broadcast %d ms after it began looking", p.Name, f.Int("ms"))
		}
	}
	rest := g.killHosts(ctx, 100)
	w.survive(rest, g.turns, 1, 60*time.Second)
}
