package rendezvous

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/record"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/internal/testwait"
)

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

func newHost(t testing.TB) host.Host {
	t.Helper()
	h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func info(h host.Host) peer.AddrInfo { return peer.AddrInfo{ID: h.ID(), Addrs: h.Addrs()} }

func ids(regs []Registration) []peer.ID {
	out := make([]peer.ID, len(regs))
	for i, r := range regs {
		out[i] = r.Peer.ID
	}
	return out
}

// Register, discover (one namespace and all), TTLs cut and refused, and
// unregister, over real libp2p streams on loopback.
func TestRegisterDiscover(t *testing.T) {
	point := newHost(t)
	srv := NewServer(point, ServerOptions{MinTTL: time.Minute, MaxTTL: time.Hour, Logger: quiet()})
	defer srv.Close()
	a, b, c := newHost(t), newHost(t), newHost(t)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	rp := info(point)

	ttl, err := Register(ctx, a, rp, "games", 10*time.Hour, nil)
	if err != nil || ttl != time.Hour {
		t.Fatalf("a TTL over the maximum: granted %v, %v; want it cut to 1h", ttl, err)
	}
	ttl, err = Register(ctx, b, rp, "games", 5*time.Second, nil)
	if err != nil || ttl != time.Hour {
		t.Fatalf("a TTL under the minimum: granted %v, %v; want the point's default (1h) on the retry", ttl, err)
	}
	if _, err := Register(ctx, b, rp, "chat", 2*time.Minute, nil); err != nil {
		t.Fatal(err)
	}
	got, err := Discover(ctx, c, rp, "games", 0)
	if err != nil || !slices.Equal(ids(got), []peer.ID{a.ID(), b.ID()}) {
		t.Fatalf("discover games: %v, %v", ids(got), err)
	}
	if len(got[0].Peer.Addrs) == 0 || !got[0].Peer.Addrs[0].Equal(a.Addrs()[0]) {
		t.Fatalf("a's addresses from its record: %v, want %v", got[0].Peer.Addrs, a.Addrs())
	}
	all, err := Discover(ctx, c, rp, "", 0)
	if err != nil || len(all) != 3 {
		t.Fatalf("discover every namespace: %d registrations, %v", len(all), err)
	}
	if err := Unregister(ctx, a, rp, "games"); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "a's registration gone from the point", 5*time.Second, func() bool { return len(srv.Peers("games")) == 1 })
	if got, err := Discover(ctx, c, rp, "games", 0); err != nil || !slices.Equal(ids(got), []peer.ID{b.ID()}) {
		t.Fatalf("after a unregistered: %v, %v", ids(got), err)
	}
	if _, err := Register(ctx, a, rp, string(make([]byte, 256)), 0, nil); !isStatus(err, StatusInvalidNamespace) {
		t.Fatalf("a 256-byte namespace: %v", err)
	}
}

func isStatus(err error, st Status) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == st
}

// A point that does not serve the protocol is an ErrUnreachable.
func TestNoPoint(t *testing.T) {
	a, b := newHost(t), newHost(t)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := Discover(ctx, a, info(b), "games", 0); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("discover at a peer without a point: %v", err)
	}
}

// key is a fresh identity with its peer ID.
type key struct {
	priv crypto.PrivKey
	id   peer.ID
}

func newKey(t testing.TB) key {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := peer.IDFromPrivateKey(k)
	return key{k, id}
}

