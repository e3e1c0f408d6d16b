package main

import (
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hostfall/internal/netns"
	"hostfall/internal/peerproc"
	"hostfall/internal/xvfb"
)

// migrationShot is where TestWindowPeerHostKilled keeps what the window
// showed while the host changed.
const migrationShot = "testdata/e2e/migration-window.png"

// One window peer (join without --headless, on an Xvfb display) and three
// headless peers, each in a network namespace of its own on one switch; a
// headless peer hosts and gets SIGKILL mid-game. The window peer finds the
// session by its name (mDNS), the headless ones by the host's address. Every
// survivor sees the killed host replaced (other hand-overs, from a live host
// on a starved machine, are figures), the window shows the banner (the
// real X screen is captured, kept in testdata and its pixels checked), the
// game ends with one hash on every survivor, every survivor's replay
// verifies and a damaged copy is refused.
func TestWindowPeerHostKilled(t *testing.T) {
	t.Parallel() // a display and namespaces of its own
	l := newWindowLab(t, "hfwin-", "10.77.0")
	bin, display, env := l.bin, l.display, l.env
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	const turns = 500
	// start runs hostfall args… as name in a namespace of its own on the switch.
	start := func(name string, env []string, args ...string) *peerproc.Proc {
		t.Helper()
		return l.start(name, name, env, args...)
	}
	host := start("host", env("host"), "host", "--headless", "--name", "e2e-window", "--player", "Hosty", "--players", "4",
		"--turns", fmt.Sprint(turns), "--size", "64", "--level", "easy", "--status-json")
	hostID, addr := hostAddr(t, ctx, host)
	// Xvfb listens on a socket file, which every namespace reaches.
	win := start("window", append(env("window"), "DISPLAY="+display), "join", "--session", "e2e-window", "--player", "Win",
		"--status-json", "--exit-at-end", "--mute", "--fps", "20")
	peers := []*peerproc.Proc{win}
	for _, name := range []string{"j1", "j2"} {
		peers = append(peers, start(name, env(name), "join", "--headless", "--addr", addr, "--player", name,
			"--level", "easy", "--status-json"))
	}
	if _, err := host.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "turn" && l.Int("turn") >= 160 }); err != nil {
		t.Fatal(err)
	}
	host.Kill()

	// The window's hand-over from the killed host (a starved host may have
	// been replaced before: that one is a figure).
	if _, err := win.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "host_changed" && l.Str("old") == hostID }); err != nil {
		t.Fatal(err)
	}
	// The status line comes from the client's pump; the banner from the
	// next frame, for 6 s. Capture until it shows, 6 s at most (a loaded
	// machine draws late).
	var img *image.RGBA
	var err error
	seen := time.Now()
	for deadline := seen.Add(6 * time.Second); ; {
		if img, err = xvfb.Capture(display); err != nil {
			t.Fatal(err)
		}
		if err = checkHostBanner(img); err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	saveShot(t, img, migrationShot, "at the hand-over")
	if err != nil {
		t.Errorf("%v (the capture is logged above)", err)
	} else {
		t.Logf("FIGURE window: the banner captured %v after the host_changed line", time.Since(seen).Round(time.Millisecond))
	}

	var endHash string
	for _, p := range peers {
		if err := p.Exit(90 * time.Second); err != nil {
			t.Fatalf("%s: %v\n%s", p.Name, err, p.Stderr())
		}
		checkHandOver(t, p, hostID, turns)
		checkEnd(t, p, turns, &endHash)
		verifyReplayOf(t, bin, p)
	}
	refuseDamagedReplay(t, bin, win)
}

// windowLab is the LAN of a window test: an X display, the hostfall
// binary, and network namespaces on one switch; each player has a data dir
// and an identity of its own.
type windowLab struct {
	t                 *testing.T
	display, bin, dir string
	lab               *netns.Lab
	sw                *netns.Switch
	ns                map[string]*netns.NS
	ip                map[string]string
}

// newWindowLab sets a window test's LAN up (namespaces named prefix…,
// addresses subnet.N), or skips the test where it cannot run.
func newWindowLab(t *testing.T, prefix, subnet string) *windowLab {
	t.Helper()
	display := windowDisplay(t)
	if _, err := exec.LookPath("xwd"); err != nil {
		t.Skip("xwd (x11-apps) is not installed; run scripts/deps.sh")
	}
	l := &windowLab{t: t, display: display, bin: buildBinary(t), dir: t.TempDir(), ns: map[string]*netns.NS{}, ip: map[string]string{}}
	var err error
	if l.lab, err = netns.NewPrefixed(prefix); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.lab.Close)
	if l.sw, err = l.lab.Switch("sw", subnet); err != nil {
		t.Fatal(err)
	}
	return l
}

// env is what makes a process player name: its data dir and identity.
func (l *windowLab) env(name string) []string { return playerEnv(l.dir, name) }

