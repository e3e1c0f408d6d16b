// Package clip cuts text that came from the network to a length that fits
// a record or a message, whole runes only.
package clip

import (
	"strings"
	"unicode/utf8"
)

// String cuts s to at most n bytes on a rune boundary and drops invalid UTF-8.
func String(s string, n int) string {
	s = strings.ToValidUTF8(s, "")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
