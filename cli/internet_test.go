package cli

import (
	"errors"
	"testing"

	"hostfall/p2p/codes"
	"hostfall/p2p/relay"
)

const testBoot = "/ip4/11.0.0.100/tcp/4001/p2p/12D3KooWPMg4ZbAVnDK9Vwf9hgW3zREW76LKXTWYtjHFdyLo2Fcq"

// Internet play is off unless a flag asks for it; the lists imply it; the
// default bootstrap list stays for p2p to fill in (nil here).
func TestAddInternet(t *testing.T) {
	for _, tt := range []struct {
		args        []string
		on          bool
		boot, relay int
		err         bool
	}{
		{nil, false, 0, 0, false},
		{[]string{"--internet"}, true, 0, 0, false},
		{[]string{"--bootstrap", testBoot + "," + testBoot}, true, 2, 0, false},
		{[]string{"--internet", "--static-relays", testBoot}, true, 0, 1, false},
		{[]string{"--bootstrap", "/ip4/1.2.3.4/tcp/1"}, false, 0, 0, true},
		{[]string{"--internet=false"}, false, 0, 0, true},
	} {
		var cfg *codes.InternetConfig
		fs := newFlags()
		AddInternet(fs, &cfg)
		err := Parse(fs, tt.args)
		if (err != nil) != tt.err {
			t.Errorf("%q: error %v", tt.args, err)
			continue
		}
		if tt.err {
			continue
		}
		if (cfg != nil) != tt.on || (cfg != nil && (len(cfg.Bootstrap) != tt.boot || len(cfg.Relays) != tt.relay)) {
			t.Errorf("%q: config %+v", tt.args, cfg)
		}
	}
}

// A short code turns internet play on, or with --relay is looked up in
// that relay's rendezvous; a long one takes its relay; a mistyped short
// code is a usage error.
func TestInviteResolver(t *testing.T) {
	code := codes.CodeFor("host", []byte("salt")).String()
	var p HostJoinFlags
	r, err := p.InviteResolver(code)
	if err != nil || p.Internet == nil {
		t.Fatalf("short code: %v, %v, internet %v", r, err, p.Internet)
	}
	if _, ok := r.(codes.CodeResolver); !ok {
		t.Errorf("short code resolved by %T", r)
	}
	p = HostJoinFlags{}
	p.Relay = testBoot
	if r, err := p.InviteResolver(code); err != nil || p.Internet != nil {
		t.Errorf("short code with --relay: %v, internet %v", err, p.Internet)
	} else if rr, ok := r.(relay.CodeResolver); !ok || rr.Code.String() != code {
		t.Errorf("short code with --relay resolved by %T %+v", r, r)
	}
	p = HostJoinFlags{}
	bad := []byte(code)
	bad[0], bad[1] = bad[1], bad[0]
	if bad[0] != bad[1] {
		if _, err := p.InviteResolver(string(bad)); !errors.Is(err, ErrUsage) {
			t.Errorf("swapped symbols: %v", err)
		}
	}
}
