package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
	"hostfall/internal/releasetest"
)

// TestPlayerRelaysInNamespaces: three players on one switch, where the
// host (ann) and bo drop every packet between them, as two NATs that defeat
// hole punching would, while cy reaches both. Each player's packets out
// wait 40 ms (an 80 ms round trip). Ann hosts; cy joins her directly; bo
// reaches her only through cy's player relay (a circuit without limits
// that serves the members of cy's game), joining by the circuit address.
// The game plays to its end with equal hashes and nobody away or gone: no
// relay limit, so no renewal and no pause. Waiting lines and hand-overs
// are figures (a starved machine can stall a process past the silence
// limit).
func TestPlayerRelaysInNamespaces(t *testing.T) {
	releasetest.Skip(t, "a 3-player game in namespaces, one pair through a player's relay")
	t.Parallel()
	w := newWorldPrefixed(t, "pr-")
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	sw, err := w.lab.Switch("swpr", "10.83.0")
	w.must(err)
	names := []string{"ann", "bo", "cy"}
	spaces := map[string]*netns.NS{}
	links := map[string]*netns.Link{}
	for _, n := range names {
		ns, err := w.lab.Namespace(n)
		w.must(err)
		l, err := sw.Plug(ns)
		w.must(err)
		w.must(ns.Netem(l.Dev, "delay", "40ms"))
		spaces[n], links[n] = ns, l
	}
	for _, pair := range [][2]string{{"ann", "bo"}, {"bo", "ann"}} {
		ns, other := spaces[pair[0]], links[pair[1]].IP
		for _, rule := range [][]string{{"INPUT", "-s"}, {"OUTPUT", "-d"}} {
			if out, err := ns.Output("iptables", "-I", rule[0], rule[1], other, "-j", "DROP"); err != nil {
				t.Fatalf("iptables in %s: %v: %s", pair[0], err, out)
			}
		}
	}
	listen := func(n string) []string { return []string{"--listen", "/ip4/" + links[n].IP + "/tcp/4001"} }
	const turns = 400 // 20 s
	ann := w.run(spaces["ann"], "ann", hostArgs("relayed-by-cy", 3, turns, listen("ann")...)...)
	annAddr := tcpAddr(ctx, w, ann, links["ann"].IP)
	cy := w.run(spaces["cy"], "cy", joinArgs("cy", append(listen("cy"), "--addr", annAddr)...)...)
	cyAddr := tcpAddr(ctx, w, cy, links["cy"].IP)
	w.waitEv(ctx, cy, "joined")
	annID := annAddr[strings.LastIndex(annAddr, "/")+1:]
	start := time.Now()
	bo := w.run(spaces["bo"], "bo", joinArgs("bo", append(listen("bo"), "--addr", cyAddr+"/p2p-circuit/p2p/"+annID)...)...)
	w.waitEv(ctx, bo, "joined")
	t.Logf("FIGURE bo joined ann through cy's relay %v after its process started", time.Since(start).Round(time.Millisecond))
	peers := []*peerproc.Proc{ann, bo, cy}
	w.survive(peers, turns, 0, 2*time.Minute)
	nobodyAway(t, peers)
}

// nobodyAway fails when a player printed a player away or gone before its
// game's end, and prints each one's waiting lines and longest stall as
// figures.
func nobodyAway(t *testing.T, peers []*peerproc.Proc) {
	t.Helper()
	for _, p := range peers {
		for _, ev := range []string{"player_away", "player_left"} {
			if lines := beforeEnd(p, ev); len(lines) > 0 {
				t.Errorf("%s printed %d %s lines, the first %v", p.Name, len(lines), ev, lines[0])
			}
		}
		if waits := beforeEnd(p, "waiting"); len(waits) > 0 {
			t.Logf("FIGURE %s printed %d waiting lines, the first %v", p.Name, len(waits), waits[0])
		}
		if s := p.Find("end"); len(s) == 1 {
			t.Logf("FIGURE %s: longest stall %d ms", p.Name, s[0].Int("stall_ms"))
		}
	}
}

