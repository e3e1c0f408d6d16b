package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
)

// TestInternetUPnP: a host behind a NAT that maps each destination to a new
// port (symmetric: hole punching cannot go direct, see relayedGame) whose
// router runs Debian's miniupnpd (UPnP-IGD and NAT-PMP). The host asks it
// for a port mapping (go-libp2p's NATPortMap), and the game, joined by its
// code through a relay, goes direct and plays to its end. Without the
// mapping the same NAT keeps a game relayed (relayedGame). Not yet: a
// joiner dialling the mapped address at once (the record does not name it:
// go-libp2p leaves public addresses out of a private host's Addrs).
func TestInternetUPnP(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("miniupnpd"); err != nil {
		t.Skip("miniupnpd is not installed (scripts/deps.sh --test installs it)")
	}
	w := newWorldPrefixed(t, "up-")
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	iw := newInternetWorldWith(ctx, w, 12, "")
	home := upnpHome(w, iw.wan, "natu", 9, "10.89.0")
	const turns = 200
	began := time.Now()
	host := w.run(home, "host-u", hostArgs("internet-u", 2, turns, iw.internetArgs()...)...)
	code := w.waitEv(ctx, host, "invite").Str("code")
	published := time.Since(began)
	join := w.run(iw.join, "join-u", joinArgs("join-u", append([]string{"--invite", code}, iw.internetArgs()...)...)...)
	joined := time.Now()
	peers := []*peerproc.Proc{host, join}
	for _, p := range peers {
		w.waitEv(ctx, p, "start")
	}
	t.Logf("code out %v after the host started; the game started %v after the joiner did",
		published.Round(time.Millisecond), time.Since(joined).Round(time.Millisecond))
	w.survive(peers, turns, 0, 60*time.Second)
	for _, p := range peers {
		switch relayed, direct := pathTimes(p); {
		case relayed == 0:
			t.Logf("%s: direct at once", p.Name)
		case direct == 0:
			t.Errorf("%s: the game ran over a relay; with a port mapping it should go direct", p.Name)
		default:
			t.Logf("%s: relayed at first, direct %d ms later", p.Name, direct-relayed)
		}
	}
}

// upnpHome makes a home network behind a router on the public switch (at
// host wanHost) whose NAT is symmetric and which runs miniupnpd; it
// returns the namespace of a machine on that network.
func upnpHome(w *world, wan *netns.Switch, name string, wanHost int, lanPrefix string) *netns.NS {
	w.t.Helper()
	router, lan, err := w.lab.Router(name, wan, wanHost, lanPrefix)
	w.must(err)
	wanDev, lanDev := devWith(w, router, "11.0.0."), devWith(w, router, lanPrefix+".")
	for _, args := range [][]string{
		// Symmetric: a new port for each destination.
		{"iptables", "-t", "nat", "-F", "POSTROUTING"},
		{"iptables", "-t", "nat", "-A", "POSTROUTING", "-s", lanPrefix + ".0/24", "-j", "MASQUERADE", "--random-fully"},
		// A mapped port lets new connections in, as a home router does.
		{"iptables", "-I", "FORWARD", "1", "-i", wanDev, "-m", "conntrack", "--ctstate", "DNAT", "-j", "ACCEPT"},
		// miniupnpd-iptables writes the legacy tables: its chains.
		{"iptables-legacy", "-t", "nat", "-N", "MINIUPNPD"},
		{"iptables-legacy", "-t", "nat", "-A", "PREROUTING", "-i", wanDev, "-j", "MINIUPNPD"},
		{"iptables-legacy", "-t", "nat", "-N", "MINIUPNPD-POSTROUTING"},
		{"iptables-legacy", "-t", "nat", "-A", "POSTROUTING", "-o", wanDev, "-j", "MINIUPNPD-POSTROUTING"},
		{"iptables-legacy", "-t", "mangle", "-N", "MINIUPNPD"},
		{"iptables-legacy", "-t", "mangle", "-A", "PREROUTING", "-i", wanDev, "-j", "MINIUPNPD"},
		{"iptables-legacy", "-t", "filter", "-N", "MINIUPNPD"},
		{"iptables-legacy", "-t", "filter", "-A", "FORWARD", "-i", wanDev, "!", "-o", wanDev, "-j", "MINIUPNPD"},
	} {
		_, err := router.Output(args...)
		w.must(err)
	}
	conf := filepath.Join(w.dir, name+".conf")
	w.must(os.WriteFile(conf, []byte(strings.Join([]string{
		"ext_ifname=" + wanDev,
		"listening_ip=" + lanDev,
		"enable_natpmp=yes",
		"enable_upnp=yes",
		"secure_mode=yes",
		"system_uptime=yes",
		"uuid=3f1c2b9e-7d4a-4e0b-9a51-6c2d8e0f1a77",
		"allow 1024-65535 " + lanPrefix + ".0/24 1024-65535",
		"deny 0-65535 0.0.0.0/0 0-65535",
		"",
	}, "\n")), 0o644))
	upnp, err := peerproc.Start("miniupnpd-"+name, router.Argv("miniupnpd", "-d", "-f", conf, "-P", filepath.Join(w.dir, name+".pid")))
	w.must(err)
	w.mu.Lock()
	w.procs = append(w.procs, upnp)
	w.mu.Unlock()
	ns, err := w.lab.Namespace("home-" + name)
	w.must(err)
	_, err = lan.Plug(ns)
	w.must(err)
	w.must(ns.Gateway(lanPrefix + ".1"))
	return ns
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
