package settings

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// changed is a settings value with every field away from its default.
func changed() Settings {
	return Settings{
		Volume:     Volumes{Master: 55, Effects: 0, Voices: 100, Music: 7},
		Fullscreen: true, Width: 1280, Height: 800,
		Name: "Ann", Color: 3,
		Keys:      map[string]string{"attack": "Q", "train.worker": "E"},
		HowToSeen: true,
	}
}

// What Save writes, Load reads back whole; the file is all the temporary
// files became.
func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "settings.json")
	want := changed()
	if err := Save(path, want); err != nil {
		t.Fatal(err)
	}
	if got := Load(path, nil); !reflect.DeepEqual(got, want) {
		t.Errorf("read back %+v, want %+v", got, want)
	}
	want.Volume.Master = 10
	if err := Save(path, want); err != nil { // over an existing file
		t.Fatal(err)
	}
	if got := Load(path, nil); got.Volume.Master != 10 {
		t.Errorf("the second save did not replace the first: master %d", got.Volume.Master)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the directory holds %d files, want settings.json alone", len(entries))
	}
}

// logged captures what Load warns.
func logged() (*slog.Logger, *bytes.Buffer) {
	var b bytes.Buffer
	return slog.New(slog.NewTextHandler(&b, nil)), &b
}

// Missing, corrupt and partly wrong files: defaults where the file fails,
// a warning naming the file when it is not simply absent, never a crash.
func TestLoadBadFiles(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		missing    bool
		want       func(*Settings)
		warn       string // "" when no warning is wanted
	}{
		{name: "missing", missing: true},
		{name: "empty", data: "", warn: "corrupt"},
		{name: "not JSON", data: "volume=3\n", warn: "corrupt"},
		{name: "an array", data: "[1,2]", warn: "corrupt"},
		{name: "cut short", data: `{"volume":{"master":30`, warn: "corrupt"},
		{name: "unknown fields", data: `{"name":"Bo","shaders":"ultra","volume":{"master":20,"bass":9}}`,
			want: func(s *Settings) { s.Name, s.Volume.Master = "Bo", 20 }},
		{name: "volume out of range", data: `{"volume":{"master":300,"music":-1,"voices":40}}`,
			want: func(s *Settings) { s.Volume.Voices = 40 }, warn: "out of range"},
		{name: "a wrong type keeps the rest", data: `{"name":7,"fullscreen":true}`,
			want: func(s *Settings) { s.Fullscreen = true }, warn: "out of range"},
		{name: "tiny window", data: `{"width":100,"height":50}`, warn: "window size"},
		{name: "colour", data: `{"color":8}`, warn: "colour"},
		{name: "control characters in the name", data: `{"name":"  Ann\u0007 "}`,
			want: func(s *Settings) { s.Name = "Ann" }, warn: "name"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			if !tt.missing {
				if err := os.WriteFile(path, []byte(tt.data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			log, out := logged()
			got := Load(path, log)
			want := Defaults()
			if tt.want != nil {
				tt.want(&want)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %+v, want %+v", got, want)
			}
			switch {
			case tt.warn == "" && out.Len() > 0:
				t.Errorf("warned %q", out)
			case tt.warn != "" && (!strings.Contains(out.String(), tt.warn) || !strings.Contains(out.String(), path)):
				t.Errorf("warned %q, want %q and the file's path", out, tt.warn)
			}
		})
	}
}

// A file that cannot be read (a directory in its place) is a warning too.
func TestLoadUnreadable(t *testing.T) {
	path := t.TempDir()
	log, out := logged()
	if got := Load(path, log); !reflect.DeepEqual(got, Defaults()) {
		t.Errorf("got %+v", got)
	}
	if !strings.Contains(out.String(), path) {
		t.Errorf("warned %q, want the path named", out)
	}
}

// Save says where it could not write.
func TestSaveFails(t *testing.T) {
	dir := t.TempDir()
	block := filepath.Join(dir, "file")
	if err := os.WriteFile(block, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := Save(filepath.Join(block, "settings.json"), Defaults())
	if err == nil || !strings.Contains(err.Error(), "settings") {
		t.Errorf("saving under a file: %v", err)
	}
}

func TestCleanName(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Ann", "Ann"}, {"  Bo  ", "Bo"}, {"a\nb", "ab"}, {"\xff\xfeZed", "Zed"},
		{strings.Repeat("é", 30), strings.Repeat("é", MaxName)}, {"\t", ""},
	} {
		if got := CleanName(tt.in); got != tt.want {
			t.Errorf("CleanName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Whatever the bytes, Decode returns settings in range that encode and
// decode to themselves.
func FuzzDecode(f *testing.F) {
	f.Add(Encode(changed()))
	f.Add(Encode(Defaults()))
	f.Add([]byte(`{"volume":{"master":-5},"width":1e9,"keys":{"attack":"\u0000"}}`))
	f.Add([]byte(`{"name":null,"color":-2}`))
	f.Add([]byte("not json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, _, _ := Decode(data)
		if p := s.fix(); len(p) > 0 {
			t.Fatalf("Decode left values out of range: %v", p)
		}
		again, problems, err := Decode(Encode(s))
		if err != nil || len(problems) > 0 || !reflect.DeepEqual(again, s) {
			t.Fatalf("round trip of %+v: %+v, %v, %v", s, again, problems, err)
		}
	})
}
