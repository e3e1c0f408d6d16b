package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
)

// The NAT matrix: pairs of home networks, each behind a router of a NAT
// kind, with or without a UPnP router (miniupnpd) and with or without
// IPv6 behind a stateful firewall, on the simulated public network of
// TestInternetShortCode. For each pair a host publishes a short code and a
// joiner finds it (natmatrix_peer_test.go): did the joiner's connection go
// direct, how long after it started, over which transport and IP version.
// TestNATMatrix runs a few pairs in make test; TestBenchNATMatrix all of
// them in make bench (scripts/bench.d/natmatrix.sh), with the table of
// docs/ARCHITECTURE.md.

// natKind is how a home router maps and filters.
type natKind int

const (
	// fullCone keeps the port and lets anyone in to it (the matrix peers'
	// port is forwarded: endpoint-independent filtering).
	fullCone natKind = iota
	// addrRestricted keeps the port and lets in an address the home has
	// sent to, from any port (iptables' recent match remembers it).
	addrRestricted
	// portRestricted keeps the port and lets in only replies from the
	// exact address and port sent to (Linux conntrack as it is).
	portRestricted
	// symmetric picks a new random port per destination (MASQUERADE
	// --random-fully).
	symmetric
)

func (k natKind) String() string {
	return [...]string{"full cone", "address-restricted", "port-restricted", "symmetric"}[k]
}

// homeSpec is one home network's router.
type homeSpec struct {
	nat  natKind
	upnp bool // miniupnpd on the router (UPnP-IGD, NAT-PMP/PCP)
	v6   bool // a public IPv6 address, behind a stateful firewall
}

func (s homeSpec) String() string {
	out := s.nat.String()
	if s.upnp {
		out += " +UPnP"
	}
	if s.v6 {
		out += " +IPv6"
	}
	return out
}

// matrixPair is one row of the matrix: the host's home, the joiner's, and
// the transports the peers listen on ("" both, "tcp" or "quic" alone).
type matrixPair struct {
	host, join homeSpec
	only       string
}

func (p matrixPair) String() string {
	s := p.host.String() + " ↔ " + p.join.String()
	if p.only != "" {
		s += " (" + p.only + " only)"
	}
	return s
}

// canGoDirect is what theory says: a mapping on either side or IPv6 on
// both opens a way; else hole punching works unless one side is symmetric
// and the other filters by port (or is symmetric too), since the port the
// symmetric side uses towards the other is not the one the other learnt.
func (p matrixPair) canGoDirect() bool {
	if p.host.upnp || p.join.upnp || (p.host.v6 && p.join.v6) {
		return true
	}
	a, b := p.host.nat, p.join.nat
	if a > b {
		a, b = b, a
	}
	return !(b == symmetric && a >= portRestricted)
}

// pairResult is what the joiner reported.
type pairResult struct {
	pair      matrixPair
	direct    bool
	atOnce    bool // direct with no relayed connection first
	ms        int64
	transport string
	ip        string
	err       string
}

// fullMatrix: every pair of NAT kinds, plain, with UPnP routers on both
// sides and with IPv6 on both; the asymmetric cases of symmetric NATs; and
// TCP and QUIC punching apart.
func fullMatrix() []matrixPair {
	var out []matrixPair
	kinds := []natKind{fullCone, addrRestricted, portRestricted, symmetric}
	for _, variant := range []homeSpec{{}, {upnp: true}, {v6: true}} {
		for i, a := range kinds {
			for _, b := range kinds[i:] {
				out = append(out, matrixPair{host: homeSpec{a, variant.upnp, variant.v6}, join: homeSpec{b, variant.upnp, variant.v6}})
			}
		}
	}
	sym, symU, sym6 := homeSpec{nat: symmetric}, homeSpec{nat: symmetric, upnp: true}, homeSpec{nat: symmetric, v6: true}
	out = append(out,
		matrixPair{host: symU, join: sym}, matrixPair{host: sym, join: symU}, matrixPair{host: sym6, join: sym},
		matrixPair{host: homeSpec{nat: portRestricted}, join: homeSpec{nat: portRestricted}, only: "tcp"},
		matrixPair{host: homeSpec{nat: portRestricted}, join: homeSpec{nat: portRestricted}, only: "quic"},
		matrixPair{host: homeSpec{nat: addrRestricted}, join: sym, only: "tcp"},
		matrixPair{host: homeSpec{nat: addrRestricted}, join: sym, only: "quic"},
	)
	return out
}

