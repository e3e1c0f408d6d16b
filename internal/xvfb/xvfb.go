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
	"runtime"
	"strings"
	"sync"
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
	// a crash, a kill), the kernel kills Xvfb with it. The signal follows
	// the OS thread that forked, not the process, and a thread a goroutine
	// left locked (netns's setns does) ends with that goroutine: so Xvfb
	// is forked from a thread of its own, locked and kept until kill.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	started, done := make(chan error, 1), make(chan struct{})
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends after Xvfb
		err := cmd.Start()
		started <- err
		if err == nil {
			<-done
		}
	}()
	if err := <-started; err != nil {
		w.Close()
		return "", nil, fmt.Errorf("cannot start Xvfb: %w", err)
	}
	w.Close()
	var once sync.Once
	kill := func() {
		once.Do(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			close(done)
		})
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
