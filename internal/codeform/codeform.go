// Package codeform tells the two forms of invite codes apart as a person
// typed them: the short K7Q2-9XPM (found on the internet or in a relay's
// rendezvous) and the long HF1-… (which holds the host's addresses). The
// window, the command line and the network all ask it, so they always
// agree; what each form means and whether a code is valid is p2p/codes's.
package codeform

import "strings"

// LongPrefix starts every long invite code.
const LongPrefix = "HF1-"

// MaxShort is the longest a short code is as typed: eight symbols and the
// dashes and spaces a person may add. A long code is well over.
const MaxShort = 12

// IsShort reports whether s is meant as a short code rather than a long
// one. It does not say whether s is valid; an empty s is neither.
func IsShort(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && len(s) <= MaxShort && !strings.HasPrefix(strings.ToUpper(s), LongPrefix)
}
