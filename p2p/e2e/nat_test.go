package e2e

import (
	"context"
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
	relayAddr  string // /ip4/…/tcp/…/p2p/<relay ID>
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
	nw := &natWorld{}
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

// Two peers behind separate NATs: the host holds a reservation on the relay
// and prints an invite code; the joiner uses it. The game completes over
// the relay; whether DCUtR hole punching went direct is reported, not
// required (it depends on the NATs).
func TestNATRelayInvite(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	nw := newNATWorld(ctx, w)
	const turns = 200
	host := w.run(nw.host, "host", hostArgs("behind-nat", 2, turns, "--relay", nw.relayAddr)...)
	code := w.waitEv(ctx, host, "invite").Str("code")
	t.Logf("invite code %s", code)
	join := w.run(nw.join, "join", joinArgs("join", "--invite", code)...)
	for _, p := range []*peerproc.Proc{host, join} {
		w.waitEv(ctx, p, "start")
	}
	w.survive([]*peerproc.Proc{host, join}, turns, 0, 60*time.Second)
	direct := false
	for _, p := range []*peerproc.Proc{host, join} {
		for _, l := range p.Find("path") {
			t.Logf("%s: %s reached %s", p.Name, tail(l.Str("peer"), 6), l.Str("path"))
			direct = direct || l.Str("path") == "direct"
		}
	}
	if direct {
		t.Logf("DCUtR hole punching went direct")
	} else {
		t.Logf("DCUtR did not go direct: the whole game ran over the relay")
	}
}
