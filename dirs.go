package main

import (
	"os"
	"path/filepath"
)

// dataDir is where Hostfall keeps what it writes for the player: replays,
// desync reports, saved games. $HOSTFALL_DATA overrides it (tests, several peers on one
// machine); otherwise $XDG_DATA_HOME/hostfall or ~/.local/share/hostfall.
func dataDir() string {
	if d := os.Getenv("HOSTFALL_DATA"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "hostfall")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "share", "hostfall")
	}
	return filepath.Join(os.TempDir(), "hostfall")
}

func replayDir() string { return filepath.Join(dataDir(), "replays") }

func reportDir() string { return filepath.Join(dataDir(), "desync") }

func saveDir() string { return filepath.Join(dataDir(), "saves") }
