package e2e

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
)

// TestInternetUPnP: a host behind a NAT that maps each destination to a new
// port (symmetric: hole punching cannot go direct, see relayedGame) whose
// router runs Debian's miniupnpd (UPnP-IGD and NAT-PMP). The host asks it
// for a port mapping (go-libp2p's NATPortMap); AutoNAT v2 keeps the mapped
// address among the host's addresses, so its code's record names it, and a
// joiner who looks the code up then dials it at once: the game is direct
// from the start and plays to its end. Without the mapping the same NAT
// keeps a game relayed (relayedGame).
func TestInternetUPnP(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("miniupnpd"); err != nil {
		t.Skip("miniupnpd is not installed (scripts/deps.sh --test installs it)")
	}
	w := newWorldPrefixed(t, "up-")
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	iw := newInternetWorldWith(ctx, w, 12, "")
	home, upnp := upnpHome(w, iw.wan, "natu", 9, "10.89.0")
	const turns = 200
	began := time.Now()
	host := w.run(home, "host-u", hostArgs("internet-u", 2, turns, iw.internetArgs()...)...)
	code := w.waitEv(ctx, host, "invite").Str("code")
	published := time.Since(began)
	// The mapping comes a few seconds after the first record (the router
	// is found by SSDP): wait for the router to grant it, then for a record
	// published after that.
	mapped := awaitMappings(ctx, w, upnp)
	rec := w.wait(ctx, host, func(l peerproc.Line) bool {
		return l.Ev() == "internet" && l.Str("step") == "published" && l.Int("unix_ms") > mapped.UnixMilli()
	})
	t.Logf("FIGURE code out %v after the host started; a record naming %d direct addresses %v after it",
		published.Round(time.Millisecond), rec.Int("direct"), time.Since(began).Round(time.Millisecond))
	join := w.run(iw.join, "join-u", joinArgs("join-u", append([]string{"--invite", code}, iw.internetArgs()...)...)...)
	joined := time.Now()
	peers := []*peerproc.Proc{host, join}
	for _, p := range peers {
		w.waitEv(ctx, p, "start")
	}
	t.Logf("FIGURE the game started %v after the joiner did", time.Since(joined).Round(time.Millisecond))
	w.survive(peers, turns, 0, 60*time.Second)
	for _, p := range peers {
		switch relayed, direct := pathTimes(p); {
		case relayed == 0:
			t.Logf("%s: direct at once", p.Name)
		case direct == 0:
			t.Errorf("%s: the game ran over a relay; with a port mapping it should go direct", p.Name)
		default:
			t.Errorf("%s: relayed at first, direct %d ms later; the record named the mapped address, so the joiner should have dialled it at once", p.Name, direct-relayed)
		}
	}
}

// awaitMappings waits until miniupnpd granted a TCP and a UDP port
// mapping to libp2p, and returns when it saw that.
func awaitMappings(ctx context.Context, w *world, upnp *peerproc.Proc) time.Time {
	w.t.Helper()
	for {
		log := upnp.Stderr()
		if strings.Contains(log, "protocol TCP for: libp2p") && strings.Contains(log, "protocol UDP for: libp2p") {
			return time.Now()
		}
		select {
		case <-ctx.Done():
			w.t.Fatalf("miniupnpd granted no TCP and UDP mapping to libp2p:\n%s", tail(log, 2000))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// upnpHome makes a home network behind a router on the public switch (at
// host wanHost) whose NAT is symmetric and which runs miniupnpd; it
// returns the namespace of a machine on that network and the miniupnpd
// process.
func upnpHome(w *world, wan *netns.Switch, name string, wanHost int, lanPrefix string) (*netns.NS, *peerproc.Proc) {
	w.t.Helper()
	router, lan, err := w.lab.Router(name, wan, wanHost, lanPrefix)
	w.must(err)
	wanDev, lanDev := devWith(w, router, "11.0.0."), devWith(w, router, lanPrefix+".")
	for _, args := range [][]string{
		// Symmetric: a new port for each destination.
		{"iptables", "-t", "nat", "-F", "POSTROUTING"},
		{"iptables", "-t", "nat", "-A", "POSTROUTING", "-s", lanPrefix + ".0/24", "-j", "MASQUERADE", "--random-fully"},
	} {
		_, err := router.Output(args...)
		w.must(err)
	}
	upnp := runMiniupnpd(w, router, name, wanDev, lanDev, lanPrefix)
	ns, err := w.lab.Namespace("home-" + name)
	w.must(err)
	_, err = lan.Plug(ns)
	w.must(err)
	w.must(ns.Gateway(lanPrefix + ".1"))
	return ns, upnp
}

// devWith is the device of ns whose IPv4 address starts with prefix.
func devWith(w *world, ns *netns.NS, prefix string) string {
	w.t.Helper()
	out, err := ns.Output("ip", "-o", "-4", "addr", "show")
	w.must(err)
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 4 && strings.HasPrefix(f[3], prefix) {
			return f[1]
		}
	}
	w.t.Fatalf("no device of %s has an address in %s*:\n%s", ns.Name, prefix, out)
	return ""
}
