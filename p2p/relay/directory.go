package relay

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/p2p/discovery"
	"hostfall/p2p/rendezvous"
	"hostfall/p2p/transport"
)

// The session directory of a relay is a libp2p rendezvous point (package
// rendezvous, /rendezvous/1.0.0), so any implementation of the spec can
// serve it. A host registers under GamesNamespace with its signed peer
// record, which says who it is and where to dial it, and nothing more: the
// spec has no room for what the game is. So a browser asks each host it
// discovers for its listing over ListingProtocol: the same DNS-SD TXT
// strings the host announces on the LAN, fresh from the host itself, and a
// host that no longer answers is not listed even while its registration
// lasts.
const (
	GamesNamespace  = "hostfall/games/1"
	ListingProtocol = "/hostfall/listing/1"
)

// Directory bounds.
const (
	// DefaultDirTTL is the registration TTL hosts ask for, and the longest
	// `hostfall relay` grants by default; hosts register again at a third
	// of what they are granted.
	DefaultDirTTL    = 2 * time.Minute
	dirHeartbeatDiv  = 3
	dirListMax       = 256                       // hosts one listing asks about
	listingMaxBytes  = 2 * discovery.MaxTXTBytes // a listing answer (TXT wire format)
	listingLimit     = 3 * time.Second           // one host's answer
	listingParallel  = 8                         // hosts asked at once
	listingFreshness = 5 * time.Second
)

// ErrDirectory wraps every failure of a directory call.
var ErrDirectory = errors.New("session directory")

func dirErr(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %w", ErrDirectory, err)
}

// DirectoryRegister registers h under GamesNamespace with the rendezvous
// point relay and returns the TTL granted.
func DirectoryRegister(ctx context.Context, h *transport.Host, relay peer.AddrInfo) (time.Duration, error) {
	ttl, err := rendezvous.Register(ctx, h.LibP2P(), relay, GamesNamespace, DefaultDirTTL, nil)
	return ttl, dirErr(err)
}

// DirectoryEntry is one session a relay's directory lists: the host's
// listing, with the addresses of its signed peer record.
type DirectoryEntry struct {
	discovery.Announcement
}

// DirectoryList lists the sessions registered with the relay's directory:
// every host registered is asked for its listing, and those that do not
// answer in time, or answer with what cannot be read, are left out.
func DirectoryList(ctx context.Context, h *transport.Host, relay peer.AddrInfo) ([]DirectoryEntry, error) {
	return (&DirectoryLister{Host: h, Relay: relay}).List(ctx)
}

// DirectoryLister lists a relay's directory again and again, asking a host
// for its listing at most every listingFreshness.
type DirectoryLister struct {
	Host  *transport.Host
	Relay peer.AddrInfo

	mu    sync.Mutex
	cache map[peer.ID]cachedListing
}

type cachedListing struct {
	a    discovery.Announcement
	ok   bool
	when time.Time
}

// List discovers the registered hosts and asks each (the cached answer when
// fresh) for its listing; sorted by name then host.
func (l *DirectoryLister) List(ctx context.Context) ([]DirectoryEntry, error) {
	regs, err := rendezvous.Discover(ctx, l.Host.LibP2P(), l.Relay, GamesNamespace, dirListMax)
	if err != nil {
		return nil, dirErr(err)
	}
	regs = slices.DeleteFunc(regs, func(r rendezvous.Registration) bool { return r.Peer.ID == l.Host.ID() })
	l.mu.Lock()
	if l.cache == nil {
		l.cache = map[peer.ID]cachedListing{}
	}
	l.mu.Unlock()
	var wg sync.WaitGroup
	sem := make(chan struct{}, listingParallel)
	for _, r := range regs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			l.refresh(ctx, r.Peer)
		})
	}
	wg.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []DirectoryEntry
	live := map[peer.ID]bool{}
	for _, r := range regs {
		live[r.Peer.ID] = true
		if c := l.cache[r.Peer.ID]; c.ok {
			a := c.a
			a.Addrs = viaRelay(l.Relay, r.Peer.Addrs)
			out = append(out, DirectoryEntry{Announcement: a})
		}
	}
	maps.DeleteFunc(l.cache, func(id peer.ID, _ cachedListing) bool { return !live[id] }) // no longer registered
	slices.SortFunc(out, func(a, b DirectoryEntry) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(string(a.Host), string(b.Host))
	})
	return out, nil
}

