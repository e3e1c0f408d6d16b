package datadir

import (
	"path/filepath"
	"testing"
)

// $HOSTFALL_DATA wins over $XDG_DATA_HOME, and the kinds of file each have
// a directory of their own below the root.
func TestRoot(t *testing.T) {
	t.Setenv("HOSTFALL_DATA", "")
	t.Setenv("XDG_DATA_HOME", "/xdg")
	if got, want := Root(), filepath.Join("/xdg", "hostfall"); got != want {
		t.Errorf("with $XDG_DATA_HOME: %s, want %s", got, want)
	}
	t.Setenv("HOSTFALL_DATA", "/data")
	for _, tt := range []struct{ got, want string }{
		{Root(), "/data"},
		{Replays(), "/data/replays"},
		{DesyncReports(), "/data/desync"},
		{Saves(), "/data/saves"},
		{LastGames(), "/data/lastgame"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s, want %s", tt.got, tt.want)
		}
	}
}

// The settings go under $HOSTFALL_CONFIG, else $XDG_CONFIG_HOME/hostfall.
func TestSettingsFile(t *testing.T) {
	t.Setenv("HOSTFALL_CONFIG", "")
	t.Setenv("XDG_CONFIG_HOME", "/xdgc")
	if got, want := SettingsFile(), "/xdgc/hostfall/settings.json"; got != want {
		t.Errorf("with $XDG_CONFIG_HOME: %s, want %s", got, want)
	}
	t.Setenv("HOSTFALL_CONFIG", "/cfg")
	if got, want := SettingsFile(), "/cfg/settings.json"; got != want {
		t.Errorf("with $HOSTFALL_CONFIG: %s, want %s", got, want)
	}
}

// Each system's convention: Windows keeps the data under %LOCALAPPDATA%
// and the settings and identity under %APPDATA%, both in a folder named
// Hostfall; Linux follows XDG; the HOSTFALL_ variables win everywhere.
func TestRootsBySystem(t *testing.T) {
	winEnv := map[string]string{"LOCALAPPDATA": `C:\Users\bo\AppData\Local`, "APPDATA": `C:\Users\bo\AppData\Roaming`,
		"HOME": "", "XDG_DATA_HOME": "/x", "XDG_CONFIG_HOME": "/y"}
	linuxEnv := map[string]string{"HOME": "/home/bo"}
	over := map[string]string{"HOSTFALL_DATA": "/d", "HOSTFALL_CONFIG": "/c", "LOCALAPPDATA": `C:\L`, "APPDATA": `C:\R`, "HOME": "/home/bo"}
	for _, tt := range []struct {
		goos       string
		env        map[string]string
		data, conf string
	}{
		{"windows", winEnv, filepath.Join(`C:\Users\bo\AppData\Local`, "Hostfall"), filepath.Join(`C:\Users\bo\AppData\Roaming`, "Hostfall")},
		{"linux", linuxEnv, "/home/bo/.local/share/hostfall", "/home/bo/.config/hostfall"},
		{"darwin", linuxEnv, "/home/bo/.local/share/hostfall", "/home/bo/Library/Application Support/hostfall"},
		{"windows", over, "/d", "/c"},
		{"linux", over, "/d", "/c"},
	} {
		env := func(k string) string { return tt.env[k] }
		if got := dataRoot(tt.goos, env); got != tt.data {
			t.Errorf("%s %v: data in %s, want %s", tt.goos, tt.env, got, tt.data)
		}
		if got := configRoot(tt.goos, env); got != tt.conf {
			t.Errorf("%s %v: settings in %s, want %s", tt.goos, tt.env, got, tt.conf)
		}
	}
}

// The identity follows $HOSTFALL_IDENTITY, else lives beside the settings;
// the relay's key beside it.
func TestIdentity(t *testing.T) {
	t.Setenv("HOSTFALL_CONFIG", "/cfg")
	t.Setenv(IdentityEnv, "")
	if got, want := Identity(), "/cfg/identity.key"; got != want {
		t.Errorf("identity %s, want %s", got, want)
	}
	if got, want := RelayKey(), "/cfg/relay.key"; got != want {
		t.Errorf("relay key %s, want %s", got, want)
	}
	t.Setenv(IdentityEnv, "/k/me.key")
	if got := Identity(); got != "/k/me.key" {
		t.Errorf("with $%s: identity %s", IdentityEnv, got)
	}
}