// sealed is a signed record of the peer `of`, signed with signer's key.
func sealed(t testing.TB, signer crypto.PrivKey, of peer.ID) []byte {
	t.Helper()
	env, err := record.Seal(peer.PeerRecordFromAddrInfo(peer.AddrInfo{ID: of, Addrs: []ma.Multiaddr{ma.StringCast("/ip4/192.0.2.1/tcp/4001")}}), signer)
	if err != nil {
		t.Fatal(err)
	}
	b, err := env.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func registerReq(t testing.TB, k key, ns string, ttl int64) *Message {
	return &Message{Type: TypeRegister, Register: &RegisterMsg{Ns: ns, SignedPeerRecord: sealed(t, k.priv, k.id), TTL: ttl}}
}

func status(m *Message) Status {
	switch {
	case m == nil:
		return -1
	case m.RegisterResponse != nil:
		return m.RegisterResponse.Status
	case m.DiscoverResponse != nil:
		return m.DiscoverResponse.Status
	}
	return -2
}

// Every refusal the point makes, served without a network.
func TestServerRefusals(t *testing.T) {
	other := newKey(t)
	allowed := newKey(t)
	cases := []struct {
		name string
		opt  ServerOptions
		prep func(s *Server) // registrations made before
		from func() (key, string)
		req  func(k key) *Message
		want Status
	}{
		{"ok", ServerOptions{}, nil, nil, func(k key) *Message { return registerReq(t, k, "g", 60) }, StatusOK},
		{"empty namespace", ServerOptions{}, nil, nil, func(k key) *Message { return registerReq(t, k, "", 60) }, StatusInvalidNamespace},
		{"ttl too short", ServerOptions{}, nil, nil, func(k key) *Message { return registerReq(t, k, "g", 1) }, StatusInvalidTTL},
		{"negative ttl", ServerOptions{}, nil, nil, func(k key) *Message { return registerReq(t, k, "g", -5) }, StatusInvalidTTL},
		{"huge ttl is cut", ServerOptions{}, nil, nil, func(k key) *Message { return registerReq(t, k, "g", 1<<62) }, StatusOK},
		{"no record", ServerOptions{}, nil, nil, func(key) *Message {
			return &Message{Type: TypeRegister, Register: &RegisterMsg{Ns: "g"}}
		}, StatusInvalidPeerRecord},
		{"junk record", ServerOptions{}, nil, nil, func(key) *Message {
			return &Message{Type: TypeRegister, Register: &RegisterMsg{Ns: "g", SignedPeerRecord: []byte("junk")}}
		}, StatusInvalidPeerRecord},
		{"someone else's record", ServerOptions{}, nil, nil, func(key) *Message {
			return &Message{Type: TypeRegister, Register: &RegisterMsg{Ns: "g", SignedPeerRecord: sealed(t, other.priv, other.id)}}
		}, StatusInvalidPeerRecord},
		{"a record of me signed by another key", ServerOptions{}, nil, nil, func(k key) *Message {
			return &Message{Type: TypeRegister, Register: &RegisterMsg{Ns: "g", SignedPeerRecord: sealed(t, other.priv, k.id)}}
		}, StatusInvalidPeerRecord},
		{"not allowed", ServerOptions{Allow: func(p peer.ID) bool { return p == allowed.id }}, nil, nil,
			func(k key) *Message { return registerReq(t, k, "g", 60) }, StatusNotAuthorized},
		{"allowed", ServerOptions{Allow: func(p peer.ID) bool { return p == allowed.id }}, nil,
			func() (key, string) { return allowed, "192.0.2.1" },
			func(k key) *Message { return registerReq(t, k, "g", 60) }, StatusOK},
		{"full", ServerOptions{MaxAll: 2}, fill(t, 2, "g", func(i int) string { return fmt.Sprint("192.0.2.", i) }), nil,
			func(k key) *Message { return registerReq(t, k, "g", 60) }, StatusUnavailable},
		{"address full", ServerOptions{MaxPerAddr: 3}, fill(t, 3, "g", func(int) string { return "198.51.100.7" }),
			func() (key, string) { return newKey(t), "198.51.100.7" },
			func(k key) *Message { return registerReq(t, k, "g", 60) }, StatusNotAuthorized},
		{"another address", ServerOptions{MaxPerAddr: 3}, fill(t, 3, "g", func(int) string { return "198.51.100.7" }),
			func() (key, string) { return newKey(t), "203.0.113.9" },
			func(k key) *Message { return registerReq(t, k, "g", 60) }, StatusOK},
		{"bad cookie", ServerOptions{}, nil, nil, func(key) *Message {
			return &Message{Type: TypeDiscover, Discover: &DiscoverMsg{Ns: "g", Cookie: []byte{1, 2, 3}}}
		}, StatusInvalidCookie},
		{"long namespace", ServerOptions{}, nil, nil, func(key) *Message {
			return &Message{Type: TypeDiscover, Discover: &DiscoverMsg{Ns: string(make([]byte, 300))}}
		}, StatusInvalidNamespace},
		{"no message", ServerOptions{}, nil, nil, func(key) *Message { return &Message{Type: TypeRegister} }, StatusInternalError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newServer(c.opt)
			s.log = quiet()
			if c.prep != nil {
				c.prep(s)
			}
			k, addr := newKey(t), "192.0.2.200"
			if c.from != nil {
				k, addr = c.from()
			}
			if got := status(s.Serve(k.id, addr, c.req(k))); got != c.want {
				t.Fatalf("status %v, want %v", got, c.want)
			}
		})
	}
}