// refresh asks host for its listing unless the cached one is fresh.
func (l *DirectoryLister) refresh(ctx context.Context, host peer.AddrInfo) {
	l.mu.Lock()
	c, had := l.cache[host.ID]
	l.mu.Unlock()
	if had && time.Since(c.when) < listingFreshness {
		return
	}
	a, err := AskListing(ctx, l.Host, peer.AddrInfo{ID: host.ID, Addrs: viaRelay(l.Relay, host.Addrs)})
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case err == nil:
		l.cache[host.ID] = cachedListing{a: a, ok: true, when: time.Now()}
	case had && c.ok && time.Since(c.when) < 3*listingFreshness:
		// one missed answer does not drop a game from the list
	default:
		l.cache[host.ID] = cachedListing{when: time.Now()}
	}
}

// viaRelay is addrs with the circuit through relay first: a host behind a
// NAT that registered before its reservation lacks it in its record.
func viaRelay(relay peer.AddrInfo, addrs []ma.Multiaddr) []ma.Multiaddr {
	var out []ma.Multiaddr
	if len(relay.Addrs) > 0 {
		out = append(out, relay.Addrs[0].Encapsulate(ma.StringCast("/p2p/"+relay.ID.String()+"/p2p-circuit")))
	}
	for _, a := range addrs {
		if !slices.ContainsFunc(out, a.Equal) {
			out = append(out, a)
		}
	}
	return out
}

// AskListing asks the host at ai what it hosts. A connection opened only
// for the question is closed after it: held open through a relay, it would
// take one of the relay's circuits to that host for nothing.
func AskListing(ctx context.Context, h *transport.Host, ai peer.AddrInfo) (discovery.Announcement, error) {
	ctx, cancel := context.WithTimeout(ctx, listingLimit)
	defer cancel()
	if h.LibP2P().Network().Connectedness(ai.ID) != network.Connected {
		defer closeUnlessPlaying(h, ai.ID)
	}
	if err := h.LibP2P().Connect(ctx, ai); err != nil {
		return discovery.Announcement{}, fmt.Errorf("%w: cannot reach the host %s: %v", ErrDirectory, ai.ID, err)
	}
	s, err := h.LibP2P().NewStream(network.WithAllowLimitedConn(ctx, "listing"), ai.ID, ListingProtocol)
	if err != nil {
		return discovery.Announcement{}, fmt.Errorf("%w: the host %s does not answer: %v", ErrDirectory, ai.ID, err)
	}
	defer s.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = s.SetDeadline(dl)
	}
	_ = s.CloseWrite()
	b, err := io.ReadAll(io.LimitReader(s, listingMaxBytes+1))
	if err != nil {
		s.Reset()
		return discovery.Announcement{}, fmt.Errorf("%w: no listing from %s: %v", ErrDirectory, ai.ID, err)
	}
	a, err := decodeListing(b, ai.ID)
	if err != nil {
		return discovery.Announcement{}, fmt.Errorf("%w: the listing of %s: %v", ErrDirectory, ai.ID, err)
	}
	return a, nil
}

// closeUnlessPlaying closes the connections to p that carry no session
// stream: a join begun while the question was asked keeps its connection.
func closeUnlessPlaying(h *transport.Host, p peer.ID) {
	for _, c := range h.LibP2P().Network().ConnsToPeer(p) {
		if !slices.ContainsFunc(c.GetStreams(), func(s network.Stream) bool { return s.Protocol() == transport.ProtocolID }) {
			_ = c.Close()
		}
	}
}

// decodeListing reads a listing answer of host: TXT strings in DNS wire
// format (RFC 1035 §3.3.14: each a length byte, then that many bytes).
func decodeListing(b []byte, host peer.ID) (discovery.Announcement, error) {
	if len(b) > listingMaxBytes {
		return discovery.Announcement{}, fmt.Errorf("over %d bytes", listingMaxBytes)
	}
	var txt []string
	for len(b) > 0 {
		n := int(b[0])
		if 1+n > len(b) {
			return discovery.Announcement{}, errors.New("a TXT string runs past the end")
		}
		txt = append(txt, string(b[1:1+n]))
		b = b[1+n:]
	}
	a, err := discovery.DecodeTXT(txt)
	if err != nil {
		return a, err
	}
	if a.Host != host {
		return discovery.Announcement{}, fmt.Errorf("it describes another host, %s", a.Host)
	}
	if a.State == discovery.AnnLooking {
		return discovery.Announcement{}, errors.New("the peer hosts nothing")
	}
	return a, nil
}