// tcpAddr is p's TCP address on ip with its peer ID, from its listening line.
func tcpAddr(ctx context.Context, w *world, p *peerproc.Proc, ip string) string {
	w.t.Helper()
	l := w.waitEv(ctx, p, "listening")
	for _, a := range l["addrs"].([]any) {
		if s := a.(string); strings.Contains(s, "/ip4/"+ip+"/tcp/") {
			if !strings.Contains(s, "/p2p/") {
				s += "/p2p/" + l.Str("peer")
			}
			return s
		}
	}
	w.t.Fatalf("%s listens on no TCP address on %s: %v", p.Name, ip, l)
	return ""
}

// TestInternetCodeThroughAPlayer: internet play over the simulated public
// network, where the host sits behind a NAT that maps each destination to
// a new port and the last joiner behind one that lets in only what answers
// its own packets: hole punching cannot connect those two. Cy, a player
// with a public address, joins first; the host then holds a reservation on
// cy's relay and publishes its code again naming that way in. Bo finds the
// code and gets in through cy's relay: never over a volunteer's (limited)
// relay, no "relayed-only" warning for anyone, and the game plays to its
// end with equal hashes and nobody away or gone.
func TestInternetCodeThroughAPlayer(t *testing.T) {
	releasetest.Skip(t, "a 3-player internet game in namespaces, one player in through another's relay by the code alone")
	t.Parallel()
	w := newWorldPrefixed(t, "ip-")
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	iw := newInternetWorldWith(ctx, w, 12, "")
	pub, err := w.lab.Namespace("public")
	w.must(err)
	link, err := iw.wan.PlugIP(pub, 50)
	w.must(err)
	const turns = 300 // 15 s
	ann := w.run(iw.symmetric, "ann", hostArgs("through-cy", 3, turns, iw.internetArgs()...)...)
	code := w.waitEv(ctx, ann, "invite").Str("code")
	cy := w.run(pub, "cy", joinArgs("cy", append([]string{"--invite", code, "--listen", "/ip4/" + link.IP + "/tcp/4001"}, iw.internetArgs()...)...)...)
	w.waitEv(ctx, cy, "joined")
	began := time.Now()
	named := w.wait(ctx, ann, func(l peerproc.Line) bool {
		return l.Ev() == "internet" && l.Str("step") == "published" && l.Int("players") > 0
	})
	t.Logf("FIGURE the host's record named a way in through cy %v after cy joined: %v", time.Since(began).Round(time.Millisecond), named)
	began = time.Now()
	bo := w.run(iw.join, "bo", joinArgs("bo", append([]string{"--invite", code}, iw.internetArgs()...)...)...)
	found := w.wait(ctx, bo, func(l peerproc.Line) bool { return l.Ev() == "internet" && l.Str("step") == "found" })
	w.waitEv(ctx, bo, "joined")
	t.Logf("FIGURE bo joined %v after its process started (%v)", time.Since(began).Round(time.Millisecond), found)
	if found.Int("players") == 0 {
		t.Errorf("bo found a record with no way in through a player: %v", found)
	}
	peers := []*peerproc.Proc{ann, bo, cy}
	w.survive(peers, turns, 0, 2*time.Minute)
	nobodyAway(t, peers)
	for _, p := range peers {
		for _, l := range p.Find("path") {
			if l["limited"] == true {
				t.Errorf("%s: a volunteer's relay carried the game: %v", p.Name, l)
			}
		}
		for _, l := range p.Find("internet") {
			if l.Str("step") == "relayed-only" {
				t.Errorf("%s was told no relay carries its game: %v", p.Name, l)
			}
		}
	}
	for _, l := range bo.Find("path") {
		t.Logf("bo's path: %v", l)
	}
}
