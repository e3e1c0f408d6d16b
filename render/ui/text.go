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

// Take returns the trimmed text and empties the field.
func (f *TextField) Take() string {
	s := strings.TrimSpace(f.Text)
	f.Text = ""
	return s
}