// encodeListing writes TXT strings in DNS wire format (strings are at most
// 255 bytes: Announcement.TXT keeps them so).
func encodeListing(txt []string) []byte {
	var b []byte
	for _, s := range txt {
		s = s[:min(len(s), discovery.MaxTXTString)]
		b = append(append(b, byte(len(s))), s...)
	}
	return b
}

// serveListing answers ListingProtocol on h with p's announcement while p
// hosts; the returned stop ends that.
func serveListing(h *transport.Host, p discovery.Hosting) (stop func()) {
	h.LibP2P().SetStreamHandler(ListingProtocol, func(s network.Stream) {
		defer s.Close()
		_ = s.SetDeadline(time.Now().Add(listingLimit))
		a, ok := p.Announce()
		if !ok {
			s.Reset()
			return
		}
		_, _ = s.Write(encodeListing(a.TXT()))
	})
	return func() { h.LibP2P().RemoveStreamHandler(ListingProtocol) }
}

// RegisterLobby keeps p's session in the relay's directory while p hosts it
// (from the start or after a migration), and answers listing questions.
func RegisterLobby(ctx context.Context, h *transport.Host, p discovery.Hosting, relay peer.AddrInfo, log *slog.Logger) (stop func()) {
	stopListing := serveListing(h, p)
	stopRegistering := keepRegistered(ctx, h, p, relay, GamesNamespace, "the session", cmp.Or(log, slog.Default()), nil)
	return func() {
		stopRegistering()
		stopListing()
	}
}

// keepRegistered keeps h registered under ns at the relay's rendezvous
// point while p hosts: again at a third of the TTL granted, or at once when
// its addresses change (the record carries them); it unregisters when p
// stops hosting or stop is called. what names the registration in the log.
func keepRegistered(ctx context.Context, h *transport.Host, p discovery.Hosting, relay peer.AddrInfo, ns, what string, log *slog.Logger, first func()) (stop func()) {
	registered := false
	var firstOnce sync.Once
	var next time.Time
	var last []string
	register := func(ctx context.Context, _ discovery.Announcement) {
		addrs := addrSet(h.LibP2P().Addrs())
		if time.Now().Before(next) && slices.Equal(addrs, last) {
			return
		}
		ttl, err := rendezvous.Register(ctx, h.LibP2P(), relay, ns, DefaultDirTTL, nil)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn(what+" is not on the relay's rendezvous point", "ns", ns, "err", dirErr(err))
			next = time.Now().Add(5 * time.Second)
		case err == nil:
			if !registered {
				log.Debug("directory: registered", "ns", ns, "relay", relay.ID)
				if first != nil {
					firstOnce.Do(first)
				}
			}
			registered, last = true, addrs
			next = time.Now().Add(max(ttl/dirHeartbeatDiv, time.Second))
		}
	}
	unregister := func() {
		if registered {
			uctx, ucancel := context.WithTimeout(context.Background(), 2*time.Second)
			_ = rendezvous.Unregister(uctx, h.LibP2P(), relay, ns)
			ucancel()
			registered, next = false, time.Time{} // hosting again registers at once
		}
	}
	return discovery.WhileHosting(ctx, p, discovery.AnnounceEvery*5, register, unregister)
}

// addrSet is addrs as sorted strings: the host lists them in no set order.
func addrSet(addrs []ma.Multiaddr) []string {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = a.String()
	}
	slices.Sort(out)
	return out
}

// DirectoryResolver finds a session by name in a relay's directory (join
// --relay R --session NAME).
type DirectoryResolver struct {
	Relay peer.AddrInfo
	Name  string
}

// Resolve lists the directory (again every second until ctx ends) and
// returns the host of the session with that name.
func (r DirectoryResolver) Resolve(ctx context.Context, h *transport.Host) (peer.AddrInfo, error) {
	lister := &DirectoryLister{Host: h, Relay: r.Relay}
	for {
		list, err := lister.List(ctx)
		if err == nil {
			seen := make([]discovery.Seen, len(list))
			for i, e := range list {
				seen[i] = discovery.Seen{Announcement: e.Announcement, First: time.Now()}
			}
			if s, ok := discovery.PickSession(seen, r.Name); ok {
				return s.AddrInfo(), nil
			}
			err = fmt.Errorf("no session named %q in the relay's directory", r.Name)
		}
		select {
		case <-ctx.Done():
			return peer.AddrInfo{}, err
		case <-time.After(time.Second):
		}
	}
}
