package codeform

import (
	"strings"
	"testing"
)

func TestIsShort(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"K7Q2-9XPM", true},
		{"k7q29xpm", true},
		{" K7Q2 9XPM ", true},
		{"ABCDEFGHJKMN", true}, // too long to be valid, yet meant as a short one
		{"ABCDEFGHJKMNPQ", false},
		{"HF1-ABCDE", false},
		{"hf1-abc", false},
		{LongPrefix + strings.Repeat("b", 150), false},
		{"", false},
		{"   ", false},
	} {
		if got := IsShort(tc.in); got != tc.want {
			t.Errorf("IsShort(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
