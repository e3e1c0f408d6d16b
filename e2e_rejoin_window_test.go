package main

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hostfall/internal/peerproc"
	"hostfall/internal/xvfb"
)

// rejoinShot is where TestWindowRejoinButton keeps what the window showed
// once the player was back in the game.
const rejoinShot = "testdata/e2e/rejoin-window.png"

// Where render lays out a 1024×768 window (render/input_test.go pins the
// button): the browser's Rejoin button, and the game screen's top bar.
var (
	rejoinButton = image.Pt(552, 130)
	rejoinStripe = image.Rect(32, 108, 35, 152) // the rejoin bar's accent stripe
)

// A window peer (join, in a namespace of its own) plays against a headless
// host; its process is killed (SIGKILL) mid-game and started again as the
// window alone, with no game named: the browser. Its bar offers to rejoin
// the game; the test clicks Rejoin as a person would (XTEST), the window
// goes to the game screen in the player's own slot, with its units and its
// resources in the top bar (not "Watching") and a banner saying it is back
// in the game, the host marks the slot back,
// and an order given with the mouse (a box selection, a right-click) is
// applied by the host for that slot: the player controls its units again.
func TestWindowRejoinButton(t *testing.T) {
	t.Parallel() // a display and namespaces of its own
	lab := newWindowLab(t, "hfrj-", "10.79.0")
	display, env, start := lab.display, lab.env, lab.start
	// A bound on a stuck test, not a speed target: at load 22 the whole
	// test took over 3 minutes (the kill, the restart, the rejoin, the order).
	ctx, cancel := context.WithTimeout(t.Context(), 8*time.Minute)
	defer cancel()
	// HOSTFALL_TRACE: the host prints every command it applies, with its slot.
	host := start("host", "host", append(env("host"), "HOSTFALL_TRACE=1"), "host", "--headless", "--name", "comeback",
		"--player", "Hosty", "--players", "2", "--turns", "12000", "--size", "64", "--level", "easy", "--status-json")
	_, addr := hostAddr(t, ctx, host)
	winEnv := append(env("window"), "DISPLAY="+display)
	win := start("window", "window", winEnv, "join", "--addr", addr, "--player", "Win", "--status-json", "--mute", "--fps", "20")
	slot := killMidGame(t, ctx, host, win, 60, filepath.Join(lab.dir, "data-window"))

	// The window again, with nothing named: the lobby browser.
	browser := start("browser", "window", winEnv, "--mute", "--fps", "20")
	img, err := captureUntil(display, 30*time.Second, func(img *image.RGBA) error {
		if !columnIs(img, rejoinStripe.Min.X+1, rejoinStripe.Min.Y, rejoinStripe.Max.Y, accentish) {
			return fmt.Errorf("no rejoin bar at %v", rejoinStripe)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, browser.Stderr())
	}
	if err := xvfb.WritePNG(filepath.Join(t.ArtifactDir(), "rejoin-browser.png"), img); err != nil {
		t.Fatal(err)
	}
	// The host has marked the slot away by now (3 s after the kill), so its
	// return is a line of its own.
	if _, err := host.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "player_away" && l.Int("slot") == slot }); err != nil {
		t.Fatal(err)
	}
	ptr, err := xvfb.OpenPointer(display)
	if err != nil {
		t.Fatal(err)
	}
	defer ptr.Close()
	clicked := time.Now()
	if err := ptr.Click(rejoinButton.X, rejoinButton.Y, xvfb.ButtonLeft); err != nil {
		t.Fatal(err)
	}
	back, err := host.Wait(ctx, func(l peerproc.Line) bool { return l.Ev() == "player_back" && l.Int("slot") == slot })
	if err != nil {
		t.Fatalf("the host never marked slot %d back: %v\n%s", slot, err, browser.Stderr())
	}
	t.Logf("slot %d is back at turn %d, %v after the click", slot, back.Int("turn"), time.Since(clicked).Round(time.Millisecond))

	// The game screen, the player's own: its units, its resources, and the
	// banner that says the player is back.
	img, err = captureUntil(display, 20*time.Second, func(img *image.RGBA) error {
		if err := checkOwnGame(img, slot); err != nil {
			return err
		}
		return checkBanner(img, 74, 222, 128) // render's colGood
	})
	saveShot(t, img, rejoinShot, "back in the game")
	if err != nil {
		for _, l := range host.Lines() {
			if l.Ev() != "cmd_applied" && l.Ev() != "traffic" {
				t.Logf("host: %v", l)
			}
		}
		t.Fatalf("%v (the capture is logged above)\n%s", err, browser.Stderr())
	}

	// An order: a box around the player's units at the centre of the view,
	// then a right-click away from them. The host applies it for the slot.
	// A window starved of CPU may take the box for a click; as a person
	// would, the player tries again (up to 4 times, each given 45 s).
	var applied peerproc.Line
	for try := 1; ; try++ {
		if err := ptr.Drag(300, 150, 724, 560); err != nil {
			t.Fatal(err)
		}
		ordered := time.Now()
		if err := ptr.Click(150, 200, xvfb.ButtonRight); err != nil {
			t.Fatal(err)
		}
		wctx, wcancel := context.WithTimeout(ctx, 45*time.Second)
		applied, err = host.Wait(wctx, func(l peerproc.Line) bool {
			return l.Ev() == "cmd_applied" && l.Int("slot") == slot && l.Int("turn") > back.Int("turn")
		})
		wcancel()
		if err == nil {
			t.Logf("FIGURE the host applied the order of slot %d at turn %d, %v after the right-click (try %d)", slot, applied.Int("turn"), time.Since(ordered).Round(time.Millisecond), try)
			break
		}
		if try == 4 || ctx.Err() != nil || strings.Contains(err.Error(), "exited") {
			for _, l := range host.Lines() {
				if l.Ev() != "cmd_applied" && l.Ev() != "traffic" && l.Ev() != "turn" {
					t.Logf("host: %v", l)
				}
			}
			t.Fatalf("the host applied no order of slot %d after it came back (%d tries): %v\n%s", slot, try, err, lastBytes(browser.Stderr(), 3000))
		}
	}
	if left := host.Find("player_left"); len(left) > 0 {
		t.Errorf("players left the game: %v", left)
	}
}