// TestNATMatrix runs four pairs of the matrix at once: hole punching
// between two port-restricted NATs, two symmetric NATs (only a relay), the
// same with a UPnP router on the host's side, and with IPv6 on both sides.
// Every pair that can go direct must; the one that cannot must not claim
// to. Times are figures.
func TestNATMatrix(t *testing.T) {
	t.Parallel()
	pr, sym := homeSpec{nat: portRestricted}, homeSpec{nat: symmetric}
	pairs := []matrixPair{
		{host: pr, join: pr},
		{host: sym, join: sym},
		{host: homeSpec{nat: symmetric, upnp: true}, join: sym},
		{host: homeSpec{nat: symmetric, v6: true}, join: homeSpec{nat: symmetric, v6: true}},
	}
	for _, r := range runMatrix(t, "nm-", pairs, len(pairs)) {
		checkPair(t, r)
	}
}

// TestBenchNATMatrix runs the whole matrix (scripts/bench.d/natmatrix.sh
// runs it with benchEnv set), prints its table and:
//
//	BenchmarkNATMatrix 1 <n> direct <of> pairs <p50> ms-p50 <p90> ms-p90 <t> tcp <q> quic <v6> ipv6
//
// direct: pairs whose joiner reached the host directly; times: from the
// joiner's start to its first direct connection, over the direct pairs;
// tcp, quic, ipv6: how many direct connections were of each.
func TestBenchNATMatrix(t *testing.T) {
	if os.Getenv(benchEnv) == "" {
		t.Skip("opt-in: network benchmark; scripts/bench.d/natmatrix.sh runs it with " + benchEnv + "=1")
	}
	results := runMatrix(t, "nmb-", matrixPairs(t, fullMatrix()), 3)
	var ms []float64
	direct, tcp, quic, v6 := 0, 0, 0, 0
	fmt.Println("| host's home | joiner's home | direct | time to direct | transport | can go direct |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, r := range results {
		checkPair(t, r)
		how, took, over := "no (relay)", "–", "–"
		if r.direct {
			direct++
			ms = append(ms, float64(r.ms))
			how = "punched"
			if r.atOnce {
				how = "at once"
			}
			took, over = fmt.Sprintf("%d ms", r.ms), r.transport+"/"+r.ip
			switch r.transport {
			case "tcp":
				tcp++
			case "quic":
				quic++
			}
			if r.ip == "ipv6" {
				v6++
			}
		}
		if r.err != "" {
			how = "error"
		}
		p := r.pair
		hs, js := p.host.String(), p.join.String()
		if p.only != "" {
			js += " (" + p.only + " only)"
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %v |\n", hs, js, how, took, over, p.canGoDirect())
	}
	fmt.Printf("BenchmarkNATMatrix 1 %d direct %d pairs %.0f ms-p50 %.0f ms-p90 %d tcp %d quic %d ipv6\n",
		direct, len(results), peerproc.Percentile(ms, 50), peerproc.Percentile(ms, 90), tcp, quic, v6)
}

// matrixPairsEnv, when set, is a regular expression: TestBenchNATMatrix
// then runs only the pairs whose name (as its table prints them, e.g.
// "port-restricted ↔ port-restricted (quic only)") it matches.
const matrixPairsEnv = "HFLAN_MATRIX_PAIRS"

// matrixPairs is pairs, filtered by matrixPairsEnv.
func matrixPairs(t *testing.T, pairs []matrixPair) []matrixPair {
	expr := os.Getenv(matrixPairsEnv)
	if expr == "" {
		return pairs
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		t.Fatalf("%s: %v", matrixPairsEnv, err)
	}
	out := slices.DeleteFunc(pairs, func(p matrixPair) bool { return !re.MatchString(p.String()) })
	if len(out) == 0 {
		t.Fatalf("%s=%q matches no pair of the matrix", matrixPairsEnv, expr)
	}
	return out
}

// checkPair: a pair that can go direct did; one that cannot did not (a
// direct connection there would mean the NAT is not what it claims).
func checkPair(t *testing.T, r pairResult) {
	t.Helper()
	switch {
	case r.err != "":
		t.Errorf("%v: the joiner failed: %s", r.pair, r.err)
	case r.direct != r.pair.canGoDirect():
		t.Errorf("%v: direct %v, want %v", r.pair, r.direct, r.pair.canGoDirect())
	case r.direct:
		t.Logf("FIGURE %v: direct after %d ms over %s/%s (at once: %v)", r.pair, r.ms, r.transport, r.ip, r.atOnce)
	default:
		t.Logf("%v: relayed only, as expected", r.pair)
	}
}

// runMatrix runs the pairs, parallel at a time, on one simulated public
// network, and returns their results in order.
func runMatrix(t *testing.T, prefix string, pairs []matrixPair, parallel int) []pairResult {
	if slices.ContainsFunc(pairs, func(p matrixPair) bool { return p.host.upnp || p.join.upnp }) {
		if _, err := exec.LookPath("miniupnpd"); err != nil {
			t.Skip("miniupnpd is not installed (scripts/deps.sh --test installs it)")
		}
	}
	if len(pairs) > 40 { // routers at 11.0.0.20–99, again at .150–249
		t.Fatalf("%d pairs: the public switch has room for 40", len(pairs))
	}
	w := newWorldPrefixed(t, prefix)
	ctx, cancel := context.WithTimeout(t.Context(), time.Duration(len(pairs)/parallel+2)*90*time.Second)
	defer cancel()
	iw := newInternetWorldQUIC(ctx, w, 8, "", true)
	results := make([]pairResult, len(pairs))
	sem := make(chan struct{}, parallel)
	var setup sync.Mutex // the public switch numbers its ports one at a time
	var wg sync.WaitGroup
	for i, p := range pairs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			// A punch that misses (a loaded machine can stall a peer
			// past its timing) gets two more tries in fresh homes.
			r := runPair(ctx, w, iw, &setup, 20+2*i, p)
			for try := 2; try <= 3 && r.err == "" && !r.direct && p.canGoDirect(); try++ {
				w.t.Logf("FIGURE %v: not direct; try %d", p, try)
				r = runPair(ctx, w, iw, &setup, 150+2*i, p)
			}
			results[i] = r
		})
	}
	wg.Wait()
	return results
}

