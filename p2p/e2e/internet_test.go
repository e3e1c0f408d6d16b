package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hostfall/internal/codeform"
	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
	"hostfall/p2p/codes"
)

// dhtNodes is the size of the simulated public network.
const dhtNodes = 32

// internetWorld is a simulated public libp2p network (dhtNodes DHT servers
// with the relay service, in one process on one namespace of the public
// switch 11.0.0.0/24) and two home networks behind NAT routers of their own.
type internetWorld struct {
	net        *peerproc.Proc
	wan        *netns.Switch // the public switch
	addrs      []string      // node i's multiaddr
	host, join *netns.NS
	symmetric  *netns.NS                 // behind a NAT that picks a new port per destination: no hole punching
	links      map[*netns.NS]*netns.Link // each home namespace's link to its router
	killFile   string
}

// kill closes bootstrap node 0 and as many others as make half the
// network, sparing the other bootstrap node and the relays named in via
// (the host's: the test is of the lookup, and a game whose every relay
// died would have no way in).
func (iw *internetWorld) kill(ctx context.Context, w *world, via string) []int {
	w.t.Helper()
	victims := []int{0}
	for i := 2; i < len(iw.addrs) && len(victims) < len(iw.addrs)/2; i++ {
		if id := iw.addrs[i][strings.LastIndex(iw.addrs[i], "/")+1:]; !strings.Contains(via, id) {
			victims = append(victims, i)
		}
	}
	var b strings.Builder
	for _, v := range victims {
		fmt.Fprintln(&b, v)
	}
	w.must(os.WriteFile(iw.killFile, []byte(b.String()), 0o644))
	w.must(iw.net.Cmd.Process.Signal(sigKill))
	w.wait(ctx, iw.net, func(l peerproc.Line) bool { return l.Ev() == "killed" })
	return victims
}

// bootstrap is what every peer is given: the first two nodes only.
func (iw *internetWorld) bootstrap() string { return strings.Join(iw.addrs[:2], ",") }

func newInternetWorld(ctx context.Context, w *world) *internetWorld {
	w.t.Helper()
	return newInternetWorldWith(ctx, w, dhtNodes, "")
}

// newInternetWorldWith is a simulated public network of nodes DHT servers
// whose relays limit each relayed connection to limit (dhtLimitEnv; ""
// keeps go-libp2p's default).
func newInternetWorldWith(ctx context.Context, w *world, nodes int, limit string) *internetWorld {
	w.t.Helper()
	wan, err := w.lab.Switch("wan", "11.0.0")
	w.must(err)
	dns, err := w.lab.Namespace("dhtnet")
	w.must(err)
	link, err := wan.PlugIP(dns, 100)
	w.must(err)
	ips := []string{link.IP}
	for i := 1; i < nodes; i++ {
		ip := fmt.Sprintf("11.0.0.%d", 100+i)
		_, err := dns.Output("ip", "addr", "add", ip+"/24", "dev", link.Dev)
		w.must(err)
		ips = append(ips, ip)
	}
	iw := &internetWorld{wan: wan, links: map[*netns.NS]*netns.Link{}}
	for i, side := range []**netns.NS{&iw.host, &iw.join, &iw.symmetric} {
		name := []string{"home-a", "home-b", "home-c"}[i]
		lanPrefix := []string{"10.81.0", "10.82.0", "10.83.0"}[i]
		router, lan, err := w.lab.Router("nat"+name[len(name)-1:], wan, 1+i, lanPrefix)
		w.must(err)
		if side == &iw.symmetric {
			_, err = router.Output("iptables", "-t", "nat", "-F", "POSTROUTING")
			w.must(err)
			_, err = router.Output("iptables", "-t", "nat", "-A", "POSTROUTING", "-s", lanPrefix+".0/24", "-j", "MASQUERADE", "--random-fully")
			w.must(err)
		}
		ns, err := w.lab.Namespace(name)
		w.must(err)
		link, err := lan.Plug(ns)
		w.must(err)
		iw.links[ns] = link
		w.must(ns.Gateway(lanPrefix + ".1"))
		*side = ns
	}
	self, err := os.Executable()
	w.must(err)
	iw.killFile = filepath.Join(w.dir, "dhtnet.kill")
	iw.net, err = peerproc.Start("dhtnet", dns.Argv(self), dhtNetEnv+"="+strings.Join(ips, ","), dhtKillEnv+"="+iw.killFile,
		dhtLimitEnv+"="+limit)
	w.must(err)
	w.mu.Lock()
	w.procs = append(w.procs, iw.net)
	w.mu.Unlock()
	began := time.Now()
	w.waitEv(ctx, iw.net, "ready")
	for _, l := range iw.net.Find("node") {
		iw.addrs = append(iw.addrs, l.Str("addr"))
	}
	w.t.Logf("simulated public network: %d DHT servers with relays, ready in %v", len(iw.addrs), time.Since(began).Round(time.Millisecond))
	return iw
}

