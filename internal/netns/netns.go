// Package netns builds small networks of Linux network namespaces for
// multi-process tests: switches (a bridge in a namespace of its own), hosts
// plugged into them, NAT routers, and link impairment with tc netem.
//
// Everything it creates is named with the prefix "hflan-<pid>-" (namespaces)
// or "hflan" (interfaces, which all live inside those namespaces), so nothing
// touches the machine's own network. A Lab removes its namespaces in
// Cleanup; New first sweeps namespaces left by processes that died.
// It needs root (CAP_NET_ADMIN) and the ip, tc and iptables commands.
package netns

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Prefix starts the name of every namespace this package creates.
const Prefix = "hflan-"

// Usable says why namespaces cannot be made here ("" when they can).
func Usable() string {
	if os.Geteuid() != 0 {
		return "network namespace tests need root (CAP_NET_ADMIN); CI runs them as root"
	}
	for _, tool := range []string{"ip", "tc", "iptables"} {
		if _, err := exec.LookPath(tool); err != nil {
			return tool + " is not installed (scripts/deps.sh installs iproute2 and iptables)"
		}
	}
	return ""
}

// Lab is one test's set of namespaces.
type Lab struct {
	tag string // "<prefix><pid>-<lab>-", e.g. "hflan-<pid>-<lab>-"

	mu     sync.Mutex
	spaces []*NS
}

var labSeq struct {
	sync.Mutex
	n int
}

// New sweeps leftovers of dead processes and starts an empty lab. Call
// Close when done (t.Cleanup(lab.Close)).
func New() (*Lab, error) { return NewPrefixed(Prefix) }

// NewPrefixed is New for another area's tests: its namespaces' names start
// with prefix (e.g. "hfwin-") instead of Prefix.
func NewPrefixed(prefix string) (*Lab, error) {
	if why := Usable(); why != "" {
		return nil, errors.New(why)
	}
	sweep(prefix)
	labSeq.Lock()
	labSeq.n++
	n := labSeq.n
	labSeq.Unlock()
	return &Lab{tag: fmt.Sprintf("%s%d-%d-", prefix, os.Getpid(), n)}, nil
}

// NS is one network namespace.
type NS struct {
	Name string // the namespace's name (ip netns)
	lab  *Lab
	ifn  int // interfaces made inside it so far
}

// Switch is a bridge living in a namespace of its own.
type Switch struct {
	NS     *NS
	Bridge string
	Prefix string // "10.1.0" of a /24: hosts get .1, .2, …
	next   int
}

// Link is one end of a veth pair inside a namespace.
type Link struct {
	NS  *NS
	Dev string
	IP  string // address without the prefix length
}

// Namespace creates an empty namespace with its loopback up.
func (l *Lab) Namespace(name string) (*NS, error) {
	ns := &NS{Name: l.tag + name, lab: l}
	if err := run("ip", "netns", "add", ns.Name); err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.spaces = append(l.spaces, ns)
	l.mu.Unlock()
	if err := ns.ip("link", "set", "lo", "up"); err != nil {
		return nil, err
	}
	return ns, nil
}

