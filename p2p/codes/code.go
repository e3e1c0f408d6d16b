package codes

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hostfall/internal/codeform"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A short invite code names a game hosted over the internet in eight
// symbols a person can read out, shown as two groups of four: K7Q2-9XPM.
// The alphabet is the digits 2–9 and the letters without I, L and O: 31
// symbols, none of which looks or sounds like another (no 0/O, no 1/I/L).
//
// The first seven symbols come from a hash of the host's peer ID and a
// random salt the host picks (31^7 ≈ 2.8·10^10 codes, 34.6 bits): the host
// publishes the salt with its addresses, and a joiner checks that the host
// it found hashes to the code it typed, so nobody else can answer for it
// without grinding through billions of keys (see CodeFor). The eighth is a
// check symbol: the weighted sum Σ (i+1)·v_i over all eight values is 0
// modulo 31. Because 31 is prime and the weights 1…8 are distinct and
// nonzero, every single wrong symbol and every swap of two symbols changes
// the sum, so those typos are refused before any lookup; any other mistyped
// code passes with odds 1 in 31.
const (
	codeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
	codeBase     = len(codeAlphabet)
	// CodeRandom is the number of symbols that come from the hash.
	CodeRandom = 7
	codeLen    = CodeRandom + 1
)

// ErrBadCode wraps every reason a short code is refused.
var ErrBadCode = errors.New("not a valid invite code")

// Code is a short invite code in canonical form: eight symbols of the
// alphabet, upper case, no dash.
type Code string

// String is the code as shown: two groups of four.
func (c Code) String() string {
	if len(c) != codeLen {
		return string(c)
	}
	return string(c[:4]) + "-" + string(c[4:])
}

var codeValues = func() (v [256]int8) {
	for i := range v {
		v[i] = -1
	}
	for i := range len(codeAlphabet) {
		v[codeAlphabet[i]] = int8(i)
		v[strings.ToLower(codeAlphabet[i : i+1])[0]] = int8(i)
	}
	return v
}()

// CodeFor is the code of the host id with salt.
func CodeFor(id peer.ID, salt []byte) Code {
	h := sha256.New()
	h.Write([]byte("hostfall/invite/v1\x00"))
	h.Write([]byte(id))
	h.Write(salt)
	n := binary.BigEndian.Uint64(h.Sum(nil)[:8])
	var v [codeLen]int
	for i := range CodeRandom {
		v[i] = int(n % uint64(codeBase))
		n /= uint64(codeBase)
	}
	v[CodeRandom] = checkSymbol(v[:CodeRandom])
	b := make([]byte, codeLen)
	for i, x := range v {
		b[i] = codeAlphabet[x]
	}
	return Code(b)
}

// checkSymbol makes Σ (i+1)·v_i ≡ 0 (mod 31) with the check at position 8:
// 8·c ≡ −s, and 4 is the inverse of 8 modulo 31 (32 ≡ 1).
func checkSymbol(v []int) int {
	s := 0
	for i, x := range v {
		s += (i + 1) * x
	}
	return (4 * (codeBase - s%codeBase)) % codeBase
}

// ParseCode reads a short code as a person may have typed it: any case,
// dashes and spaces anywhere or nowhere.
func ParseCode(s string) (Code, error) {
	if len(s) > 4*codeform.MaxShort {
		return "", fmt.Errorf("%w: %d characters; a code has %d letters and digits", ErrBadCode, len(s), codeLen)
	}
	b := make([]byte, 0, codeLen)
	for i := range len(s) {
		ch := s[i]
		switch {
		case ch == '-' || ch == ' ' || ch == '\t':
			continue
		case strings.IndexByte("0oO1iIlL", ch) >= 0:
			return "", fmt.Errorf("%w: %q is not in invite codes (they have no 0, O, 1, I or L); check that symbol", ErrBadCode, rune(ch))
		case codeValues[ch] < 0:
			return "", fmt.Errorf("%w: %q is not a letter or digit of invite codes", ErrBadCode, rune(ch))
		}
		b = append(b, codeAlphabet[codeValues[ch]])
	}
	if len(b) != codeLen {
		return "", fmt.Errorf("%w: it has %d letters and digits, a code has %d (like K7Q2-9XPM)", ErrBadCode, len(b), codeLen)
	}
	sum := 0
	for i, ch := range b {
		sum += (i + 1) * int(codeValues[ch])
	}
	if sum%codeBase != 0 {
		return "", fmt.Errorf("%w: %s does not add up (a symbol mistyped or two swapped?); ask the host to read it again", ErrBadCode, Code(b))
	}
	return Code(b), nil
}
