//go:build linux && cgo

package sound

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// While the speaker starts, what is written to stderr (libjack's lines,
// through ALSA's JACK plugin) goes nowhere; afterwards it goes where it went
// before. The test hushes a file of its own rather than the process's fd 2,
// which other tests' speakers may hush at the same time.
func TestHushStderr(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stderr")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	restore := hush(int(f.Fd()))
	f.WriteString("Cannot connect to server socket err = No such file or directory\n")
	restore()
	f.WriteString("after the speaker\n")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(got); strings.Contains(s, "Cannot connect") || !strings.Contains(s, "after the speaker") {
		t.Fatalf("the file got %q; want only what came after the speaker started", s)
	}
}