// captureUntil captures the screen until check accepts it, for d at most;
// it returns the last capture and check's last complaint. A capture that
// fails is tried again (a window that closes while xwd reads the screen
// fails it).
func captureUntil(display string, d time.Duration, check func(*image.RGBA) error) (*image.RGBA, error) {
	deadline := time.Now().Add(d)
	var last *image.RGBA
	for {
		img, err := xvfb.Capture(display)
		if err == nil {
			last, err = img, check(img)
		}
		if err == nil || time.Now().After(deadline) {
			return last, err
		}
		time.Sleep(300 * time.Millisecond)
	}
}

func accentish(c color.RGBA) bool { return near(c, 250, 204, 21, 24) }

// checkOwnGame checks the game screen of the player in slot (its colour is
// the slot's by default) on a 1024×768 window: the top bar shows the
// player's resources and unit count (a spectator's says "Watching" and
// nothing more), and units of the player's colour are drawn around the
// centre of the view, where the camera starts (the player's base).
func checkOwnGame(img *image.RGBA, slot int64) error {
	// The top bar (28 px): "N units · M buildings" in grey, after the gold
	// and the supply, 130 to 300 px from the left.
	text := 0
	for y := 4; y < 24; y++ {
		for x := 130; x < 300; x++ {
			if c := img.RGBAAt(x, y); c.R > 110 && c.G > 110 && c.B > 110 {
				text++
			}
		}
	}
	if text < 80 {
		return fmt.Errorf("the top bar shows %d text pixels where the player's unit count goes: a spectator's screen, or no game", text)
	}
	colors := [][3]int{{59, 130, 246}, {239, 68, 68}, {34, 197, 94}, {234, 179, 8}}
	want := colors[slot%int64(len(colors))]
	own := 0
	for y := 150; y < 560; y++ {
		for x := 300; x < 724; x++ {
			if near(img.RGBAAt(x, y), want[0], want[1], want[2], 30) {
				own++
			}
		}
	}
	if own < 300 {
		return fmt.Errorf("%d pixels of the player's colour %v around the centre of the view, want its base and units", own, want)
	}
	return nil
}

// lastBytes is the end of s, at most n bytes of it.
func lastBytes(s string, n int) string { return s[max(0, len(s)-n):] }