// internetArgs are the flags of a peer on the simulated network.
func (iw *internetWorld) internetArgs() []string {
	return []string{"--internet", "--bootstrap", iw.bootstrap()}
}

// TestInternetShortCode plays over a simulated public libp2p network with
// no server of Hostfall's: a host behind NAT publishes its game on the DHT
// under a short code, a joiner behind another NAT that knows only the code
// (and the network's bootstrap addresses) finds it, connects through one
// of the host's relays, and hole punching takes the connection direct.
// Then: a host behind a NAT that defeats hole punching plays over the
// relay; one bootstrap node and half the DHT nodes are closed while the
// joiner looks the code up; a code nobody published, whose game ended, or
// whose host crashed answers "no game with that code" within
// codes.FindTimeout.
func TestInternetShortCode(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	iw := newInternetWorld(ctx, w)

	t.Run("unknown code", func(t *testing.T) { unknownCode(ctx, t, w, iw) })
	t.Run("game", func(t *testing.T) { internetGame(ctx, t, w, iw, "a", false) })
	t.Run("crashed host", func(t *testing.T) { crashedHost(ctx, t, w, iw) })
	t.Run("no hole punching", func(t *testing.T) { relayedGame(ctx, t, w, iw) })
	t.Run("half the network killed", func(t *testing.T) { internetGame(ctx, t, w, iw, "b", true) }) // last: it leaves half a network
}

// relayedGame: the host is behind a NAT that maps every destination to a
// new port, so hole punching cannot go direct; the game plays to its end
// through the public relay, and the players are told what to do about it.
func relayedGame(ctx context.Context, t *testing.T, w *world, iw *internetWorld) {
	const turns = 400 // 20 s: longer than the wait before the warning
	host := w.run(iw.symmetric, "host-c", hostArgs("internet-c", 2, turns, iw.internetArgs()...)...)
	code := w.waitEv(ctx, host, "invite").Str("code")
	join := w.run(iw.join, "join-c", joinArgs("join-c", append([]string{"--invite", code}, iw.internetArgs()...)...)...)
	peers := []*peerproc.Proc{host, join}
	for _, p := range peers {
		w.waitEv(ctx, p, "start")
	}
	w.survive(peers, turns, 0, 90*time.Second)
	for _, p := range peers {
		relayed, direct := pathTimes(p)
		if relayed == 0 || direct != 0 {
			t.Errorf("%s: relayed at %d, direct at %d; want relayed only", p.Name, relayed, direct)
		}
		warned := slices.ContainsFunc(p.Find("internet"), func(l peerproc.Line) bool { return l.Str("step") == "relayed-only" })
		if !warned {
			t.Errorf("%s was not told that its game runs over a public relay", p.Name)
		}
	}
	t.Logf("the game ran over the relay to its end; both players were told")
}