// fill registers n fresh peers under ns, peer i from addr(i).
func fill(t testing.TB, n int, ns string, addr func(int) string) func(*Server) {
	return func(s *Server) {
		for i := range n {
			k := newKey(t)
			if st := status(s.Serve(k.id, addr(i), registerReq(t, k, ns, 60))); st != StatusOK {
				t.Fatalf("fill %d: %v", i, st)
			}
		}
	}
}

// A peer's namespaces are bounded, a re-registration replaces (and does
// not count twice), and a registration past its TTL goes.
func TestServerPerPeerAndExpiry(t *testing.T) {
	s := newServer(ServerOptions{MaxPerPeer: 2, MinTTL: time.Second})
	s.log = quiet()
	now := time.Now()
	s.now = func() time.Time { return now }
	k := newKey(t)
	for _, ns := range []string{"a", "b", "a"} {
		if st := status(s.Serve(k.id, "192.0.2.1", registerReq(t, k, ns, 10))); st != StatusOK {
			t.Fatalf("register %s: %v", ns, st)
		}
	}
	if st := status(s.Serve(k.id, "192.0.2.1", registerReq(t, k, "c", 10))); st != StatusNotAuthorized {
		t.Fatalf("a third namespace: %v", st)
	}
	now = now.Add(11 * time.Second)
	if got := s.Peers("a"); len(got) != 0 {
		t.Fatalf("expired registration still listed: %v", got)
	}
	if st := status(s.Serve(k.id, "192.0.2.1", registerReq(t, k, "c", 10))); st != StatusOK {
		t.Fatalf("after expiry: %v", st)
	}
}

// DISCOVER pages by cookie in registration order, and a cookie asks only
// for what is newer.
func TestServerPaging(t *testing.T) {
	s := newServer(ServerOptions{Limit: 3})
	s.log = quiet()
	fill(t, 7, "g", func(i int) string { return fmt.Sprint("192.0.2.", i) })(s)
	var cookie []byte
	var pages []int
	seen := 0
	for range 5 {
		r := s.Serve(newKey(t).id, "", &Message{Type: TypeDiscover, Discover: &DiscoverMsg{Ns: "g", Cookie: cookie}}).DiscoverResponse
		if len(r.Registrations) == 0 {
			break
		}
		pages = append(pages, len(r.Registrations))
		seen += len(r.Registrations)
		cookie = r.Cookie
	}
	if !slices.Equal(pages, []int{3, 3, 1}) || seen != 7 {
		t.Fatalf("pages %v", pages)
	}
	k := newKey(t)
	s.Serve(k.id, "203.0.113.1", registerReq(t, k, "g", 60))
	r := s.Serve(k.id, "", &Message{Type: TypeDiscover, Discover: &DiscoverMsg{Ns: "g", Cookie: cookie, Limit: 1}}).DiscoverResponse
	if len(r.Registrations) != 1 {
		t.Fatalf("a cookie after a new registration gives %d", len(r.Registrations))
	}
	if pr, err := OpenRecord(r.Registrations[0].SignedPeerRecord); err != nil || pr.PeerID != k.id {
		t.Fatalf("the new registration: %v, %v", pr, err)
	}
}

