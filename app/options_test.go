//go:build cgo

package app

import (
	"os/user"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"hostfall/datadir"
	"hostfall/render"
	"hostfall/settings"
	"hostfall/sound"
)

// savedSettings writes s as the settings file of a config dir of the test's.
func savedSettings(t *testing.T, s settings.Settings) string {
	t.Helper()
	t.Setenv("HOSTFALL_CONFIG", t.TempDir())
	if err := settings.Save(datadir.SettingsFile(), s); err != nil {
		t.Fatal(err)
	}
	return datadir.SettingsFile()
}

// The command line's name and window size win over the saved ones for the
// run, and only for the run: the file is not touched, and saving "how-to
// seen" from the window keeps the saved name.
func TestFlagsOverrideSettings(t *testing.T) {
	saved := settings.Defaults()
	saved.Name, saved.Width, saved.Height, saved.Fullscreen = "Saved", 1280, 800, true
	saved.Volume.Music = 10

	for _, tt := range []struct {
		name       string
		w          Window
		wantName   string
		wantW      int
		wantH      int
		fullscreen bool
	}{
		{"no flags", Window{}, "Saved", 1280, 800, true},
		{"--name", Window{Name: "Flag"}, "Flag", 1280, 800, true},
		{"--width --height", Window{Width: 800, Height: 600}, "Saved", 800, 600, false},
		{"--width alone", Window{Width: 800}, "Saved", 1280, 800, true},
		{"a name of spaces", Window{Name: "   "}, "Saved", 1280, 800, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := savedSettings(t, saved)
			var o render.Options
			windowSettings(&o, tt.w.withSettings())
			if o.PlayerName != tt.wantName || o.Width != tt.wantW || o.Height != tt.wantH || o.Fullscreen != tt.fullscreen {
				t.Errorf("window %q %d×%d full screen %v, want %q %d×%d %v", o.PlayerName, o.Width, o.Height, o.Fullscreen,
					tt.wantName, tt.wantW, tt.wantH, tt.fullscreen)
			}
			if o.Settings.Name != tt.wantName || o.Settings.Volume.Music != 10 || !o.HowTo {
				t.Errorf("the run's settings %+v, how-to %v", *o.Settings, o.HowTo)
			}
			if got := settings.Load(path, nil); !reflect.DeepEqual(got, saved) {
				t.Errorf("the file changed: %+v", got)
			}
			if err := o.SaveSettings(func(s *settings.Settings) { s.HowToSeen = true }); err != nil {
				t.Fatal(err)
			}
			want := saved
			want.HowToSeen = true
			if got := settings.Load(path, nil); !reflect.DeepEqual(got, want) {
				t.Errorf("after the how-to: %+v, want %+v", got, want)
			}
		})
	}
}

// With no settings file and no flags: a name, the default window, the
// how-to.
func TestFirstStart(t *testing.T) {
	t.Setenv("HOSTFALL_CONFIG", filepath.Join(t.TempDir(), "none"))
	var o render.Options
	windowSettings(&o, Window{}.withSettings())
	if o.PlayerName == "" || o.Width != 1024 || o.Height != 768 || !o.HowTo {
		t.Errorf("first start: %q %d×%d how-to %v", o.PlayerName, o.Width, o.Height, o.HowTo)
	}
}

// With $USER and $LOGNAME unset (play-test of issue 29: the window's
// player was "Player") the first start takes the OS account's name.
func TestFirstStartWithoutUSER(t *testing.T) {
	u, err := user.Current()
	if err != nil {
		t.Skipf("this machine names no account: %v", err)
	}
	t.Setenv("HOSTFALL_CONFIG", filepath.Join(t.TempDir(), "none"))
	t.Setenv("USER", "")
	t.Setenv("LOGNAME", "")
	var o render.Options
	windowSettings(&o, Window{}.withSettings())
	full, _, _ := strings.Cut(u.Name, ",")
	if want := []string{settings.CleanName(full), settings.CleanName(u.Username)}; o.PlayerName != want[0] && o.PlayerName != want[1] {
		t.Errorf("without $USER the player is %q, want the account's name %q", o.PlayerName, want)
	}
}

type volumeLog struct {
	master float64
	cats   [sound.NumCategories]float64
}

func (v *volumeLog) SetVolume(x float64)                           { v.master = x }
func (v *volumeLog) SetCategoryVolume(c sound.Category, x float64) { v.cats[c] = x }

func TestSetVolumes(t *testing.T) {
	var v volumeLog
	setVolumes(&v, settings.Volumes{Master: 50, Effects: 100, Voices: 25, Music: 0})
	if v.master != 0.5 || v.cats != [sound.NumCategories]float64{1, 0.25, 0} {
		t.Errorf("volumes %+v", v)
	}
}

// The window's sound opens behind the window: the music and volumes asked
// for before it is ready apply once it is, and later ones at once.
func TestLateSound(t *testing.T) {
	l := openSound(settings.Volumes{Master: 100, Effects: 100, Voices: 100, Music: 100})
	l.Music("music.menu")
	l.setVolumes(settings.Volumes{Master: 80, Effects: 100, Voices: 100, Music: 0})
	<-l.done
	defer l.close()
	if l.srv == nil {
		t.Fatal("no sound server (the silent sink stands in for a missing speaker)")
	}
	_, names, err := sound.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if got := l.srv.Music(); len(got) != 1 || got[0] != names.ForName("music.menu") {
		t.Fatalf("playing %v, want music.menu", got)
	}
	if l.srv.CategoryVolume(sound.Music) != 0 || float32(l.srv.Volume()) != 0.8 {
		t.Fatalf("music volume %v, master %v: want 0 and 0.8", l.srv.CategoryVolume(sound.Music), l.srv.Volume())
	}
	l.Music("music.game", "ambience.wind")
	if got := l.srv.Music(); len(got) != 2 {
		t.Fatalf("playing %v after the game's music, want 2 tracks", got)
	}
}
