package deploy

import (
	"errors"
	"flag"
	"fmt"
	stdimage "image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hostfall/internal/wine"
	"hostfall/internal/xvfb"
)

var updateShots = flag.Bool("update", false, "write the Wine window's screenshots to testdata/wine")

// The release's Windows game opens its window under Wine on a virtual X
// display (Mesa's llvmpipe through Wine's OpenGL): the lobby browser when
// started alone, as a double-click starts it, and a game against bots with
// `play --offline`. Each screen is captured, kept (testdata/wine with
// -update, else the test's artifact directory) and its pixels checked.
func TestWindowsWindowUnderWine(t *testing.T) {
	t.Parallel()
	wine.Skip(t)
	display, stop, err := xvfb.Start()
	if errors.Is(err, xvfb.ErrNotInstalled) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	exe := wine.Build(t)
	// A prefix of its own: a wineserver that a headless test of the shared
	// prefix started has no X display for this program (GLFW did not start
	// on the first window, in three CI runs).
	p := wine.NewPrefix(t)
	cfg := t.TempDir()
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"how_to_seen": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"DISPLAY=" + display, "HOSTFALL_CONFIG=" + cfg, "HOSTFALL_DATA=" + t.TempDir(),
		"HOSTFALL_IDENTITY=" + filepath.Join(cfg, "id.key")}
	for _, s := range []struct {
		shot  string
		args  []string
		check func(*stdimage.RGBA) error
	}{
		{"testdata/wine/browser.png", []string{"--mute", "--offline"}, checkBrowser},
		{"testdata/wine/game.png", []string{"play", "--offline", "--mute"}, checkGame},
	} {
		img, took, err := windowShows(t, p.Command(exe, s.args...), display, env, s.check)
		for try := 2; err != nil && strings.Contains(err.Error(), "GLFW library is not initialized") && try <= 3; try++ {
			// Wine's X11 driver on the test machine sometimes gives the
			// first window no display (GLFW on Windows has none to lose);
			// the next start shows it. Started again, as a player would,
			// and counted.
			t.Logf("FIGURE hostfall.exe %v under Wine: GLFW did not start; start %d", s.args, try)
			img, took, err = windowShows(t, p.Command(exe, s.args...), display, env, s.check)
		}
		keepShot(t, img, s.shot)
		if err != nil {
			t.Errorf("hostfall.exe %v under Wine: %v (the screen is kept above)", s.args, err)
			continue
		}
		t.Logf("hostfall.exe %v under Wine showed its screen %v after the start", s.args, took.Round(100*time.Millisecond))
	}
}

// windowShows starts cmd and captures the screen every half second until
// check accepts it, 90 s at most (Wine and llvmpipe on a loaded machine);
// the process is killed after.
func windowShows(t *testing.T, cmd *exec.Cmd, display string, env []string, check func(*stdimage.RGBA) error) (*stdimage.RGBA, time.Duration, error) {
	t.Helper()
	cmd.Env = append(cmd.Env, env...)
	stderr := new(limitedBuffer)
	cmd.Stderr = stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		cmd.Process.Kill()
		<-exited
	}()
	var img *stdimage.RGBA
	err := errors.New("no capture")
	for deadline := start.Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		select {
		case werr := <-exited:
			exited <- werr
			return img, 0, fmt.Errorf("the program ended (%v) before its window showed; stderr:\n%s", werr, stderr)
		default:
		}
		if img, err = xvfb.Capture(display); err != nil {
			t.Fatal(err)
		}
		if err = check(img); err == nil {
			return img, time.Since(start), nil
		}
	}
	return img, 0, fmt.Errorf("%v after 90 s; stderr:\n%s", err, stderr)
}

// keepShot writes img to shot with -update, else to the artifact directory.
func keepShot(t *testing.T, img stdimage.Image, shot string) {
	t.Helper()
	if img == nil {
		return
	}
	path := filepath.Join(t.ArtifactDir(), filepath.Base(shot))
	if *updateShots {
		path = shot
	}
	if err := xvfb.WritePNG(path, img); err != nil {
		t.Fatal(err)
	}
	t.Logf("the screen: %s", path)
}

// checkBrowser finds the lobby browser: its two background blues cover
// most of the window and the gold title is drawn.
func checkBrowser(img *stdimage.RGBA) error {
	ground := share(img, func(c color.RGBA) bool { return near(c, 18, 22, 30, 4) || near(c, 30, 36, 48, 4) })
	gold := count(img, func(c color.RGBA) bool { return near(c, 250, 204, 21, 12) })
	if ground < 0.4 || gold < 300 {
		return fmt.Errorf("not the browser: %.0f %% of the screen is its background (want 40 %%), %d pixels its gold title (want 300)", 100*ground, gold)
	}
	return nil
}

// checkGame finds a game screen: grass covers part of the map view and
// the HUD's panel colour is drawn.
func checkGame(img *stdimage.RGBA) error {
	grass := share(img, func(c color.RGBA) bool { return int(c.G) > int(c.R)+25 && int(c.G) > int(c.B)+35 })
	panel := share(img, func(c color.RGBA) bool { return near(c, 30, 36, 48, 4) })
	if grass < 0.05 || panel < 0.03 {
		return fmt.Errorf("not a game: %.1f %% grass (want 5 %%), %.1f %% HUD panel (want 3 %%)", 100*grass, 100*panel)
	}
	return nil
}

func count(img *stdimage.RGBA, ok func(color.RGBA) bool) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if ok(img.RGBAAt(x, y)) {
				n++
			}
		}
	}
	return n
}

func share(img *stdimage.RGBA, ok func(color.RGBA) bool) float64 {
	return float64(count(img, ok)) / float64(img.Bounds().Dx()*img.Bounds().Dy())
}

func near(c color.RGBA, r, g, b, tol int) bool {
	d := func(a uint8, b int) bool { return int(a)-b <= tol && b-int(a) <= tol }
	return d(c.R, r) && d(c.G, g) && d(c.B, b)
}

// limitedBuffer keeps the first 64 KiB written to it; the process writes
// while the test may read.
type limitedBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := 64<<10 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}