// confirmWait bounds how long a host with a way in (a full cone, a port
// mapping) takes to publish a record naming its direct address.
const confirmWait = 45 * time.Second

// runPair builds the pair's two homes (routers at 11.0.0.n and n+1), runs
// its host and joiner, and takes them down.
func runPair(ctx context.Context, w *world, iw *internetWorld, setup *sync.Mutex, n int, p matrixPair) pairResult {
	res := pairResult{pair: p}
	lab, err := netns.NewPrefixed(fmt.Sprintf("nmp%d-", n))
	if err != nil {
		res.err = err.Error()
		return res
	}
	defer lab.Close()
	setup.Lock()
	hostHome, hostUPnP := matrixHome(w, lab, iw.wan, "h", n, p.host)
	joinHome, _ := matrixHome(w, lab, iw.wan, "j", n+1, p.join)
	if p.host.v6 && p.join.v6 {
		route6(w, hostHome, joinHome)
	}
	setup.Unlock()
	self, err := os.Executable()
	w.must(err)
	boot := strings.Join(append(slices.Clone(iw.addrs[:2]), iw.quic[:2]...), ",")
	env := []string{matrixBootEnv + "=" + boot, matrixListenEnv + "=" + p.only}
	tag := fmt.Sprint(n)
	host := w.start("mhost"+tag, hostHome.machine.Argv(self), append(env, matrixPeerEnv+"=host")...)
	defer host.Kill()
	pub, err := host.WaitEv(ctx, "published")
	if err != nil {
		res.err = "the host published nothing: " + err.Error()
		return res
	}
	if hostUPnP != nil || p.host.nat == fullCone {
		// A record that names the host's direct address, as a joiner a
		// little later finds: the host publishes a public IPv4 address
		// once AutoNAT v2 found it reachable (after the mapping, with UPnP).
		after := int64(0)
		if hostUPnP != nil {
			after = awaitMappings(ctx, w, hostUPnP).UnixMilli()
		}
		dctx, cancel := context.WithTimeout(ctx, confirmWait)
		_, err := host.Wait(dctx, func(l peerproc.Line) bool {
			return l.Ev() == "published" && l.Int("unix_ms") > after && l.Int("direct") > 0
		})
		cancel()
		if err != nil {
			res.err = "no record naming a direct address: " + err.Error()
			return res
		}
	}
	join := w.start("mjoin"+tag, joinHome.machine.Argv(self), append(env, matrixPeerEnv+"=join", matrixCodeEnv+"="+pub.Str("code"))...)
	defer join.Kill()
	rctx, cancel := context.WithTimeout(ctx, directWait+time.Minute)
	defer cancel()
	r, err := join.WaitEv(rctx, "result")
	switch {
	case err != nil:
		res.err = "no result: " + err.Error()
	case r.Str("error") != "":
		res.err = r.Str("error")
	default:
		res.direct, res.atOnce = r.Bool("direct"), r.Bool("direct") && !r.Bool("relayed_first")
		res.ms, res.transport, res.ip = r.Int("ms"), r.Str("transport"), r.Str("ip")
	}
	return res
}