// start runs hostfall args… as label in namespace ns (made and plugged into
// the switch on first use), listening on its address; it is killed when
// the test ends.
func (l *windowLab) start(label, ns string, env []string, args ...string) *peerproc.Proc {
	t := l.t
	t.Helper()
	n := l.netns(ns)
	args = append(args, "--listen", "/ip4/"+l.ip[ns]+"/tcp/0", "--listen", "/ip4/"+l.ip[ns]+"/udp/0/quic-v1")
	p, err := peerproc.Start(label, n.Argv(append([]string{l.bin}, args...)...), env...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	return p
}

// netns returns namespace name, made and plugged into the switch on
// first use.
func (l *windowLab) netns(name string) *netns.NS {
	t := l.t
	t.Helper()
	if l.ns[name] == nil {
		n, err := l.lab.Namespace(name)
		if err != nil {
			t.Fatal(err)
		}
		link, err := l.sw.Plug(n)
		if err != nil {
			t.Fatal(err)
		}
		l.ns[name], l.ip[name] = n, link.IP
	}
	return l.ns[name]
}

// window runs hostfall args… in a window on the lab's display as player
// name (lower case: its namespace, data dir and identity, kept from start
// to start); label names the process in the test's output.
func (l *windowLab) window(name, label string, args ...string) *peerproc.Proc {
	return l.start(name+"-"+label, name, append(l.env(name), "DISPLAY="+l.display), args...)
}

var updateShot = flag.Bool("update", false, "rewrite the captures in testdata/e2e ("+migrationShot+", "+rejoinShot+") with this run's")

// saveShot keeps the screen for a person to look at: in the test's artifact
// directory (as render's screenshot tests do), and at shot (in testdata)
// with -update; when says what it shows.
func saveShot(t *testing.T, img image.Image, shot, when string) {
	t.Helper()
	path := filepath.Join(t.ArtifactDir(), filepath.Base(shot))
	if *updateShot {
		path = shot
	}
	defer t.Logf("the window's screen %s: %s", when, path)
	if err := xvfb.WritePNG(path, img); err != nil {
		t.Fatal(err)
	}
}

// checkHostBanner finds the hand-over banner where render/overlays.go draws
// it on a 1024×768 window with the network panel hidden: a box centred at
// the top, below the top bar (y 40 to 74), its left edge a stripe of the
// accent colour, light text inside on a dark ground.
func checkHostBanner(img *image.RGBA) error { return checkBanner(img, 250, 204, 21) }

// checkBanner finds the first banner, as checkHostBanner does, with a
// stripe of colour (r, g, b).
func checkBanner(img *image.RGBA, r, g, b int) error { return checkBannerAt(img, 40, r, g, b) }

// checkBannerAt finds a banner whose box starts at row y.
func checkBannerAt(img *image.RGBA, y, r, g, b int) error {
	top, bottom := y+4, y+30
	accent := func(c color.RGBA) bool { return near(c, r, g, b, 24) }
	left := -1
	for x := 0; x < 512 && left < 0; x++ {
		if columnIs(img, x, top, bottom, accent) {
			left = x
		}
	}
	if left < 0 {
		return fmt.Errorf("no banner: no accent stripe on the left half of rows %d to %d", top, bottom)
	}
	box := image.Rect(left+8, top, 1024-left-8, bottom)
	if w := box.Dx(); w < 300 {
		return fmt.Errorf("the banner is %d px wide; the hand-over text needs more", w)
	}
	text, dark := 0, 0
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			c := img.RGBAAt(x, y)
			switch sum := int(c.R) + int(c.G) + int(c.B); {
			case sum > 420:
				text++
			case sum < 150:
				dark++
			}
		}
	}
	if text < box.Dx() {
		return fmt.Errorf("banner %v: %d text pixels, want at least %d", box, text, box.Dx())
	}
	if area := box.Dx() * box.Dy(); dark < area/2 {
		return fmt.Errorf("banner %v: %d of %d pixels dark, want the box's ground", box, dark, area)
	}
	return nil
}

func columnIs(img *image.RGBA, x, y0, y1 int, ok func(color.RGBA) bool) bool {
	for y := y0; y < y1; y++ {
		if !ok(img.RGBAAt(x, y)) {
			return false
		}
	}
	return true
}

func near(c color.RGBA, r, g, b, tol int) bool {
	d := func(a uint8, b int) bool { return int(a)-b <= tol && b-int(a) <= tol }
	return d(c.R, r) && d(c.G, g) && d(c.B, b)
}

// refuseDamagedReplay flips a byte in a copy of p's replay: verification
// fails with a sentence that says the file is damaged.
func refuseDamagedReplay(t *testing.T, bin string, p *peerproc.Proc) {
	t.Helper()
	rp := peerproc.ReplayPaths(p)
	if len(rp) == 0 {
		t.Fatalf("%s printed no replay path", p.Name)
	}
	data, err := os.ReadFile(rp[0])
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x10
	bad := filepath.Join(t.TempDir(), "damaged.hfr")
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "replay", "--headless", "--verify", bad).CombinedOutput()
	if err == nil {
		t.Fatalf("a damaged replay verified:\n%s", out)
	}
	if !strings.Contains(strings.ToLower(string(out)), "damaged") {
		t.Errorf("the refusal of a damaged replay does not say so: %v\n%s", err, out)
	}
	t.Logf("damaged replay refused: %s", strings.TrimSpace(string(out)))
}
