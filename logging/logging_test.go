package logging

import (
	"bytes"
	"log/slog"
	"os"
	"strings"
	"testing"
)

func TestLevels(t *testing.T) {
	defer Setup(os.Stderr)
	var buf bytes.Buffer
	Setup(&buf)
	slog.Warn("a warning")
	slog.Info("an info")
	if s := buf.String(); !strings.Contains(s, "a warning") || strings.Contains(s, "an info") {
		t.Errorf("default level: %q", s)
	}
	if libp2pLevel.Level() != slog.LevelError {
		t.Errorf("go-libp2p logs at %v by default, want errors only", libp2pLevel.Level())
	}
	v := &Verbose{}
	if err := v.Set("true"); err != nil || level.Level() != slog.LevelDebug || libp2pLevel.Level() != slog.LevelWarn {
		t.Errorf("-v: %v, levels %v and %v", err, level.Level(), libp2pLevel.Level())
	}
	if err := v.Set("maybe"); err == nil {
		t.Error("-v=maybe accepted")
	}
}
