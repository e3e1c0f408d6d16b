package datadir

import (
	"os"
	"path/filepath"
)

// Root is the data directory. $HOSTFALL_DATA overrides it (tests, several
// peers on one machine); otherwise $XDG_DATA_HOME/hostfall or
// ~/.local/share/hostfall.
func Root() string {
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

// Replays holds the replay file of every game played.
func Replays() string { return filepath.Join(Root(), "replays") }

// DesyncReports holds the reports of what differed when a peer desynced.
func DesyncReports() string { return filepath.Join(Root(), "desync") }

// Saves holds saved games.
func Saves() string { return filepath.Join(Root(), "saves") }

// LastGames holds, for each identity, the record of the game it is playing
// (one file a peer ID), so a restarted process can take its slot back
// (`hostfall join --rejoin`, the browser's Rejoin button).
func LastGames() string { return filepath.Join(Root(), "lastgame") }

// ConfigRoot is the directory of the player's settings: $HOSTFALL_CONFIG
// if set (tests, several players on one machine), otherwise hostfall in
// the user's config directory ($XDG_CONFIG_HOME, or ~/.config).
func ConfigRoot() string {
	if d := os.Getenv("HOSTFALL_CONFIG"); d != "" {
		return d
	}
	if d, err := os.UserConfigDir(); err == nil {
		return filepath.Join(d, "hostfall")
	}
	return filepath.Join(os.TempDir(), "hostfall-config")
}

// SettingsFile holds the player's settings (package settings).
func SettingsFile() string { return filepath.Join(ConfigRoot(), "settings.json") }
