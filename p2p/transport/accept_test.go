package transport

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
	"runtime"
	"testing"
	"time"

	ma "github.com/multiformats/go-multiaddr"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) step(d time.Duration)    { c.t = c.t.Add(d) }
func newBudget() (*acceptBudget, *fakeClock) { return newBudgetSparing(nil) }

func newBudgetSparing(unlimited []netip.Prefix) (*acceptBudget, *fakeClock) {
	c := &fakeClock{t: time.Unix(1_000_000, 0)}
	return newAcceptBudget(c.now, unlimited), c
}

func addr(s string) ma.Multiaddr { return ma.StringCast(s) }

// accepted counts how many of n connections from a the budget lets in.
func accepted(b *acceptBudget, a ma.Multiaddr, n int) int {
	ok := 0
	for range n {
		if b.allow(a) {
			ok++
		}
	}
	return ok
}

// The budget of one source, of a member's source and of all strangers,
// step by step on a clock the test moves.
func TestAcceptBudget(t *testing.T) {
	const (
		a = "/ip4/10.0.0.1/tcp/4001"
		b = "/ip4/10.0.0.2/tcp/4001"
	)
	type step struct {
		wait   time.Duration
		member string // note a member connected from here first
		from   string
		tries  int
		want   int
	}
	cases := []struct {
		name  string
		spare []netip.Prefix
		steps []step
	}{
		{"a stranger's burst, then its rate", nil, []step{
			{from: a, tries: 40, want: strangerAcceptBurst},
			{wait: 250 * time.Millisecond, from: a, tries: 5, want: 1},
			{wait: time.Second, from: a, tries: 10, want: strangerAcceptRate},
			{wait: time.Hour, from: a, tries: 40, want: strangerAcceptBurst},
		}},
		{"another port of one address is the same source", nil, []step{
			{from: a, tries: strangerAcceptBurst, want: strangerAcceptBurst},
			{from: "/ip4/10.0.0.1/udp/9/quic-v1", tries: 3, want: 0},
			{from: b, tries: 3, want: 3},
		}},
		{"strangers share one budget", nil, []step{
			{from: "/ip4/10.0.0.1/tcp/1", tries: 16, want: 16},
			{from: "/ip4/10.0.0.2/tcp/1", tries: 16, want: 16},
			{from: "/ip4/10.0.0.3/tcp/1", tries: 16, want: 16},
			{from: "/ip4/10.0.0.4/tcp/1", tries: 16, want: 16},
			{from: "/ip4/10.0.0.5/tcp/1", tries: 16, want: 0},
			{wait: time.Second, from: "/ip4/10.0.0.5/tcp/1", tries: 100, want: 16}, // the shared one refilled 32
			{from: "/ip4/10.0.0.6/tcp/1", tries: 100, want: 16},
			{from: "/ip4/10.0.0.7/tcp/1", tries: 100, want: 0},
		}},
		{"a member's source has more and does not share", nil, []step{
			{from: "/ip4/10.0.0.1/tcp/1", tries: 16, want: 16},
			{from: "/ip4/10.0.0.2/tcp/1", tries: 16, want: 16},
			{from: "/ip4/10.0.0.3/tcp/1", tries: 16, want: 16},
			{from: "/ip4/10.0.0.4/tcp/1", tries: 16, want: 16},
			{member: "/ip4/10.0.0.9/tcp/5", from: "/ip4/10.0.0.9/tcp/6", tries: 100, want: memberAcceptBurst},
			{wait: time.Second, from: "/ip4/10.0.0.9/tcp/6", tries: 100, want: memberAcceptRate},
		}},
		{"strangers behind a member's NAT use the member's budget, not the rest", nil, []step{
			{member: a, from: a, tries: 1000, want: memberAcceptBurst},
			{from: b, tries: 100, want: strangerAcceptBurst},
		}},
		{"a member's source is kept a while after it went", nil, []step{
			{member: a, wait: 9 * time.Minute, from: a, tries: 100, want: memberAcceptBurst},
			{wait: 2 * time.Minute, from: a, tries: 100, want: strangerAcceptBurst},
		}},
		{"a circuit is its relay's source, apart from the relay's own", nil, []step{
			{from: "/ip4/10.0.0.1/tcp/1/p2p/12D3KooWQYhTNQdmr3ArTeUHRYzFg94BKyTkoWBDWez9kSCVe2Xo/p2p-circuit", tries: 100, want: strangerAcceptBurst},
			{from: a, tries: 100, want: strangerAcceptBurst},
		}},
		{"IPv6: one /64 is one source", nil, []step{
			{from: "/ip6/2001:db8::1/tcp/1", tries: 10, want: 10},
			{from: "/ip6/2001:db8::2/tcp/1", tries: 10, want: strangerAcceptBurst - 10},
			{from: "/ip6/2001:db8:0:1::1/tcp/1", tries: 10, want: 10},
		}},
		{"no IP address: the shared budget alone", nil, []step{
			{from: "/dns4/example.com/tcp/1", tries: 100, want: globalAcceptBurst},
		}},
		{"spared networks are not counted", []netip.Prefix{netip.MustParsePrefix("10.0.0.0/24")}, []step{
			{from: a, tries: 1000, want: 1000},
			{from: "/ip4/10.0.1.1/tcp/1", tries: 100, want: strangerAcceptBurst},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, clock := newBudgetSparing(c.spare)
			for i, s := range c.steps {
				if s.member != "" {
					b.member(addr(s.member))
				}
				clock.step(s.wait)
				if got := accepted(b, addr(s.from), s.tries); got != s.want {
					t.Fatalf("step %d: %d of %d connections from %s let in, want %d", i, got, s.tries, s.from, s.want)
				}
			}
		})
	}
}