// start runs argv as a process of the world (killed at its end).
func (w *world) start(name string, argv []string, env ...string) *peerproc.Proc {
	w.t.Helper()
	p, err := peerproc.Start(name, argv, env...)
	w.must(err)
	w.mu.Lock()
	w.procs = append(w.procs, p)
	w.mu.Unlock()
	return p
}

// home is a machine in a home network and its router.
type home struct {
	machine *netns.NS
	router  *netns.NS
	wanDev  string
	wanIP6  string
	lan6    string // the home's IPv6 /64, "" without IPv6
}

// matrixHome makes a home network of spec behind a router on the public
// switch at host number n, with one machine in it; it returns the home
// and its miniupnpd process (nil without UPnP).
func matrixHome(w *world, lab *netns.Lab, wan *netns.Switch, name string, n int, spec homeSpec) (*home, *peerproc.Proc) {
	w.t.Helper()
	lanPrefix := fmt.Sprintf("10.%d.0", n)
	router, lan, err := lab.Router("r"+name, wan, n, lanPrefix)
	w.must(err)
	ns, err := lab.Namespace("m" + name)
	w.must(err)
	_, err = lan.Plug(ns)
	w.must(err)
	w.must(ns.Gateway(lanPrefix + ".1"))
	h := &home{machine: ns, router: router, wanDev: devWith(w, router, "11.0.0.")}
	lanDev := devWith(w, router, lanPrefix+".")
	machine := lanPrefix + ".2"
	var cmds [][]string
	forward := func(extra ...string) {
		for _, proto := range []string{"tcp", "udp"} {
			rule := append([]string{"iptables", "-t", "nat", "-A", "PREROUTING", "-i", h.wanDev, "-p", proto, "--dport", fmt.Sprint(matrixPort)}, extra...)
			cmds = append(cmds, append(rule, "-j", "DNAT", "--to-destination", fmt.Sprintf("%s:%d", machine, matrixPort)))
		}
		cmds = append(cmds, []string{"iptables", "-I", "FORWARD", "1", "-i", h.wanDev, "-m", "conntrack", "--ctstate", "DNAT", "-j", "ACCEPT"})
	}
	switch spec.nat {
	case fullCone:
		forward()
	case addrRestricted:
		cmds = append(cmds, []string{"iptables", "-t", "mangle", "-A", "FORWARD", "-o", h.wanDev, "-m", "recent", "--name", "hfsent", "--rdest", "--set"})
		forward("-m", "recent", "--name", "hfsent", "--rsource", "--rcheck")
	case symmetric:
		cmds = append(cmds,
			[]string{"iptables", "-t", "nat", "-F", "POSTROUTING"},
			[]string{"iptables", "-t", "nat", "-A", "POSTROUTING", "-o", h.wanDev, "-j", "MASQUERADE", "--random-fully"})
	}
	if spec.v6 {
		h.wanIP6 = fmt.Sprintf("2a0f:11::%d", n)
		h.lan6 = fmt.Sprintf("2a0f:11:%d::", n)
		cmds = append(cmds,
			[]string{"sysctl", "-qw", "net.ipv6.conf.all.forwarding=1"},
			[]string{"ip", "-6", "addr", "add", h.wanIP6 + "/64", "dev", h.wanDev, "nodad"},
			[]string{"ip", "-6", "addr", "add", h.lan6 + "1/64", "dev", lanDev, "nodad"},
			// A stateful firewall: answers in, nothing new.
			[]string{"ip6tables", "-A", "FORWARD", "-i", h.wanDev, "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT"},
			[]string{"ip6tables", "-A", "FORWARD", "-i", h.wanDev, "-j", "DROP"})
	}
	for _, args := range cmds {
		_, err := router.Output(args...)
		w.must(err)
	}
	if spec.v6 {
		m6 := h.lan6 + "2"
		for _, args := range [][]string{
			{"ip", "-6", "addr", "add", m6 + "/64", "dev", devWith(w, ns, lanPrefix+"."), "nodad"},
			{"ip", "-6", "route", "add", "default", "via", h.lan6 + "1"},
		} {
			_, err := ns.Output(args...)
			w.must(err)
		}
	}
	var upnp *peerproc.Proc
	if spec.upnp {
		upnp = runMiniupnpd(w, router, name+fmt.Sprint(n), h.wanDev, lanDev, lanPrefix)
	}
	return h, upnp
}

// route6 routes each home's IPv6 network through its router's public
// address, from the other router.
func route6(w *world, a, b *home) {
	w.t.Helper()
	for _, pair := range [][2]*home{{a, b}, {b, a}} {
		_, err := pair[0].router.Output("ip", "-6", "route", "add", pair[1].lan6+"/64", "via", pair[1].wanIP6)
		w.must(err)
	}
}

// runMiniupnpd starts miniupnpd on router (its chains in the legacy
// iptables tables, which Debian's miniupnpd-iptables writes) and returns it.
func runMiniupnpd(w *world, router *netns.NS, name, wanDev, lanDev, lanPrefix string) *peerproc.Proc {
	w.t.Helper()
	for _, args := range [][]string{
		// A mapped port lets new connections in, as a home router does.
		{"iptables", "-I", "FORWARD", "1", "-i", wanDev, "-m", "conntrack", "--ctstate", "DNAT", "-j", "ACCEPT"},
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
	return w.start("miniupnpd-"+name, router.Argv("miniupnpd", "-d", "-f", conf, "-P", filepath.Join(w.dir, name+".pid")))
}