// Any bytes: an error or a message whose encoding is stable, never a panic.
func FuzzUnmarshal(f *testing.F) {
	k := newKey(f)
	for _, m := range []*Message{
		registerReq(f, k, "hostfall/games/1", 120),
		{Type: TypeRegisterResponse, RegisterResponse: &RegisterResponse{Status: StatusInvalidTTL, StatusText: "x", TTL: 7}},
		{Type: TypeUnregister, Unregister: &UnregisterMsg{Ns: "g"}},
		{Type: TypeDiscover, Discover: &DiscoverMsg{Ns: "g", Limit: 3, Cookie: []byte{0, 0, 0, 0, 0, 0, 0, 9}}},
		{Type: TypeDiscoverResponse, DiscoverResponse: &DiscoverResponse{Registrations: []RegisterMsg{*registerReq(f, k, "g", 5).Register}, Cookie: []byte{1}}},
	} {
		f.Add(m.Marshal())
	}
	f.Add([]byte{0x12, 0x05, 0x08})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Unmarshal(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("an error that is not ErrMalformed: %v", err)
			}
			return
		}
		once := m.Marshal()
		m2, err := Unmarshal(once)
		if err != nil {
			t.Fatalf("our own encoding does not decode: %v", err)
		}
		if !bytes.Equal(m2.Marshal(), once) {
			t.Fatal("encoding is not stable")
		}
	})
}

// Any request to the point: an answer or none, never a panic, and the
// point stays within its bounds.
func FuzzServe(f *testing.F) {
	k := newKey(f)
	f.Add(registerReq(f, k, "g", 60).Marshal())
	f.Add((&Message{Type: TypeDiscover, Discover: &DiscoverMsg{Ns: "g"}}).Marshal())
	f.Add((&Message{Type: TypeUnregister, Unregister: &UnregisterMsg{Ns: "g"}}).Marshal())
	s := newServer(ServerOptions{MaxPerPeer: 3})
	s.log = quiet()
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Unmarshal(b)
		if err != nil {
			return
		}
		s.Serve(k.id, "192.0.2.1", m)
		n := 0
		for _, byPeer := range s.regs {
			n += len(byPeer)
		}
		if n > 3 {
			t.Fatalf("one peer holds %d registrations", n)
		}
	})
}

// A decoded message shares no memory with its bytes: readers hand those
// back to a buffer pool, and a record read from one was once corrupted by
// the next message into the same buffer.
func TestUnmarshalCopies(t *testing.T) {
	k := newKey(t)
	m := &Message{Type: TypeDiscoverResponse, DiscoverResponse: &DiscoverResponse{
		Registrations: []RegisterMsg{*registerReq(t, k, "g", 60).Register}, Cookie: []byte{0, 0, 0, 0, 0, 0, 0, 1}}}
	b := m.Marshal()
	got, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	clear(b)
	if _, err := OpenRecord(got.DiscoverResponse.Registrations[0].SignedPeerRecord); err != nil {
		t.Fatalf("the record after its bytes were reused: %v", err)
	}
	if !bytes.Equal(got.DiscoverResponse.Cookie, m.DiscoverResponse.Cookie) {
		t.Fatal("the cookie changed with its bytes")
	}
}

// Any DISCOVER answer: only registrations whose records verify are kept,
// each once, never a panic.
func FuzzDiscoverAnswer(f *testing.F) {
	k := newKey(f)
	good := *registerReq(f, k, "g", 60).Register
	f.Add((&Message{Type: TypeDiscoverResponse, DiscoverResponse: &DiscoverResponse{
		Registrations: []RegisterMsg{good, good, {Ns: "g", SignedPeerRecord: []byte("junk")}}}}).Marshal())
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Unmarshal(b)
		if err != nil || m.DiscoverResponse == nil {
			return
		}
		var out []Registration
		n := collect(&out, map[string]bool{}, m.DiscoverResponse.Registrations)
		if n != len(out) {
			t.Fatalf("collect says %d, keeps %d", n, len(out))
		}
		seen := map[string]bool{}
		for _, r := range out {
			key := r.Ns + "\x00" + string(r.Peer.ID)
			if r.Peer.ID == "" || seen[key] || r.TTL < 0 {
				t.Fatalf("kept %+v", r)
			}
			seen[key] = true
		}
	})
}

func TestSecondsNeverOverflow(t *testing.T) {
	for _, n := range []int64{-1 << 62, -1, 0, 1, 7200, 1 << 40, 1<<63 - 1} {
		if d := seconds(n); d < 0 || (n > 0 && d == 0) {
			t.Errorf("seconds(%d) = %v", n, d)
		}
	}
}