// Over any stretch of time, a stranger source never gets more than its
// burst and rate, all strangers never more than the shared ones, and the
// tables stay within their bounds, whatever the order of arrivals.
func TestAcceptBudgetProperty(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	b, clock := newBudget()
	start := clock.t
	sources := make([]ma.Multiaddr, 50)
	for i := range sources {
		sources[i] = addr(fmt.Sprintf("/ip4/10.1.%d.%d/tcp/1", i/250, i%250))
	}
	got := make([]int, len(sources))
	total := 0
	for range 100_000 {
		clock.step(time.Duration(rng.IntN(3)) * time.Millisecond)
		i := rng.IntN(len(sources))
		if b.allow(sources[i]) {
			got[i]++
			total++
		}
	}
	secs := clock.t.Sub(start).Seconds()
	for i, n := range got {
		if limit := strangerAcceptBurst + strangerAcceptRate*secs; float64(n) > limit {
			t.Fatalf("seed %d: source %d got %d connections in %.1f s, more than %.0f", seed, i, n, secs, limit)
		}
	}
	if limit := globalAcceptBurst + globalAcceptRate*secs; float64(total) > limit {
		t.Fatalf("seed %d: strangers got %d connections in %.1f s, more than %.0f", seed, total, secs, limit)
	}
	if n, _ := b.sizes(); n > len(sources) {
		t.Fatalf("seed %d: %d sources kept for %d", seed, n, len(sources))
	}
}

// The table of sources is bounded however many addresses call, and its
// entries go once they are full again. Its bytes a source are a figure.
func TestAcceptSourcesBounded(t *testing.T) {
	b, clock := newBudget()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range 10_000 {
		b.allow(addr(fmt.Sprintf("/ip4/10.%d.%d.%d/tcp/1", i>>16, i>>8&255, i&255)))
		clock.step(100 * time.Microsecond)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	n, _ := b.sizes()
	if n > maxAcceptSources {
		t.Fatalf("%d sources kept, bound %d", n, maxAcceptSources)
	}
	t.Logf("FIGURE %d sources kept after 10,000 addresses: %d bytes of heap each", n, (after.HeapAlloc-before.HeapAlloc)/uint64(max(n, 1)))
	clock.step(refilled + 2*time.Second)
	b.allow(addr("/ip4/10.200.0.1/tcp/1"))
	if n, _ := b.sizes(); n != 1 {
		t.Fatalf("%d sources kept once every bucket was full again, want 1", n)
	}
	for i := range 10_000 {
		b.member(addr(fmt.Sprintf("/ip4/10.%d.%d.%d/tcp/1", i>>16, i>>8&255, i&255)))
	}
	if _, m := b.sizes(); m > maxMemberSources {
		t.Fatalf("%d member sources kept, bound %d", m, maxMemberSources)
	}
}

// Whatever the bytes of an address, its source is found or refused without
// a panic, and a source is an IPv4 address or an IPv6 /64.
func FuzzSourceOf(f *testing.F) {
	for _, s := range []string{"/ip4/10.0.0.1/tcp/1", "/ip6/2001:db8::1/udp/1/quic-v1", "/ip4/1.2.3.4/tcp/1/p2p/12D3KooWQYhTNQdmr3ArTeUHRYzFg94BKyTkoWBDWez9kSCVe2Xo/p2p-circuit", "/dns4/x/tcp/1"} {
		f.Add(addr(s).Bytes())
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := ma.NewMultiaddrBytes(raw)
		if err != nil {
			return
		}
		k, ok := sourceOf(a)
		if ok && k.net.Bits() != 32 && k.net.Bits() != 64 {
			t.Fatalf("%s: source %v", a, k.net)
		}
		b, _ := newBudget()
		b.allow(a)
		b.member(a)
	})
}

// Handshakes under way are bounded per source, at a member's source more,
// and a place comes back when the handshake or the connection ends, once.
func TestHandshakesBoundedPerSource(t *testing.T) {
	for _, tc := range []struct {
		name   string
		member bool
		most   int
	}{{"a stranger's source", false, strangerAcceptBurst}, {"a member's source", true, memberAcceptBurst}} {
		t.Run(tc.name, func(t *testing.T) {
			b, c := newBudget()
			a := addr("/ip4/10.0.0.1/tcp/4001")
			if tc.member {
				b.member(a)
			}
			var open []func()
			for range 3 * tc.most {
				c.step(time.Second) // tokens to spare: only the places bound
				if done, ok := b.open(a); ok {
					open = append(open, done)
				}
			}
			if len(open) != tc.most || b.handshaking() != tc.most {
				t.Fatalf("%d handshakes at once (%d counted), want %d", len(open), b.handshaking(), tc.most)
			}
			open[0]()
			open[0]() // a connection whose handshake ended, then the connection
			if b.handshaking() != tc.most-1 {
				t.Fatalf("%d handshakes counted after one ended, want %d", b.handshaking(), tc.most-1)
			}
			if _, ok := b.open(a); !ok {
				t.Fatal("the freed place was refused")
			}
			if _, ok := b.open(addr("/ip4/10.0.0.2/tcp/4001")); !ok {
				t.Fatal("another source was refused")
			}
		})
	}
}