// crashedHost: a host killed (SIGKILL: no last word) right after it
// published its code. Its record lives on for up to 90 s, but its relays
// no longer hold its reservation: a joiner answers "the game with that code
// has ended" at once, not a dial failure.
func crashedHost(ctx context.Context, t *testing.T, w *world, iw *internetWorld) {
	host := w.run(iw.host, "host-x", hostArgs("internet-x", 2, 200, iw.internetArgs()...)...)
	code := w.waitEv(ctx, host, "invite").Str("code")
	host.Kill()
	<-host.Done()
	noGame(t, w, iw, "after-crash", code, "the game with that code has ended")
}

func unknownCode(ctx context.Context, t *testing.T, w *world, iw *internetWorld) {
	noGame(t, w, iw, "nobody", codes.CodeFor("nobody", []byte("nothing")).String(), "check the code")
}

// noGame checks that joining code answers "no game with that code" and
// why within the bound.
func noGame(t *testing.T, w *world, iw *internetWorld, name, code, why string) {
	t.Helper()
	began := time.Now()
	p := w.run(iw.join, name, joinArgs(name, append([]string{"--invite", code}, iw.internetArgs()...)...)...)
	err := p.Exit(codes.FindTimeout + 20*time.Second)
	took := time.Since(began)
	out := p.Stderr()
	for _, l := range p.Lines() {
		out += fmt.Sprint(l)
	}
	t.Logf("%s: code %s answered in %v (exit %v)", name, code, took.Round(time.Millisecond), err)
	if err == nil || !strings.Contains(out, "no game with that code") || !strings.Contains(out, why) {
		t.Fatalf("%s joining %s: exit %v, output:\n%s", name, code, err, tail(out, 2000))
	}
	if took > codes.FindTimeout+5*time.Second { // the process starts and bootstraps first
		t.Errorf("%s: the code took %v to answer; the bound is %v", name, took, codes.FindTimeout)
	}
}

// internetGame plays one game by short code; with kill, the simulated
// network loses half its nodes as the joiner starts its lookup.
func internetGame(ctx context.Context, t *testing.T, w *world, iw *internetWorld, tag string, kill bool) {
	const turns = 200
	host := w.run(iw.host, "host-"+tag, hostArgs("internet-"+tag, 2, turns, iw.internetArgs()...)...)
	inv := w.waitEv(ctx, host, "invite")
	code := inv.Str("code")
	pub := host.Find("internet")
	last := pub[len(pub)-1]
	t.Logf("host published %s through %d relays", code, last.Int("relays"))
	if len(code) > codeform.MaxShort {
		t.Fatalf("the code %q is longer than %d characters", code, codeform.MaxShort)
	}
	began := time.Now()
	join := w.run(iw.join, "join-"+tag, joinArgs("join-"+tag, append([]string{"--invite", code}, iw.internetArgs()...)...)...)
	if kill {
		w.wait(ctx, join, func(l peerproc.Line) bool { return l.Ev() == "internet" && l.Str("step") == "finding" })
		t.Logf("closed nodes %v as the lookup began", iw.kill(ctx, w, last.Str("via")))
	}
	found := w.wait(ctx, join, func(l peerproc.Line) bool { return l.Ev() == "internet" && l.Str("step") == "found" })
	t.Logf("joiner found the code %v after it started (%v)", time.Since(began).Round(time.Millisecond), found)
	peers := []*peerproc.Proc{host, join}
	for _, p := range peers {
		w.waitEv(ctx, p, "start")
	}
	t.Logf("from typing the code to the game's start: %v", time.Since(began).Round(time.Millisecond))
	w.survive(peers, turns, 0, 60*time.Second)
	noGame(t, w, iw, "late-"+tag, code, "has ended") // the host said its last word as it left
	for _, p := range peers {
		relayed, direct := pathTimes(p)
		switch {
		case relayed == 0 && direct == 0:
			t.Logf("%s: no path line (reached directly at once)", p.Name)
		case relayed == 0:
			t.Errorf("%s never reached the other peer through a relay", p.Name)
		case direct == 0:
			t.Logf("%s: hole punching did not go direct; the game ran over the relay", p.Name)
		default:
			t.Logf("%s: relayed at first, direct %d ms later", p.Name, direct-relayed)
		}
	}
}
