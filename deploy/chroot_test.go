package deploy

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
)

// nsPrefix names this package's network namespaces apart from other tests'.
const nsPrefix = "hfsrv-"

// jail is a directory that holds what the relay's image holds (the binary,
// its volume owned by its user) and an empty /tmp for the players' data,
// nothing else: no libc, no /etc, no /dev, no /proc. Processes run in it
// with chroot inside a network namespace of their own (loopback only, so
// the fixed ports of the recipe are free and mDNS reaches nobody), with an
// empty environment but for what is given.
type jail struct {
	t      *testing.T
	root   string
	chroot string // coreutils' chroot
	ns     *netns.NS
	im     image
}

func newJail(t *testing.T, bin string) *jail {
	t.Helper()
	if testing.Short() {
		t.Skip("runs processes in a chroot and a network namespace; skipped with -short")
	}
	if os.Geteuid() != 0 {
		t.Skip("chroot and network namespaces need root")
	}
	if why := netns.Usable(); why != "" {
		t.Skip(why)
	}
	im, err := readImage("relay/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	j := &jail{t: t, root: t.TempDir(), im: im}
	if j.chroot, err = exec.LookPath("chroot"); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(j.root, 0o755); err != nil { // the image's user walks it
		t.Fatal(err)
	}
	j.install(bin)
	lab, err := netns.NewPrefixed(nsPrefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lab.Close)
	if j.ns, err = lab.Namespace("srv"); err != nil {
		t.Fatal(err)
	}
	return j
}

// install lays out the image: the binary where the recipe copies it (and
// its ENTRYPOINT runs it), each volume owned by USER, and /tmp.
func (j *jail) install(bin string) {
	exe := j.im.Entrypoint[0]
	if src, ok := j.im.Copies[exe]; !ok || filepath.Base(src) != "hostfall-server" {
		j.t.Fatalf("the image's ENTRYPOINT runs %s, which the recipe does not copy from the server build (copies: %v)", exe, j.im.Copies)
	}
	copyFile(j.t, bin, filepath.Join(j.root, exe))
	uid, gid := j.owner()
	for _, v := range j.im.Volumes {
		dir := filepath.Join(j.root, v)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			j.t.Fatal(err)
		}
		if err := os.Chown(dir, uid, gid); err != nil {
			j.t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(j.root, "tmp"), 0o777); err != nil {
		j.t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(j.root, "tmp"), 0o1777); err != nil {
		j.t.Fatal(err)
	}
}

// owner is the image's USER, numeric: the image has no /etc/passwd.
func (j *jail) owner() (uid, gid int) {
	u, g, ok := strings.Cut(j.im.User, ":")
	uid, err1 := strconv.Atoi(u)
	gid, err2 := strconv.Atoi(g)
	if !ok || err1 != nil || err2 != nil {
		j.t.Fatalf("the image's USER %q is not numeric uid:gid (a scratch image has no /etc/passwd)", j.im.User)
	}
	return uid, gid
}

// argv is argv run in the jail as user ("" is root), with env alone.
func (j *jail) argv(user string, env []string, argv ...string) []string {
	a := append([]string{"env", "-i"}, env...)
	a = append(a, j.chroot) // a path: env -i leaves no PATH
	if user != "" {
		a = append(a, "--userspec="+user)
	}
	return j.ns.Argv(append(append(a, j.root), argv...)...)
}

// start runs argv in the jail; the process is killed at the test's end.
func (j *jail) start(name, user string, env []string, argv ...string) *peerproc.Proc {
	j.t.Helper()
	p, err := peerproc.Start(name, j.argv(user, env, argv...))
	if err != nil {
		j.t.Fatal(err)
	}
	j.t.Cleanup(p.Kill)
	return p
}

// relay runs the image's ENTRYPOINT as its USER, with --status-json added
// (as `docker run IMAGE --status-json` adds it), and returns the relay's
// TCP multiaddr on loopback.
func (j *jail) relay(ctx context.Context, name string) (*peerproc.Proc, string) {
	j.t.Helper()
	p := j.start(name, j.im.User, nil, append(slices.Clone(j.im.Entrypoint), "--status-json")...)
	l, err := p.WaitEv(ctx, "listening")
	if err != nil {
		j.t.Fatalf("%s: %v\n%s", name, err, p.Stderr())
	}
	var addrs []string
	for _, a := range l["addrs"].([]any) {
		addrs = append(addrs, strings.TrimSuffix(a.(string), "/p2p/"+l.Str("peer")))
	}
	for _, e := range j.im.Expose {
		port, proto, _ := strings.Cut(e, "/")
		want := "/ip4/127.0.0.1/tcp/" + port
		if proto == "udp" {
			want = "/ip4/127.0.0.1/udp/" + port + "/quic-v1"
		}
		if !slices.Contains(addrs, want) {
			j.t.Errorf("the image exposes %s, and the relay does not listen on %s: %v", e, want, addrs)
		}
	}
	return p, "/ip4/127.0.0.1/tcp/4001/p2p/" + l.Str("peer")
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// The server binary runs alone, in a chroot of nothing but itself: the
// relay as the container recipe starts it (its key in the volume, the
// same peer ID after a restart), and a headless game of a host and a
// joiner, bots playing, that meet through the relay: the host holds a
// reservation on it (its invite code names it) and lists the game in its
// directory, where a peer finds it by name; the joiner reaches the host
// through the relay with the invite code. Both play to the turn limit with
// equal hashes, the host's replay verifies in the chroot, and `list`, `sim`
// and `play --headless` run there too.
func TestServerRunsAlone(t *testing.T) {
	t.Parallel()
	j := newJail(t, server(t, "amd64"))
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	started := time.Now()
	relay, relayAddr := j.relay(ctx, "relay")
	t.Logf("relay up in the chroot after %v: %s", time.Since(started).Round(time.Millisecond), relayAddr)
	j.checkKey()

	const turns = 200
	host := j.peer("host", "host", "--name", "alone", "--players", "2", "--turns", fmt.Sprint(turns), "--size", "48",
		"--password", "pw", "--relay", relayAddr)
	invite, err := host.WaitEv(ctx, "invite")
	if err != nil {
		t.Fatalf("host: no invite code, so no reservation on the relay: %v\n%s", err, host.Stderr())
	}
	// The directory answers: a peer that looks the game up by name finds
	// the host. (Its wrong password keeps it out of the game's slots.)
	finder := j.peer("finder", "join", "--session", "alone", "--relay", relayAddr, "--password", "wrong")
	if _, err := finder.WaitEv(ctx, "found"); err != nil {
		t.Fatalf("the relay's directory did not list the game: %v\n%v\n%s", err, finder.Lines(), finder.Stderr())
	}
	finder.Kill()
	join := j.peer("join", "join", "--invite", invite.Str("code"), "--password", "pw")
	var hash string
	for _, p := range []*peerproc.Proc{host, join} {
		if err := p.Exit(90 * time.Second); err != nil {
			t.Fatalf("%s: %v\n%v\n%s", p.Name, err, p.Lines(), p.Stderr())
		}
		end := p.Find("end")
		if len(end) != 1 || end[0].Int("turn") != turns {
			t.Fatalf("%s: end lines %v, want one at turn %d", p.Name, end, turns)
		}
		if h := end[0].Str("hash"); hash == "" {
			hash = h
		} else if h != hash {
			t.Errorf("%s ended with hash %s, the host with %s", p.Name, h, hash)
		}
	}
	paths := map[string]bool{}
	for _, l := range join.Find("path") {
		paths[l.Str("path")] = true
	}
	if !paths["relayed"] {
		t.Errorf("the joiner never reached the host through the relay (paths %v)", paths)
	}
	t.Logf("host and joiner (paths %v) ended at turn %d with hash %s, %v after the relay started", paths, turns, hash, time.Since(started).Round(time.Millisecond))

	replays := host.Find("replay")
	if len(replays) != 1 {
		t.Fatalf("the host printed no replay path")
	}
	j.run(t, "replay", "--headless", "--verify", replays[0].Str("path"))
	j.run(t, "list", "--json", "--timeout", "300ms")
	j.run(t, "sim", "--players", "3", "--size", "48", "--turns", "400", "--status-json")
	j.run(t, "play", "--headless", "--size", "48", "--turns", "200")

	relay.Kill()
	<-relay.Done()
	_, again := j.relay(ctx, "relay again")
	if again != relayAddr {
		t.Errorf("the restarted relay is %s, was %s: its key did not survive in the volume", again, relayAddr)
	}
}

// checkKey checks that the relay keeps its key in the image's volume,
// owned by the image's user.
func (j *jail) checkKey() {
	j.t.Helper()
	st, err := os.Stat(filepath.Join(j.root, j.im.Volumes[0], "relay.key"))
	if err != nil {
		j.t.Fatalf("the relay's key is not in the volume: %v", err)
	}
	if uid, _ := j.owner(); int(st.Sys().(*syscall.Stat_t).Uid) != uid {
		j.t.Errorf("the relay's key belongs to uid %d, not to the image's user %d", st.Sys().(*syscall.Stat_t).Uid, uid)
	}
}

// peer starts a headless peer (a bot plays it) in the jail, with its data
// and identity in the jail's /tmp, listening on loopback.
func (j *jail) peer(name string, args ...string) *peerproc.Proc {
	j.t.Helper()
	env := []string{"HOSTFALL_DATA=/tmp/" + name, "HOSTFALL_IDENTITY=/tmp/" + name + ".key"}
	argv := append([]string{"/hostfall-server"}, args...)
	argv = append(argv, "--headless", "--level", "easy", "--status-json", "--player", name,
		"--listen", "/ip4/127.0.0.1/tcp/0", "--listen", "/ip4/127.0.0.1/udp/0/quic-v1")
	return j.start(name, "", env, argv...)
}

// run runs the server binary in the jail to its end and fails on an error.
func (j *jail) run(t *testing.T, args ...string) {
	t.Helper()
	argv := j.argv("", []string{"HOSTFALL_DATA=/tmp/tool"}, append([]string{"/hostfall-server"}, args...)...)
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		t.Errorf("hostfall-server %s in the chroot: %v\n%s", strings.Join(args, " "), err, out)
		return
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	t.Logf("hostfall-server %s: %s", strings.Join(args, " "), lines[len(lines)-1])
}
