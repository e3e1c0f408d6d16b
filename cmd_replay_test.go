package main

import (
	"context"
	"errors"
	"testing"

	"hostfall/cli"
)

// The replay command refuses command lines it cannot run; what it runs is
// app.VerifyReplay (tested there) or the window.
func TestReplayCommandLine(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--headless", "x.hfreplay"},
		{"--status-json", "x.hfreplay"},
		{"--speed", "20", "x.hfreplay"},
		{"a", "b"},
	} {
		if err := runReplay(context.Background(), args); !errors.Is(err, cli.ErrUsage) {
			t.Errorf("replay %q: %v, want a usage error", args, err)
		}
	}
}
