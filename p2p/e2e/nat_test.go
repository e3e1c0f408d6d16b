package e2e

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
)

// natWorld is a relay on a "public" switch (11.0.0.0/24, addresses libp2p
// treats as public) and two home networks, each behind a NAT router of its
// own with one peer in it.
type natWorld struct {
	relay      *peerproc.Proc
	relayAddr  string      // /ip4/…/tcp/…/p2p/<relay ID>
	relayLink  *netns.Link // the relay's link to the "internet" switch
	host, join *netns.NS
}

func newNATWorld(ctx context.Context, w *world) *natWorld {
	w.t.Helper()
	wan, err := w.lab.Switch("wan", "11.0.0")
	w.must(err)
	rns, err := w.lab.Namespace("relay")
	w.must(err)
	rl, err := wan.PlugIP(rns, 10)
	w.must(err)
	nw := &natWorld{relayLink: rl}
	for i, side := range []**netns.NS{&nw.host, &nw.join} {
		name := []string{"home-a", "home-b"}[i]
		lanPrefix := []string{"10.71.0", "10.72.0"}[i]
		_, lan, err := w.lab.Router("nat"+name[len(name)-1:], wan, 1+i, lanPrefix)
		w.must(err)
		ns, err := w.lab.Namespace(name)
		w.must(err)
		_, err = lan.Plug(ns) // .2: the router is .1
		w.must(err)
		w.must(ns.Gateway(lanPrefix + ".1"))
		*side = ns
	}
	nw.relay = w.run(rns, "relay", "relay", "--status-json",
		"--listen", "/ip4/"+rl.IP+"/tcp/4001", "--listen", "/ip4/"+rl.IP+"/udp/4001/quic-v1",
		"--identity", filepath.Join(w.dir, "relay.key"))
	id := w.waitEv(ctx, nw.relay, "listening").Str("peer")
	nw.relayAddr = "/ip4/" + rl.IP + "/tcp/4001/p2p/" + id
	return nw
}

// natLogEnv names go-libp2p subsystems to log in TestNATRelayInvite's
// processes, as GOLOG_LOG_LEVEL does (e.g. "error,p2p-holepunch=debug");
// their stderr is then printed at the end of the test.
const natLogEnv = "HFLAN_NAT_LOG"

// Two peers behind separate NATs: the host holds a reservation on the relay
// and prints an invite code; the joiner uses it. Both NATs map endpoint-
// independently (MASQUERADE keeps the port) and let in what answers a
// packet sent out, so DCUtR hole punching must go direct, and the session
// streams must leave the relay: the game's traffic goes around it.
//
// A hole punch that misses (about 1 run in 70 here, under load) leaves a
// game that is still correct, over the relay; the scenario then runs once
// more in fresh namespaces, and two misses in a row fail the test.
func TestNATRelayInvite(t *testing.T) {
	t.Parallel() // a lab of its own; its processes mostly wait on the network
	for attempt := 1; attempt <= 2; attempt++ {
		direct := false
		t.Run(fmt.Sprintf("attempt%d", attempt), func(t *testing.T) { direct = natGame(t) })
		if direct || t.Failed() {
			return
		}
		t.Logf("attempt %d: the game ran over the relay, hole punching did not go direct", attempt)
	}
	t.Error("DCUtR hole punching did not go direct in two games in a row; the games ran over the relay")
}

// natGame plays the scenario once; it reports whether both peers went direct.
func natGame(t *testing.T) bool {
	w := newWorld(t)
	if lv := os.Getenv(natLogEnv); lv != "" {
		w.env = append(w.env, "GOLOG_LOG_LEVEL="+lv)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	nw := newNATWorld(ctx, w)
	const turns = 200
	host := w.run(nw.host, "host", hostArgs("behind-nat", 2, turns, "--relay", nw.relayAddr)...)
	code := w.waitEv(ctx, host, "invite").Str("code")
	t.Logf("invite code %s", code)
	join := w.run(nw.join, "join", joinArgs("join", "--invite", code)...)
	peers := []*peerproc.Proc{host, join}
	if os.Getenv(natLogEnv) != "" {
		defer func() {
			for _, p := range append(peers, nw.relay) {
				t.Logf("%s stderr:\n%s", p.Name, p.Stderr())
			}
		}()
	}
	for _, p := range peers {
		w.waitEv(ctx, p, "start")
	}
	rx0, tx0, err := nw.relayLink.NS.Counters(nw.relayLink.Dev)
	w.must(err)
	w.survive(peers, turns, 0, 60*time.Second)
	rx1, tx1, err := nw.relayLink.NS.Counters(nw.relayLink.Dev)
	w.must(err)
	if f := join.Find("found"); len(f) == 1 {
		t.Logf("join found the host %d ms after its libp2p host came up (reservation and hole punching ready first)", f[0].Int("ms"))
	}
	allDirect := true
	for _, p := range peers {
		relayed, direct := pathTimes(p)
		switch {
		case relayed == 0:
			t.Errorf("%s never reached the other peer through the relay", p.Name)
		case direct == 0:
			t.Logf("%s: DCUtR hole punching did not go direct; the game ran over the relay", p.Name)
			allDirect = false
		default:
			t.Logf("%s: relayed at first, direct %d ms later", p.Name, direct-relayed)
		}
	}
	if !allDirect {
		return false
	}
	// The relay still carries identify pushes and reservation renewals, not
	// the game: 200 turns over it put about 160 kB through its link.
	through := (rx1 - rx0) + (tx1 - tx0)
	t.Logf("through the relay's link during the game: %d bytes", through)
	if through > relayedGameMax {
		t.Errorf("%d bytes went through the relay during the game (over %d): the session streams did not move to the direct connection", through, relayedGameMax)
	}
	return true
}

// relayedGameMax bounds the bytes through the relay's link during a game
// whose peers went direct.
const relayedGameMax = 20_000

// pathTimes are when (unix ms) p first reached the other peer relayed and
// directly; 0 when it did not.
func pathTimes(p *peerproc.Proc) (relayed, direct int64) {
	for _, l := range p.Find("path") {
		switch at := l.Int("unix_ms"); l.Str("path") {
		case "relayed":
			relayed = cmp.Or(relayed, at)
		case "direct":
			direct = cmp.Or(direct, at)
		}
	}
	return relayed, direct
}
