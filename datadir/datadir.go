package datadir

import (
	"os"
	"path/filepath"
	"runtime"
)

// Root is the data directory. $HOSTFALL_DATA overrides it (tests, several
// peers on one machine); otherwise, on Windows, %LOCALAPPDATA%\Hostfall,
// and elsewhere $XDG_DATA_HOME/hostfall or ~/.local/share/hostfall.
func Root() string { return dataRoot(runtime.GOOS, os.Getenv) }

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

// ConfigRoot is the directory of the player's settings and identity:
// $HOSTFALL_CONFIG if set (tests, several players on one machine);
// otherwise, on Windows, %APPDATA%\Hostfall, and elsewhere hostfall in the
// user's config directory ($XDG_CONFIG_HOME, or ~/.config; on macOS
// ~/Library/Application Support).
func ConfigRoot() string { return configRoot(runtime.GOOS, os.Getenv) }

// SettingsFile holds the player's settings (package settings).
func SettingsFile() string { return filepath.Join(ConfigRoot(), "settings.json") }

// IdentityEnv names the environment variable that overrides the identity
// key file, so several peers can run on one machine each as a player of
// its own.
const IdentityEnv = "HOSTFALL_IDENTITY"

// Identity is the player's identity key file (its peer ID): $HOSTFALL_IDENTITY
// if set, otherwise identity.key in ConfigRoot.
func Identity() string {
	if p := os.Getenv(IdentityEnv); p != "" {
		return p
	}
	return filepath.Join(ConfigRoot(), "identity.key")
}

// RelayKey is the key file of `hostfall relay`, apart from the player's
// identity: relay.key in ConfigRoot.
func RelayKey() string { return filepath.Join(ConfigRoot(), "relay.key") }

// dataRoot is Root on goos with the environment env.
func dataRoot(goos string, env func(string) string) string {
	if d := env("HOSTFALL_DATA"); d != "" {
		return d
	}
	if goos == "windows" {
		if d := env("LOCALAPPDATA"); d != "" {
			return filepath.Join(d, "Hostfall")
		}
		return filepath.Join(os.TempDir(), "Hostfall")
	}
	if d := env("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "hostfall")
	}
	if home := env("HOME"); home != "" {
		return filepath.Join(home, ".local", "share", "hostfall")
	}
	return filepath.Join(os.TempDir(), "hostfall")
}

// configRoot is ConfigRoot on goos with the environment env (the choices
// of os.UserConfigDir, with Hostfall's name as Windows spells folders).
func configRoot(goos string, env func(string) string) string {
	if d := env("HOSTFALL_CONFIG"); d != "" {
		return d
	}
	switch {
	case goos == "windows" && env("APPDATA") != "":
		return filepath.Join(env("APPDATA"), "Hostfall")
	case goos == "windows":
		return filepath.Join(os.TempDir(), "Hostfall-config")
	case goos == "darwin" && env("HOME") != "":
		return filepath.Join(env("HOME"), "Library", "Application Support", "hostfall")
	case env("XDG_CONFIG_HOME") != "":
		return filepath.Join(env("XDG_CONFIG_HOME"), "hostfall")
	case env("HOME") != "":
		return filepath.Join(env("HOME"), ".config", "hostfall")
	}
	return filepath.Join(os.TempDir(), "hostfall-config")
}
