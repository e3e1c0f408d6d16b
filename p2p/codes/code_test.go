package codes

import (
	"errors"
	"hostfall/internal/codeform"
	"strings"
	"testing"
)

func TestCodeFor(t *testing.T) {
	id := testPeer(t)
	seen := map[Code]bool{}
	for i := range 200 {
		c := CodeFor(id, []byte{byte(i), byte(i >> 8)})
		if len(c) != codeLen || strings.ContainsAny(string(c), "01OIL") {
			t.Fatalf("code %q", c)
		}
		if !codeform.IsShort(c.String()) || c.String()[4] != '-' {
			t.Fatalf("shown as %q", c.String())
		}
		got, err := ParseCode(c.String())
		if err != nil || got != c {
			t.Fatalf("parse %q: %q, %v", c.String(), got, err)
		}
		seen[c] = true
	}
	if len(seen) != 200 {
		t.Fatalf("%d distinct codes of 200 salts", len(seen))
	}
	first, again := CodeFor(id, []byte("a")), CodeFor(id, []byte("a"))
	if first != again {
		t.Fatalf("the code of a host and salt changed: %s, then %s", first, again)
	}
}

func TestParseCodeTyped(t *testing.T) {
	c := CodeFor(testPeer(t), []byte("salt"))
	s := c.String()
	for _, typed := range []string{
		s, string(c), strings.ToLower(s), " " + strings.ToLower(string(c)) + " ",
		s[:2] + "-" + s[2:], strings.ReplaceAll(s, "-", " "),
	} {
		got, err := ParseCode(typed)
		if err != nil || got != c {
			t.Errorf("ParseCode(%q) = %q, %v; want %q", typed, got, err, c)
		}
	}
}

func TestParseCodeRefusals(t *testing.T) {
	c := string(CodeFor(testPeer(t), []byte("salt")))
	for _, tc := range []struct{ in, says string }{
		{"", "has 0 letters"},
		{c[:7], "has 7 letters"},
		{c + "A", "has 9 letters"},
		{"K7Q0-9XPM", "no 0, O, 1, I or L"},
		{"K7QO-9XPM", "no 0, O, 1, I or L"},
		{"K7Ql-9XPM", "no 0, O, 1, I or L"},
		{"K7Q2_9XPM", "not a letter or digit"},
		{"K7Q2-9XPé", "not a letter or digit"},
		{strings.Repeat("-", 100), "characters"},
	} {
		_, err := ParseCode(tc.in)
		if !errors.Is(err, ErrBadCode) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("ParseCode(%q) = %v; want an error that says %q", tc.in, err, tc.says)
		}
	}
}

// Every single wrong symbol and every swap of two different symbols is
// refused by the check symbol.
func TestParseCodeCatchesTypos(t *testing.T) {
	for salt := range 20 {
		c := []byte(CodeFor(testPeer(t), []byte{byte(salt)}))
		for i := range c {
			for j := range len(codeAlphabet) {
				typo := append([]byte(nil), c...)
				if typo[i] = codeAlphabet[j]; typo[i] == c[i] {
					continue
				}
				if _, err := ParseCode(string(typo)); !errors.Is(err, ErrBadCode) {
					t.Fatalf("%s with symbol %d mistyped as %s passed", c, i, typo)
				}
			}
			for k := i + 1; k < len(c); k++ {
				if c[i] == c[k] {
					continue
				}
				typo := append([]byte(nil), c...)
				typo[i], typo[k] = typo[k], typo[i]
				if _, err := ParseCode(string(typo)); !errors.Is(err, ErrBadCode) {
					t.Fatalf("%s with symbols %d and %d swapped (%s) passed", c, i, k, typo)
				}
			}
		}
	}
}

func FuzzParseCode(f *testing.F) {
	f.Add(CodeFor(testPeer(f), nil).String())
	f.Add("k7q2-9xpm")
	f.Add("K7Q2--9XPM ")
	f.Add("0O1IL")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCode(s)
		if err != nil {
			if !errors.Is(err, ErrBadCode) {
				t.Fatalf("error without ErrBadCode: %v", err)
			}
			return
		}
		if len(c) != codeLen || strings.ToUpper(string(c)) != string(c) {
			t.Fatalf("%q parsed to a code not in canonical form: %q", s, c)
		}
		again, err := ParseCode(c.String())
		if err != nil || again != c {
			t.Fatalf("round trip %q → %q → %q, %v", s, c, again, err)
		}
	})
}
