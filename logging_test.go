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

	"hostfall/logging"
)

// Every command takes -v, and the shared logger is quiet until it is given.
func TestEveryCommandTakesVerbose(t *testing.T) {
	defer logging.Setup(os.Stderr)
	for name, c := range commands {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			logging.Setup(&buf)
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
