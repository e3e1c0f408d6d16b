// Package xvfb starts a virtual X server for tests that open windows, and
// captures its screen (xwd) as an image.
package xvfb

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// ErrNotInstalled says why window tests skip on a machine without Xvfb.
var ErrNotInstalled = errors.New("DISPLAY is not set and Xvfb is not installed (apt-get install xvfb, or run scripts/deps.sh)")

// Start starts Xvfb at 1024×768×24 on a free display number it picks
// (-displayfd) and returns the display (":N") and a function that kills it.
func Start() (display string, stop func(), err error) {
	path, err := exec.LookPath("Xvfb")
	if err != nil {
		return "", nil, ErrNotInstalled
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
	// a crash, a kill), the kernel kills Xvfb with it. The parent thread
	// must live as long as the process: call Start from the main goroutine
	// (TestMain) or a test that outlives Xvfb's use.
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
