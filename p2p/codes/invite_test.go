package codes

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

const testRelayID = "12D3KooWPMg4ZbAVnDK9Vwf9hgW3zREW76LKXTWYtjHFdyLo2Fcq"

const testPeerID = "12D3KooWJfs5RGnCqpP3NqiZf5mGcw3hv6JBDcjig7mkYi64VsEa"

// testPeer is a fixed peer ID, the host of the codes under test.
func testPeer(t testing.TB) peer.ID {
	t.Helper()
	id, err := peer.Decode(testPeerID)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func testInvite(t testing.TB) Invite {
	t.Helper()
	return Invite{
		Host:   testPeer(t),
		Relay:  ma.StringCast("/ip4/11.0.0.1/tcp/4001/p2p/" + testRelayID),
		Direct: []ma.Multiaddr{ma.StringCast("/ip4/11.0.0.11/tcp/40123"), ma.StringCast("/ip4/11.0.0.11/udp/40123/quic-v1")},
	}
}

func TestInviteRoundTrip(t *testing.T) {
	full := testInvite(t)
	noRelay := full
	noRelay.Relay = nil
	bare := Invite{Host: full.Host}
	for _, tc := range []struct {
		name string
		in   Invite
	}{{"relay and direct", full}, {"direct only", noRelay}, {"host only", bare}} {
		t.Run(tc.name, func(t *testing.T) {
			code, err := tc.in.Encode()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d characters: %s", len(code), code)
			// As typed: lower case, no dashes, O for 0 and l for 1, a line break.
			typed := strings.NewReplacer("-", "", "0", "o", "1", "l").Replace(strings.ToLower(code))
			typed = typed[:10] + "\n" + typed[10:]
			for _, c := range []string{code, typed} {
				got, err := DecodeInvite(c)
				if err != nil {
					t.Fatalf("decode %q: %v", c, err)
				}
				if !sameInvite(&got, &tc.in) {
					t.Fatalf("decoded %+v, want %+v", got, tc.in)
				}
			}
		})
	}
	ai := full.AddrInfo()
	if ai.ID != full.Host || len(ai.Addrs) != 3 || ai.Addrs[0].String() != "/ip4/11.0.0.1/tcp/4001/p2p/"+testRelayID+"/p2p-circuit" {
		t.Fatalf("AddrInfo %v", ai)
	}
}

func TestInviteRefusals(t *testing.T) {
	inv := testInvite(t)
	code, err := inv.Encode()
	if err != nil {
		t.Fatal(err)
	}
	swap := func(s string, i int) string { // a typo: one symbol changed
		b := []byte(s)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	for _, tc := range []struct{ name, code string }{
		{"empty", ""},
		{"other prefix", "HF2-" + code[4:]},
		{"typo", swap(code, 20)},
		{"typo near the end", swap(code, len(code)-2)},
		{"symbol missing", code[:len(code)-1]},
		{"symbol extra", code + "7"},
		{"foreign letter", code[:10] + "U" + code[11:]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := DecodeInvite(tc.code); !errors.Is(err, ErrBadInvite) {
				t.Fatalf("decode %q: %v, want ErrBadInvite", tc.code, err)
			}
		})
	}
	bad := inv
	bad.Relay = ma.StringCast("/ip4/11.0.0.1/tcp/4001") // no relay peer ID
	if _, err := bad.Encode(); !errors.Is(err, ErrBadInvite) {
		t.Fatalf("encode without relay ID: %v", err)
	}
}

func TestCrockfordRoundTrip(t *testing.T) {
	for n := range 40 {
		b := bytes.Repeat([]byte{0xa5, 0x00, 0xff, 0x3c}, 10)[:n]
		got, err := crockford.decode(crockford.encode(b))
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("%d bytes: got %x, %v", n, got, err)
		}
	}
}

func sameInvite(a, b *Invite) bool {
	if a.Host != b.Host || (a.Relay == nil) != (b.Relay == nil) || len(a.Direct) != len(b.Direct) {
		return false
	}
	if a.Relay != nil && !a.Relay.Equal(b.Relay) {
		return false
	}
	for i := range a.Direct {
		if !a.Direct[i].Equal(b.Direct[i]) {
			return false
		}
	}
	return true
}

func FuzzDecodeInvite(f *testing.F) {
	inv := testInvite(f)
	code, _ := inv.Encode()
	f.Add(code)
	f.Add("HF1-")
	f.Add("hf1-00000-00000")
	f.Add(code[:len(code)-3])
	f.Fuzz(func(t *testing.T, s string) {
		inv, err := DecodeInvite(s)
		if err != nil {
			if !errors.Is(err, ErrBadInvite) && !strings.Contains(err.Error(), "invite") {
				t.Fatalf("error does not say what is wrong: %v", err)
			}
			return
		}
		// What decodes encodes again, to a code that decodes the same.
		again, err := inv.Encode()
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		back, err := DecodeInvite(again)
		if err != nil || !sameInvite(&back, &inv) {
			t.Fatalf("round trip: %+v → %q → %+v, %v", inv, again, back, err)
		}
	})
}
