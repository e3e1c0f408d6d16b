package savegame

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// WriteFile writes s into dir as NAME-DATE.hfsave (NAME from the session
// name, DATE from s.At) and returns the path. It never overwrites a file:
// a second save in the same second gets a numbered name. The file appears
// whole or not at all (written aside, then linked into place).
func WriteFile(dir string, s *Save) (string, error) {
	b, err := Encode(s)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("savegame: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".save-*")
	if err != nil {
		return "", fmt.Errorf("savegame: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("savegame: write: %w", err)
	}
	name := CleanName(s.Lobby.Name)
	if name == "" {
		name = "game"
	}
	base := name + "-" + s.At.Format("20060102-150405")
	for i := 1; i <= 100; i++ {
		name := base + Ext
		if i > 1 {
			name = fmt.Sprintf("%s-%d%s", base, i, Ext)
		}
		path := filepath.Join(dir, name)
		err := os.Link(tmp.Name(), path)
		if err == nil {
			return path, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("savegame: %w", err)
		}
	}
	return "", fmt.Errorf("savegame: too many saves named %s in %s", base, dir)
}

// ReadFile reads and checks a save file.
func ReadFile(path string) (*Save, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be loaded: %w", path, err)
	}
	return s, nil
}

// CleanName keeps letters, digits, '-' and '_' of a session name (spaces
// become '_', at most 40 bytes) for a file name; "" when none are left.
func CleanName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('_')
		}
		if b.Len() >= 40 {
			break
		}
	}
	return b.String()
}

// Entry is one file of a directory of saves: the save, or why it cannot
// be loaded.
type Entry struct {
	Path string
	At   time.Time // when it was saved; the file's time when it cannot be read
	Save *Save     // nil when Err is set
	Err  error
}

// List reads every save file (*.hfsave) in dir, newest first. A file that
// cannot be read is listed with its error; a dir that does not exist
// lists none.
func List(dir string) ([]Entry, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("savegame: list: %w", err)
	}
	var out []Entry
	for _, de := range des {
		if de.IsDir() || !strings.HasSuffix(de.Name(), Ext) {
			continue
		}
		e := Entry{Path: filepath.Join(dir, de.Name())}
		if info, err := de.Info(); err == nil {
			e.At = info.ModTime()
		}
		if e.Save, e.Err = ReadFile(e.Path); e.Err == nil {
			e.At = e.Save.At
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return b.At.Compare(a.At) })
	return out, nil
}
