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
