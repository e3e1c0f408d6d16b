//go:build linux && cgo

package sound

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// While the speaker starts, what the process writes to stderr (libjack's
// lines, through ALSA's JACK plugin) goes nowhere; afterwards stderr is
// back where it was.
func TestHushStderr(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stderr")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	orig, err := syscall.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Dup3(orig, 2, 0)
		syscall.Close(orig)
	}()
	if err := syscall.Dup3(int(f.Fd()), 2, 0); err != nil {
		t.Fatal(err)
	}
	restore := hushStderr()
	os.Stderr.WriteString("Cannot connect to server socket err = No such file or directory\n")
	restore()
	os.Stderr.WriteString("after the speaker\n")
	syscall.Dup3(orig, 2, 0)
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(got); strings.Contains(s, "Cannot connect") || !strings.Contains(s, "after the speaker") {
		t.Fatalf("stderr got %q; want only what came after the speaker started", s)
	}
}
