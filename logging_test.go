package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"log/slog"
	"os"
	"strings"
	"testing"
)

// Every command takes -v, and the shared logger is quiet until it is given.
func TestEveryCommandTakesVerbose(t *testing.T) {
	defer setupLogging(os.Stderr)
	for name, c := range commands {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			setupLogging(&buf)
			slog.Info("quiet by default")
			err := c.run(context.Background(), []string{"-v", "-h"})
			if !errors.Is(err, flag.ErrHelp) {
				t.Fatalf("hostfall %s -v -h: %v, want the help", name, err)
			}
			slog.Debug("detail with -v")
			if s := buf.String(); strings.Contains(s, "quiet by default") || !strings.Contains(s, "detail with -v") {
				t.Errorf("log output %q: want only the debug line logged after -v", s)
			}
		})
	}
}

func TestLoggingLevels(t *testing.T) {
	defer setupLogging(os.Stderr)
	var buf bytes.Buffer
	setupLogging(&buf)
	slog.Warn("a warning")
	slog.Info("an info")
	if s := buf.String(); !strings.Contains(s, "a warning") || strings.Contains(s, "an info") {
		t.Errorf("default level: %q", s)
	}
	if libp2pLevel.Level() != slog.LevelError {
		t.Errorf("go-libp2p logs at %v by default, want errors only", libp2pLevel.Level())
	}
	v := &verboseFlag{}
	if err := v.Set("true"); err != nil || logLevel.Level() != slog.LevelDebug || libp2pLevel.Level() != slog.LevelWarn {
		t.Errorf("-v: %v, levels %v and %v", err, logLevel.Level(), libp2pLevel.Level())
	}
	if err := v.Set("maybe"); err == nil {
		t.Error("-v=maybe accepted")
	}
}
