package main

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"path/filepath"
	"testing"
	"time"

	"hostfall/internal/peerproc"
	"hostfall/internal/xvfb"
	"hostfall/settings"
)

// Where things are (render's optionsButton and optionsLayout.set) on a
// 1024×768 window and on an 800×600 one.
type optionsSpots struct {
	open, masterDown, smaller, full, save image.Point
	masterBar                             image.Rectangle
}

var (
	spots1024 = optionsSpots{open: image.Pt(1024-32-60, 39), masterDown: image.Pt(241, 188), smaller: image.Pt(241, 400),
		full: image.Pt(271, 364), save: image.Pt(706, 649), masterBar: image.Rect(264, 182, 264+152, 194)}
	spots800 = optionsSpots{open: image.Pt(800-32-60, 39), masterDown: image.Pt(155, 120), smaller: image.Pt(155, 332),
		full: image.Pt(185, 296), save: image.Pt(568, 549), masterBar: image.Rect(178, 114, 178+126, 126)}
)

// The real program on an X display, its settings in a config dir of the
// test's. In a 1024×768 window the browser's Options button opens the
// options; the master volume goes down a step and the window to 800×600,
// at once; Save writes the file. A second start opens an 800×600 window
// whose options show the master volume as saved; full screen takes the
// screen at once, and is saved.
func TestSettingsSurviveARestart(t *testing.T) {
	if testing.Short() {
		t.Skip("a window process; skipped with -short")
	}
	display, stopX, err := xvfb.Start()
	if errors.Is(err, xvfb.ErrNotInstalled) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stopX)
	bin, dir := buildBinary(t), t.TempDir()
	cfg := filepath.Join(dir, "config")
	env := append(playerEnv(dir, "ann"), "DISPLAY="+display, "HOSTFALL_CONFIG="+cfg)
	ptr, err := xvfb.OpenPointer(display)
	if err != nil {
		t.Fatal(err)
	}
	defer ptr.Close()
	click := func(at image.Point) {
		t.Helper()
		if err := ptr.Click(at.X, at.Y, 1); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond) // a few frames
	}
	file := filepath.Join(cfg, "settings.json")

	p := startBrowser(t, bin, env)
	screenShows(t, display, "the browser", browserAt(1024))
	clickUntil(t, display, ptr, spots1024.open, "the options", masterAt(spots1024, 80))
	click(spots1024.masterDown)
	click(spots1024.smaller)
	screenShows(t, display, "the options in a window of 800×600", masterAt(spots800, 75))
	click(spots800.save)
	screenShows(t, display, "the browser in a window of 800×600", browserAt(800))
	if s := settings.Load(file, nil); s.Volume.Master != 75 || s.Width != 800 || s.Height != 600 || s.Fullscreen {
		t.Fatalf("the settings file holds %+v; want master 75, 800×600", s)
	}
	p.Kill()

	p = startBrowser(t, bin, env)
	defer p.Kill()
	screenShows(t, display, "the browser again, 800×600", browserAt(800))
	img := clickUntil(t, display, ptr, spots800.open, "the saved options", masterAt(spots800, 75))
	saveShot(t, img, "testdata/e2e/options-restarted.png", "after the restart")
	click(spots800.full)
	screenShows(t, display, "the options in full screen", masterAt(spots1024, 75))
	clickUntil(t, display, ptr, spots1024.save, "the browser in full screen", browserAt(1024))
	if s := settings.Load(file, nil); !s.Fullscreen || s.Volume.Master != 75 {
		t.Fatalf("the settings file holds %+v; want full screen, master 75", s)
	}
}

// clickUntil clicks at until the screen shows what check wants, five
// times at most. A window that has just come up (or gone full screen)
// sometimes misses a click: seen before the idle screens waited for input
// too, in about one start of three under Xvfb.
func clickUntil(t *testing.T, display string, ptr *xvfb.Pointer, at image.Point, what string, check func(*image.RGBA) error) *image.RGBA {
	t.Helper()
	for try := 1; ; try++ {
		if err := ptr.Click(at.X, at.Y, 1); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		img, err := xvfb.Capture(display)
		if err == nil {
			if err = check(img); err == nil {
				return img
			}
		}
		if try == 5 {
			if img != nil {
				saveShot(t, img, "testdata/e2e/options-failed.png", "when it failed")
			}
			t.Fatalf("%s, after %d clicks: %v", what, try, err)
		}
		t.Logf("%s: click %d at %v not taken yet (%v)", what, try, at, err)
	}
}

func startBrowser(t *testing.T, bin string, env []string) *peerproc.Proc {
	t.Helper()
	p, err := peerproc.Start("browser", []string{bin, "--offline", "--mute", "--fps", "20"}, env...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	return p
}

// screenShows captures the display until check passes, 20 s at most, and
// returns the capture.
func screenShows(t *testing.T, display, what string, check func(*image.RGBA) error) *image.RGBA {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		// xwd fails now and then while a window changes size: try again.
		img, err := xvfb.Capture(display)
		if err == nil {
			if err = check(img); err == nil {
				return img
			}
		}
		if time.Now().After(deadline) {
			if img != nil {
				saveShot(t, img, "testdata/e2e/options-failed.png", "when it failed")
			}
			t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func accentPx(c color.RGBA) bool { return near(c, 250, 204, 21, 30) }

// browserAt: the browser in a window w pixels wide: the title HOSTFALL in
// the accent colour top left, the Options button top right (and nothing
// beyond the window's right edge).
func browserAt(w int) func(*image.RGBA) error {
	return func(img *image.RGBA) error {
		if n := countPx(img, image.Rect(32, 28, 220, 60), accentPx); n < 150 {
			return fmt.Errorf("%d accent pixels where the title goes", n)
		}
		button := func(c color.RGBA) bool { return near(c, 44, 54, 72, 12) || near(c, 70, 86, 114, 12) }
		if n := countPx(img, image.Rect(w-32-110, 26, w-32-10, 32), button); n < 200 {
			return fmt.Errorf("%d pixels of the Options button at the right of a %d-wide window", n, w)
		}
		return nil
	}
}

// masterAt: the master volume's bar, where sp has it, is filled (accent)
// to pct %, within a step of 5.
func masterAt(sp optionsSpots, pct int) func(*image.RGBA) error {
	return func(img *image.RGBA) error {
		r := sp.masterBar
		mid := (r.Min.Y + r.Max.Y) / 2
		filled := 0
		for x := r.Min.X + 1; x < r.Max.X-1; x++ {
			if accentPx(img.RGBAAt(x, mid)) {
				filled++
			}
		}
		if got := filled * 100 / (r.Dx() - 2); got < pct-3 || got > pct+2 {
			return fmt.Errorf("the master volume's bar is %d%% full, want %d%%", got, pct)
		}
		return nil
	}
}

func countPx(img *image.RGBA, r image.Rectangle, pred func(color.RGBA) bool) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if pred(img.RGBAAt(x, y)) {
				n++
			}
		}
	}
	return n
}
