package beacon

import (
	"bytes"
	"errors"
	"net"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPacketRoundTrip(t *testing.T) {
	for _, p := range []Packet{
		{Kind: KindQuery},
		{Kind: KindAnnounce, Instance: 7, TXT: []string{"txtvers=1", "name=lan party", ""}},
		{Kind: KindGoodbye, Instance: 1 << 63, TXT: []string{strings.Repeat("x", 255)}},
	} {
		b, err := p.Encode()
		if err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		got, err := Decode(b)
		if err != nil {
			t.Fatalf("%+v: decode: %v", p, err)
		}
		if got.Kind != p.Kind || got.Instance != p.Instance || !slices.Equal(got.TXT, p.TXT) {
			t.Fatalf("round trip: %+v became %+v", p, got)
		}
	}
}

func TestEncodeRefuses(t *testing.T) {
	for name, p := range map[string]Packet{
		"kind 0":         {},
		"long string":    {Kind: KindAnnounce, TXT: []string{strings.Repeat("x", 256)}},
		"too many":       {Kind: KindAnnounce, TXT: make([]string, MaxStrings+1)},
		"past MaxPacket": {Kind: KindAnnounce, TXT: slices.Repeat([]string{strings.Repeat("x", 200)}, 6)},
	} {
		if _, err := p.Encode(); err == nil {
			t.Errorf("%s: encoded", name)
		}
	}
}

func TestDecodeRefuses(t *testing.T) {
	good, _ := (&Packet{Kind: KindAnnounce, Instance: 3, TXT: []string{"a=1", "b=2"}}).Encode()
	with := func(i int, v byte) []byte { b := bytes.Clone(good); b[i] = v; return b }
	for _, c := range []struct {
		name string
		b    []byte
		want error
	}{
		{"empty", nil, ErrNotBeacon},
		{"other magic", with(0, 'X'), ErrNotBeacon},
		{"newer", with(4, version+1), ErrNewer},
		{"version 0", with(4, 0), ErrMalformed},
		{"short header", good[:headerLen-1], ErrMalformed},
		{"kind 9", with(5, 9), ErrMalformed},
		{"count too big", with(headerLen-1, MaxStrings+1), ErrMalformed},
		{"count past end", with(headerLen-1, 3), ErrMalformed},
		{"string past end", good[:len(good)-1], ErrMalformed},
		{"trailing", append(bytes.Clone(good), 0), ErrMalformed},
		{"query with strings", with(5, byte(KindQuery)), ErrMalformed},
		{"too large", make([]byte, MaxPacket+1), ErrMalformed},
	} {
		if _, err := Decode(c.b); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// FuzzDecode: any bytes decode or are refused, never crash, and what
// decodes encodes back to the same bytes.
func FuzzDecode(f *testing.F) {
	for _, p := range []Packet{{Kind: KindQuery}, {Kind: KindAnnounce, Instance: 9, TXT: []string{"txtvers=1", "peer=x"}}} {
		b, _ := p.Encode()
		f.Add(b)
	}
	f.Add([]byte("HFLB\x02"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Decode(b)
		if err != nil {
			return
		}
		again, err := p.Encode()
		if err != nil {
			t.Fatalf("decoded %+v does not encode: %v", p, err)
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("re-encoded %x, read %x", again, b)
		}
	})
}

func TestLimiter(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLimiter(3, 100*time.Millisecond)
	if !l.allow("a", now) || l.allow("a", now.Add(50*time.Millisecond)) {
		t.Fatal("a source is answered once per gap")
	}
	if !l.allow("b", now) || !l.allow("c", now) || l.allow("d", now) {
		t.Fatal("at most rate answers in a burst")
	}
	if !l.allow("d", now.Add(time.Second)) {
		t.Fatal("tokens come back with time")
	}
	for i := range maxSources + 10 {
		l.allow(strings.Repeat("s", i+1), now.Add(2*time.Second+time.Duration(i)*time.Second))
	}
	if len(l.recent) > maxSources {
		t.Fatalf("remembers %d sources", len(l.recent))
	}
}

func TestDirectedBroadcast(t *testing.T) {
	for _, c := range []struct{ cidr, want string }{
		{"10.88.0.7/24", "10.88.0.255"}, {"192.168.1.130/25", "192.168.1.255"},
		{"10.0.0.1/31", "<nil>"}, {"127.0.0.1/8", "<nil>"}, {"fe80::1/64", "<nil>"},
	} {
		ip, n, _ := net.ParseCIDR(c.cidr)
		n.IP = ip
		if got := directedBroadcast(n).String(); got != c.want {
			t.Errorf("%s: %s, want %s", c.cidr, got, c.want)
		}
	}
}
