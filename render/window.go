package render

import (
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"time"

	"github.com/gopxl/pixel/v2"
	"github.com/gopxl/pixel/v2/backends/opengl"

	"hostfall/render/ui"
)

// ErrNoDisplay is returned when there is no X display to open a window on.
var ErrNoDisplay = errors.New("no display: the game window needs an X display (DISPLAY is not set); " +
	"run it on a desktop, or under a virtual one: xvfb-run -a -s \"-screen 0 1024x768x24\" hostfall")

// CheckDisplay reports whether a window can be opened. pixel panics instead
// of failing when GLFW finds no display, so callers check first. (GLFW is
// built for X11 here; Wayland desktops provide DISPLAY through XWayland.)
func CheckDisplay() error {
	if os.Getenv("DISPLAY") == "" {
		return ErrNoDisplay
	}
	return nil
}

// Open runs the window on the main OS thread (GLFW wants it) until it
// closes, the player quits or ctx ends: Run inside opengl.Run. opengl.Run
// panics when GLFW cannot start (a DISPLAY that does not answer): that
// becomes an error a person can read.
func Open(ctx context.Context, c Client, o Options) (err error) {
	if err := CheckDisplay(); err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot open the game window (is the X display %q reachable?): %v", os.Getenv("DISPLAY"), r)
		}
	}()
	opengl.Run(func() { err = Run(ctx, c, o) })
	return err
}

// keyMap maps pixel's keys to the UI's.
var keyMap = map[pixel.Button]ui.Key{
	pixel.KeyEscape: ui.KeyEscape, pixel.KeyEnter: ui.KeyEnter, pixel.KeyKPEnter: ui.KeyEnter,
	pixel.KeyBackspace: ui.KeyBackspace, pixel.KeyTab: ui.KeyTab, pixel.KeySpace: ui.KeySpace,
	pixel.KeyUp: ui.KeyUp, pixel.KeyDown: ui.KeyDown, pixel.KeyLeft: ui.KeyLeft, pixel.KeyRight: ui.KeyRight,
	pixel.KeyHome: ui.KeyHome, pixel.KeyF1: ui.KeyF1, pixel.KeyF3: ui.KeyF3, pixel.KeyF10: ui.KeyF10,
	pixel.KeyLeftShift: ui.KeyShift, pixel.KeyRightShift: ui.KeyShift,
	pixel.KeyLeftControl: ui.KeyCtrl, pixel.KeyRightControl: ui.KeyCtrl,
	pixel.KeyLeftAlt: ui.KeyAlt, pixel.KeyRightAlt: ui.KeyAlt,
	pixel.KeyEqual: ui.KeyPlus, pixel.KeyKPAdd: ui.KeyPlus, pixel.KeyMinus: ui.KeyMinus, pixel.KeyKPSubtract: ui.KeyMinus,
}

func init() {
	for i := range 26 {
		keyMap[pixel.KeyA+pixel.Button(i)] = ui.KeyA + ui.Key(i)
	}
	for i := range 10 {
		keyMap[pixel.Key0+pixel.Button(i)] = ui.Key0 + ui.Key(i)
	}
}

var mouseMap = [ui.NumButtons]pixel.Button{ui.MouseLeft: pixel.MouseButtonLeft, ui.MouseRight: pixel.MouseButtonRight, ui.MouseMiddle: pixel.MouseButtonMiddle}

// sampleInput reads the window's input of this frame into an Input.
func sampleInput(win *opengl.Window, now, last time.Time) ui.Input {
	h := win.Bounds().H()
	m := win.MousePosition()
	in := ui.Input{Now: now, Mouse: ui.V(m.X, h-m.Y), MouseIn: win.MouseInsideWindow(), Scroll: win.MouseScroll().Y, Typed: win.Typed()}
	if !last.IsZero() {
		in.DT = min(now.Sub(last).Seconds(), 0.1)
	}
	for b, p := range mouseMap {
		in.Down[b], in.Pressed[b], in.Released[b] = win.Pressed(p), win.JustPressed(p), win.JustReleased(p)
	}
	for pk, k := range keyMap {
		if win.Pressed(pk) {
			in.Keys[k] = true
		}
		if win.JustPressed(pk) || (k == ui.KeyBackspace && win.Repeated(pk)) {
			in.Hit[k] = true
		}
	}
	if in.Ctrl() && in.Hit[ui.KeyV] {
		// Ctrl+V pastes into the focused field as if typed (invite codes
		// are long; nobody should type one).
		in.Typed += ui.Pasteable(win.ClipboardText())
	}
	return in
}

// Screenshot returns what the window shows now (call it after drawing a
// frame and before Window.Update swaps it away).
func Screenshot(win *opengl.Window) *image.RGBA {
	return canvasImage(win.Canvas())
}

// canvasImage copies a canvas into an image: OpenGL's rows come bottom-up and
// alpha-premultiplied; images are top-down (and image.RGBA premultiplied too).
func canvasImage(c *opengl.Canvas) *image.RGBA {
	b := c.Bounds()
	w, h := int(b.W()), int(b.H())
	pix := c.Pixels()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	stride := w * 4
	for y := range h {
		copy(img.Pix[y*stride:(y+1)*stride], pix[(h-1-y)*stride:(h-y)*stride])
	}
	return img
}
