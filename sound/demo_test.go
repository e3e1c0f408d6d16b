package sound

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopxl/beep/v2/wav"
)

// Demo lists the names, refuses one it does not know before playing
// anything, and renders the named sounds into a WAV file.
func TestDemo(t *testing.T) {
	var out bytes.Buffer
	if err := Demo(t.Context(), DemoOptions{Out: &out}); err != nil {
		t.Fatal(err)
	}
	names := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if !strings.HasSuffix(out.String(), "\n") || len(names) < 10 || !strings.Contains(out.String(), "\nui.click\n") {
		t.Fatalf("names %q", out.String())
	}

	bank, ids := embedded(t)
	path := filepath.Join(t.TempDir(), "demo.wav")
	var unknown *UnknownSoundError
	err := demo(t.Context(), DemoOptions{Names: []string{"ui.click", "ui.nope"}, WAV: path}, bank, ids)
	if !errors.As(err, &unknown) || unknown.Name != "ui.nope" || err.Error() != `there is no sound named "ui.nope"` {
		t.Fatalf("unknown sound: %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("a WAV file was written for a list with an unknown sound")
	}

	render := func(times int) int {
		t.Helper()
		if err := demo(t.Context(), DemoOptions{Names: []string{"ui.click"}, Times: times, Seed: 1, WAV: path}, bank, ids); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		st, f, err := wav.Decode(bytes.NewReader(b))
		if err != nil || f.SampleRate != DefaultRate || f.NumChannels != 2 {
			t.Fatalf("rendered file: %v %+v", err, f)
		}
		return st.Len()
	}
	once, twice := render(0), render(2)
	if gap := DefaultRate.N(demoGap); once < gap || twice < 2*once-512 {
		t.Fatalf("one click renders %d frames, two %d: want at least %d and about twice as many", once, twice, gap)
	}
}
