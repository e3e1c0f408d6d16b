package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Bounds of the values a file may hold; anything outside takes the default.
const (
	MaxVolume = 100
	MinWidth  = 800
	MinHeight = 600
	MaxSide   = 16384 // larger than any screen; a typo like 10240 still fits
	MaxName   = 24    // as the browser's name field takes
	NumColors = 8     // player colours (session.NumColors)
	NoColor   = -1    // no preferred colour: the lobby's choice
	maxFile   = 64 << 10
	maxKeys   = 64 // bindings kept from a file
)

// Volumes are percentages, 0 to MaxVolume. Master scales the other three.
type Volumes struct {
	Master  int `json:"master"`
	Effects int `json:"effects"`
	Voices  int `json:"voices"`
	Music   int `json:"music"`
}

// Settings are the player's settings. The zero value is not valid: start
// from Defaults.
type Settings struct {
	Volume     Volumes `json:"volume"`
	Fullscreen bool    `json:"fullscreen"`
	Width      int     `json:"width"` // the window's size when not full screen
	Height     int     `json:"height"`
	Name       string  `json:"name"`  // "" means the user's login name
	Color      int     `json:"color"` // 0..NumColors-1, or NoColor
	// Keys maps a command's name to its key's name (render/ui checks both
	// and falls back to the default key of anything it cannot use).
	Keys      map[string]string `json:"keys,omitempty"`
	HowToSeen bool              `json:"how_to_seen"`
}

// Defaults are the settings of a first start.
func Defaults() Settings {
	return Settings{
		Volume: Volumes{Master: 80, Effects: 100, Voices: 100, Music: 60},
		Width:  1024, Height: 768,
		Color: NoColor,
	}
}

// Clone returns a copy that shares no map with s.
func (s Settings) Clone() Settings {
	if s.Keys != nil {
		keys := make(map[string]string, len(s.Keys))
		for k, v := range s.Keys {
			keys[k] = v
		}
		s.Keys = keys
	}
	return s
}

// Decode reads settings from JSON. Fields missing from data, or holding a
// value out of range, take their defaults and each such value is named in
// problems; unknown fields are ignored. err is set only when data is not a
// JSON object at all (then s is Defaults()).
func Decode(data []byte) (s Settings, problems []string, err error) {
	s = Defaults()
	if len(data) > maxFile {
		return s, nil, fmt.Errorf("the file is larger than %d bytes", maxFile)
	}
	err = json.Unmarshal(data, &s)
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &typeErr) && typeErr.Field != "":
		// json went on with the other fields: the wrong one keeps its default.
		problems = append(problems, fmt.Sprintf("%s is not a %s", typeErr.Field, typeErr.Type))
	case err != nil:
		return Defaults(), nil, fmt.Errorf("not a settings file: %w", err)
	}
	return s, append(problems, s.fix()...), nil
}

// fix puts every value out of range back to its default and says which.
func (s *Settings) fix() []string {
	d := Defaults()
	var out []string
	bad := func(what string, v any) { out = append(out, fmt.Sprintf("%s %v is out of range", what, v)) }
	for _, v := range []struct {
		name string
		p    *int
		def  int
	}{{"master volume", &s.Volume.Master, d.Volume.Master}, {"effects volume", &s.Volume.Effects, d.Volume.Effects},
		{"voices volume", &s.Volume.Voices, d.Volume.Voices}, {"music volume", &s.Volume.Music, d.Volume.Music}} {
		if *v.p < 0 || *v.p > MaxVolume {
			bad(v.name, *v.p)
			*v.p = v.def
		}
	}
	if s.Width < MinWidth || s.Width > MaxSide || s.Height < MinHeight || s.Height > MaxSide {
		bad("window size", fmt.Sprintf("%d×%d", s.Width, s.Height))
		s.Width, s.Height = d.Width, d.Height
	}
	if s.Color < NoColor || s.Color >= NumColors {
		bad("colour", s.Color)
		s.Color = d.Color
	}
	if n := CleanName(s.Name); n != s.Name {
		out = append(out, fmt.Sprintf("name %q is not a usable name", s.Name))
		s.Name = n
	}
	if len(s.Keys) > maxKeys {
		out = append(out, fmt.Sprintf("%d key bindings are more than there are commands", len(s.Keys)))
		s.Keys = nil
	}
	if len(s.Keys) == 0 {
		s.Keys = nil // no bindings of the player's own, however the file said so
	}
	return out
}

// CleanName returns name as a player name can be: valid UTF-8, printable,
// trimmed, at most MaxName characters; "" when nothing is left.
func CleanName(name string) string {
	name = strings.ToValidUTF8(name, "")
	name = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if utf8.RuneCountInString(name) > MaxName {
		name = strings.TrimSpace(string([]rune(name)[:MaxName]))
	}
	return name
}

// Encode returns s as indented JSON, ready to save.
func Encode(s Settings) []byte {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil { // only ints, bools and strings: cannot fail
		panic(err)
	}
	return append(data, '\n')
}

// Load reads the settings file at path. A missing file gives the defaults
// and no warning (a first start); an unreadable or corrupt file gives the
// defaults and a warning naming it; values out of range their defaults,
// with a warning too. Load never fails.
func Load(path string, log *slog.Logger) Settings {
	if log == nil {
		log = slog.Default()
	}
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults()
	}
	if err != nil {
		log.Warn("settings not read, playing with the defaults", "file", path, "err", err)
		return Defaults()
	}
	s, problems, err := Decode(data)
	if err != nil {
		log.Warn("settings file is corrupt, playing with the defaults (saving the options replaces it)", "file", path, "err", err)
		return s
	}
	if len(problems) > 0 {
		log.Warn("some settings were out of range and take their defaults", "file", path, "problems", strings.Join(problems, "; "))
	}
	return s
}

func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// One byte over the limit is enough for Decode to refuse the file.
	return io.ReadAll(io.LimitReader(f, maxFile+1))
}

// Save writes s to path atomically: a temporary file in the same
// directory, synced, then renamed over path. The directory is made if
// needed.
func Save(path string, s Settings) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot make the settings directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".settings-*.json")
	if err != nil {
		return fmt.Errorf("cannot write the settings in %s: %w", dir, err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename, there is nothing to remove
	if _, err := tmp.Write(Encode(s)); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write the settings: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write the settings: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write the settings: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cannot save the settings to %s: %w", path, err)
	}
	return nil
}
