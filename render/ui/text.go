package ui

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TextField is a one-line text input: chat, a name, an invite code.
type TextField struct {
	Text string
	Max  int // runes; 0 means 100
}

// Edit applies the frame's typing and Backspace. It reports whether Enter
// was hit.
func (f *TextField) Edit(in *Input) (enter bool) {
	limit := f.Max
	if limit == 0 {
		limit = 100
	}
	if in.Hit[KeyBackspace] && f.Text != "" {
		_, n := utf8.DecodeLastRuneInString(f.Text)
		f.Text = f.Text[:len(f.Text)-n]
	}
	for _, r := range in.Typed {
		if unicode.IsPrint(r) && utf8.RuneCountInString(f.Text) < limit {
			f.Text += string(r)
		}
	}
	return in.Hit[KeyEnter]
}

// Pasteable is clipboard text as a one-line field takes it: line breaks and
// tabs become spaces (an invite code copied over two lines still reads),
// and the ends are trimmed.
func Pasteable(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s))
}

// Take returns the trimmed text and empties the field.
func (f *TextField) Take() string {
	s := strings.TrimSpace(f.Text)
	f.Text = ""
	return s
}

// WrapCode breaks prefix+code, a code in dash-separated groups (an invite
// code), into lines that fit: a line breaks only after a dash, so every
// group stays whole and a person copies the lines one after the other. A
// group that does not fit alone gets a line of its own.
func WrapCode(prefix, code string, fits func(string) bool) []string {
	if code == "" {
		return nil
	}
	var lines []string
	line := prefix
	for rest := code; rest != ""; {
		group := rest
		if i := strings.IndexByte(rest, '-'); i >= 0 {
			group = rest[:i+1]
		}
		rest = rest[len(group):]
		if line != "" && line != prefix && !fits(line+group) {
			lines = append(lines, line)
			line = ""
		}
		line += group
	}
	return append(lines, line)
}
