package render

import (
	"flag"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/gopxl/pixel/v2"
	"github.com/gopxl/pixel/v2/backends/opengl"

	"hostfall/internal/xvfb"
)

// pixel must own the main OS thread (opengl.Run), so TestMain runs the
// tests inside it. With no DISPLAY it starts its own Xvfb (Mesa's software
// OpenGL), on a free display number Xvfb picks (-displayfd), and kills it
// at the end. Without Xvfb the window tests skip and say why.

var noWindow string // why window tests skip; "" when a display is up

func TestMain(m *testing.M) {
	flag.Parse()
	stop := func() {}
	if os.Getenv("DISPLAY") == "" {
		display, kill, err := xvfb.Start()
		if err != nil {
			noWindow = err.Error()
		} else {
			os.Setenv("DISPLAY", display)
			stop = kill
		}
	}
	code := 0
	if noWindow != "" {
		fmt.Fprintf(os.Stderr, "render: window tests skip: %s\n", noWindow)
		code = m.Run()
	} else {
		opengl.Run(func() { code = m.Run() })
	}
	stop()
	os.Exit(code)
}

var (
	winOnce sync.Once
	win     *opengl.Window
	winErr  error
)

// testWindow returns the window all tests share (1024×768), or skips.
func testWindow(tb testing.TB) *opengl.Window {
	tb.Helper()
	if noWindow != "" {
		tb.Skip(noWindow)
	}
	winOnce.Do(func() {
		win, winErr = opengl.NewWindow(opengl.WindowConfig{Title: "hostfall test", Bounds: pixel.R(0, 0, 1024, 768)})
	})
	if winErr != nil {
		tb.Fatalf("cannot open a window: %v", winErr)
	}
	return win
}
