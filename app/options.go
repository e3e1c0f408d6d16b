//go:build cgo

// The window's settings: the full build's, as window.go is.

package app

import (
	"log/slog"
	"os/user"
	"strings"

	"hostfall/datadir"
	"hostfall/render"
	"hostfall/settings"
	"hostfall/sound"
)

// withSettings fills in what the command line left open (a name, the
// window's size) from the player's saved settings, which it keeps in w
// for the window. Flags win for this run; the file is not changed.
func (w Window) withSettings() Window {
	if w.saved != nil {
		return w
	}
	s := settings.Load(datadir.SettingsFile(), slog.Default())
	w.saved = &s
	if w.Name = settings.CleanName(w.Name); w.Name == "" {
		w.Name = s.Name
	}
	if w.Name == "" {
		w.Name = loginName()
	}
	if w.Width <= 0 || w.Height <= 0 {
		w.Width, w.Height, w.fullscreen = s.Width, s.Height, s.Fullscreen
	}
	return w
}

// windowPlayer is the name a window's player goes by when the command
// line gives none: the one saved in the options, else the OS account's.
func windowPlayer(w Window) string { return w.withSettings().Name }

// loginName is the player's name when neither --name nor the settings
// give one: the OS account's (its full name when it has one), whatever
// $USER says.
func loginName() string {
	u, err := user.Current()
	if err != nil {
		return "Player"
	}
	full, _, _ := strings.Cut(u.Name, ",") // the GECOS field: "Full Name,room,phone…"
	for _, n := range []string{full, u.Username} {
		if i := strings.LastIndexByte(n, '\\'); i >= 0 {
			n = n[i+1:] // Windows names the user DOMAIN\user (Wine gives that as the full name too)
		}
		if n = settings.CleanName(n); n != "" {
			return n
		}
	}
	return "Player"
}

// runSettings are the settings of this run: the saved ones with the
// command line's name and window.
func (w Window) runSettings() settings.Settings {
	run := w.saved.Clone()
	run.Name = w.Name
	run.Width, run.Height, run.Fullscreen = w.Width, w.Height, w.fullscreen
	return run
}

// windowSettings sets o up with the settings of w's run: the options
// screen starts from them and saves to the settings file; the how-to
// shows until the player has seen it once.
func windowSettings(o *render.Options, w Window) {
	run := w.runSettings()
	o.Width, o.Height, o.Fullscreen, o.PlayerName = run.Width, run.Height, run.Fullscreen, run.Name
	o.Settings = &run
	o.HowTo = !w.saved.HowToSeen
	path := datadir.SettingsFile()
	o.SaveSettings = func(edit func(*settings.Settings)) error {
		s := settings.Load(path, slog.Default()) // what is saved now: another window may have saved since
		edit(&s)
		return settings.Save(path, s)
	}
}

// volumes is what the sound server needs of the settings.
type volumes interface {
	SetVolume(float64)
	SetCategoryVolume(sound.Category, float64)
}

// setVolumes puts the settings' volumes on a sound server.
func setVolumes(srv volumes, v settings.Volumes) {
	pct := func(n int) float64 { return float64(n) / settings.MaxVolume }
	srv.SetVolume(pct(v.Master))
	srv.SetCategoryVolume(sound.Effects, pct(v.Effects))
	srv.SetCategoryVolume(sound.Voices, pct(v.Voices))
	srv.SetCategoryVolume(sound.Music, pct(v.Music))
}
