package ui

import (
	"slices"
	"strings"
	"testing"
)

func TestWrapCode(t *testing.T) {
	code := "HF1-ABCDE-FGHJK-MNPQR-STVWX-YZ"
	for _, tc := range []struct {
		name   string
		prefix string
		width  int // characters
		want   []string
	}{
		{"no code", "Invite: ", 80, nil},
		{"fits on one line", "Invite: ", 80, []string{"Invite: " + code}},
		{"breaks after dashes", "Invite: ", 24, []string{"Invite: HF1-ABCDE-FGHJK-", "MNPQR-STVWX-YZ"}},
		{"narrow: a group a line", "", 6, []string{"HF1-", "ABCDE-", "FGHJK-", "MNPQR-", "STVWX-", "YZ"}},
		{"the prefix keeps its first group", "Invite: ", 4, []string{"Invite: HF1-", "ABCDE-", "FGHJK-", "MNPQR-", "STVWX-", "YZ"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := code
			if tc.want == nil {
				c = ""
			}
			got := WrapCode(tc.prefix, c, func(s string) bool { return len(s) <= tc.width })
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if c != "" && strings.TrimPrefix(strings.Join(got, ""), tc.prefix) != c {
				t.Fatalf("the lines %q do not spell the code", got)
			}
		})
	}
}

func TestPasteable(t *testing.T) {
	for in, want := range map[string]string{
		"HF1-ABCD-\nEFGH\r\n": "HF1-ABCD- EFGH",
		"\tplain  ":           "plain",
		"":                    "",
	} {
		if got := Pasteable(in); got != want {
			t.Errorf("Pasteable(%q) = %q, want %q", in, got, want)
		}
	}
}
