package render

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopxl/pixel/v2"
	"github.com/gopxl/pixel/v2/backends/opengl"
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
		display, kill, err := startXvfb()
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

// startXvfb starts a virtual X server at 1024×768×24 and returns its display.
func startXvfb() (string, func(), error) {
	path, err := exec.LookPath("Xvfb")
	if err != nil {
		return "", nil, errors.New("DISPLAY is not set and Xvfb is not installed (apt-get install xvfb, or run scripts/deps.sh)")
	}
	r, w, err := os.Pipe()
	if err != nil {
		return "", nil, err
	}
	defer r.Close()
	var stderr bytes.Buffer
	cmd := exec.Command(path, "-displayfd", "3", "-screen", "0", "1024x768x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	cmd.Stderr = &stderr
	// If the test binary dies without cleaning up (os.Exit inside m.Run,
	// a crash, a kill), the kernel kills Xvfb with it. The parent here is the
	// main thread, which lives as long as the process.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		w.Close()
		return "", nil, fmt.Errorf("cannot start Xvfb: %w", err)
	}
	w.Close()
	kill := func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case n := <-got:
		if n == "" {
			kill()
			return "", nil, fmt.Errorf("Xvfb did not start: %s", strings.TrimSpace(stderr.String()))
		}
		return ":" + n, kill, nil
	case <-time.After(15 * time.Second):
		kill()
		return "", nil, errors.New("Xvfb did not report a display within 15 s")
	}
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
