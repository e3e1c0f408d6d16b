package xvfb

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// On a virtual display the pointer goes where Move puts it, and a click and
// a drag are taken (the server answers each event with no X error).
func TestPointer(t *testing.T) {
	p, err := OpenPointer(startDisplay(t))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, at := range [][2]int{{100, 200}, {1023, 0}, {512, 384}} {
		if err := p.Move(at[0], at[1]); err != nil {
			t.Fatal(err)
		}
		if x, y, err := p.Position(); err != nil || x != at[0] || y != at[1] {
			t.Fatalf("the pointer is at (%d, %d), %v; want %v", x, y, err, at)
		}
	}
	if err := p.Click(10, 10, ButtonRight); err != nil {
		t.Fatal(err)
	}
	if err := p.Drag(10, 10, 50, 60); err != nil {
		t.Fatal(err)
	}
	if x, y, _ := p.Position(); x != 50 || y != 60 {
		t.Fatalf("after the drag the pointer is at (%d, %d)", x, y)
	}
}

// startDisplay starts Xvfb for the test (stopped when it ends), or skips
// the test where Xvfb is not installed.
func startDisplay(t *testing.T) string {
	t.Helper()
	display, stop, err := Start()
	if errors.Is(err, ErrNotInstalled) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return display
}

// On a display with no window, a process's window is not found, and the
// answer says so; a key is typed without an X error.
func TestWindowsWithoutAWindow(t *testing.T) {
	display := startDisplay(t)
	w, err := OpenWindows(display)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if win, err := w.OfProcess(os.Getpid()); err == nil || !strings.Contains(err.Error(), "no window of process") {
		t.Fatalf("OfProcess on an empty display: window %#x, %v", win, err)
	}
	p, err := OpenPointer(display)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Key(KeyEscape); err != nil {
		t.Fatal(err)
	}
}