// Switch creates a bridge for the /24 network prefix ("10.1.0").
func (l *Lab) Switch(name, prefix string) (*Switch, error) {
	ns, err := l.Namespace(name)
	if err != nil {
		return nil, err
	}
	sw := &Switch{NS: ns, Bridge: "hflanbr", Prefix: prefix}
	if err := ns.ip("link", "add", sw.Bridge, "type", "bridge"); err != nil {
		return nil, err
	}
	// Forward at once (no STP listening delay) and flood multicast: no
	// IGMP querier runs here, so snooping would starve mDNS.
	for _, kv := range [][2]string{{"forward_delay", "0"}, {"multicast_snooping", "0"}} {
		if err := writeSys(ns, "/sys/class/net/"+sw.Bridge+"/bridge/"+kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	if err := ns.ip("link", "set", sw.Bridge, "multicast", "on", "up"); err != nil {
		return nil, err
	}
	return sw, nil
}

// Plug connects ns to the switch with a veth pair and gives it the next
// address of the switch's /24. The link can carry mDNS: MULTICAST is on
// and 224.0.0.0/4 is routed to it (the first link of ns gets the route).
func (sw *Switch) Plug(ns *NS) (*Link, error) {
	sw.next++
	ip := fmt.Sprintf("%s.%d", sw.Prefix, sw.next)
	return sw.plugAs(ns, ip)
}

// PlugIP is Plug with a chosen host number (ip = prefix.host); later Plugs
// number after it.
func (sw *Switch) PlugIP(ns *NS, host int) (*Link, error) {
	sw.next = max(sw.next, host)
	return sw.plugAs(ns, fmt.Sprintf("%s.%d", sw.Prefix, host))
}

func (sw *Switch) plugAs(ns *NS, ip string) (*Link, error) {
	outer := sw.NS.newDev()
	inner := ns.newDev()
	if err := run("ip", "link", "add", outer, "netns", sw.NS.Name, "type", "veth", "peer", "name", inner, "netns", ns.Name); err != nil {
		return nil, err
	}
	if err := sw.NS.ip("link", "set", outer, "master", sw.Bridge, "up"); err != nil {
		return nil, err
	}
	if err := ns.ip("addr", "add", ip+"/24", "dev", inner); err != nil {
		return nil, err
	}
	if err := ns.ip("link", "set", inner, "multicast", "on", "up"); err != nil {
		return nil, err
	}
	// One multicast route per namespace: the first link carries mDNS
	// queries (the browser picks interfaces itself).
	_ = ns.ip("route", "add", "224.0.0.0/4", "dev", inner)
	return &Link{NS: ns, Dev: inner, IP: ip}, nil
}

// Router makes a NAT router: a namespace with a WAN link on wan (at host
// number wanHost) and a LAN switch of its own for lanPrefix, where it is .1.
// It masquerades LAN traffic behind its WAN address and drops new inbound
// connections, as a home router does. Hosts plugged into the returned
// switch must call Gateway.
func (l *Lab) Router(name string, wan *Switch, wanHost int, lanPrefix string) (*NS, *Switch, error) {
	r, err := l.Namespace(name)
	if err != nil {
		return nil, nil, err
	}
	wl, err := wan.PlugIP(r, wanHost)
	if err != nil {
		return nil, nil, err
	}
	lan, err := l.Switch(name+"-lan", lanPrefix)
	if err != nil {
		return nil, nil, err
	}
	if _, err := lan.PlugIP(r, 1); err != nil {
		return nil, nil, err
	}
	for _, args := range [][]string{
		{"sysctl", "-qw", "net.ipv4.ip_forward=1"},
		{"iptables", "-t", "nat", "-A", "POSTROUTING", "-o", wl.Dev, "-j", "MASQUERADE"},
		{"iptables", "-A", "INPUT", "-i", wl.Dev, "-m", "conntrack", "--ctstate", "NEW", "-j", "DROP"},
		{"iptables", "-A", "FORWARD", "-i", wl.Dev, "-m", "conntrack", "--ctstate", "NEW", "-j", "DROP"},
	} {
		if _, err := r.Output(args...); err != nil {
			return nil, nil, err
		}
	}
	return r, lan, nil
}

// Gateway routes everything not on ns's own links through ip.
func (ns *NS) Gateway(ip string) error { return ns.ip("route", "add", "default", "via", ip) }

// Command prepares argv to run inside ns.
func (ns *NS) Command(argv ...string) *exec.Cmd {
	return exec.Command("ip", append([]string{"netns", "exec", ns.Name}, argv...)...)
}

// Argv is argv wrapped to run inside ns (for runners that take an argv).
func (ns *NS) Argv(argv ...string) []string {
	return append([]string{"ip", "netns", "exec", ns.Name}, argv...)
}

// Output runs argv inside ns and returns its output.
func (ns *NS) Output(argv ...string) (string, error) {
	out, err := ns.Command(argv...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("netns %s: %s: %w: %s", ns.Name, strings.Join(argv, " "), err, bytes.TrimSpace(out))
	}
	return string(out), nil
}

// Counters returns the bytes received and sent on dev in ns.
func (ns *NS) Counters(dev string) (rx, tx uint64, err error) {
	out, err := ns.Output("cat", "/sys/class/net/"+dev+"/statistics/rx_bytes", "/sys/class/net/"+dev+"/statistics/tx_bytes")
	if err != nil {
		return 0, 0, err
	}
	f := strings.Fields(out)
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("netns %s: counters of %s: %q", ns.Name, dev, out)
	}
	rx, _ = strconv.ParseUint(f[0], 10, 64)
	tx, _ = strconv.ParseUint(f[1], 10, 64)
	return rx, tx, nil
}

func (ns *NS) ip(args ...string) error {
	return run("ip", append([]string{"-n", ns.Name}, args...)...)
}

// newDev names the next interface made in ns: names live inside the
// namespace, so a counter is unique; the prefix still says who made it.
func (ns *NS) newDev() string {
	ns.lab.mu.Lock()
	defer ns.lab.mu.Unlock()
	ns.ifn++
	return fmt.Sprintf("hflan%d", ns.ifn-1)
}

// Close kills what still runs in the lab's namespaces and deletes them.
func (l *Lab) Close() {
	l.mu.Lock()
	spaces := l.spaces
	l.spaces = nil
	l.mu.Unlock()
	for i := len(spaces) - 1; i >= 0; i-- {
		remove(spaces[i].Name)
	}
}

// Sweep deletes namespaces with the prefix whose creating process is gone
// (a test that crashed or was killed). Namespaces of live processes stay:
// another test binary may be using them.
func Sweep() { sweep(Prefix) }

func sweep(prefix string) {
	out, err := exec.Command("ip", "netns", "list").Output()
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], prefix) {
			continue
		}
		pidStr, _, _ := strings.Cut(strings.TrimPrefix(f[0], prefix), "-")
		if pid, err := strconv.Atoi(pidStr); err == nil && (pid == os.Getpid() || alive(pid)) {
			continue
		}
		remove(f[0])
	}
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// remove kills the processes inside a namespace, then deletes it.
func remove(name string) {
	if out, err := exec.Command("ip", "netns", "pids", name).Output(); err == nil {
		for _, f := range strings.Fields(string(out)) {
			if pid, err := strconv.Atoi(f); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	for try := 0; try < 20; try++ {
		if exec.Command("ip", "netns", "del", name).Run() == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// writeSys writes a sysfs knob as seen from inside ns.
func writeSys(ns *NS, path, value string) error {
	_, err := ns.Output("sh", "-c", "echo "+value+" > "+path)
	return err
}

func run(name string, args ...string) error {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
}

// Do runs fn on an OS thread that is inside ns, so the sockets fn creates
// live in ns (tests: listeners and probes without a process). Goroutines
// that fn starts are not inside ns.
func (ns *NS) Do(fn func() error) error {
	return doIn(ns.Name, fn)
}
