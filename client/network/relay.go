package network

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	ma "github.com/multiformats/go-multiaddr"

	"hostfall/client"
	"hostfall/internal/codeform"
	"hostfall/p2p/codes"
	"hostfall/p2p/discovery"
	"hostfall/p2p/relay"
	"hostfall/p2p/transport"
	"hostfall/session"
)

// Merged is a Browser over several: the sessions of each in turn (the LAN's
// before the relay directory's), a session listed by two (a host on the LAN
// that also registers with the relay) once, as the first lists it.
type Merged []Browser

// Sessions lists every browser's sessions, the first listing of an ID winning.
func (m Merged) Sessions() []client.Listing {
	var out []client.Listing
	seen := map[string]bool{}
	for _, b := range m {
		for _, l := range b.Sessions() {
			if !seen[l.ID] {
				seen[l.ID] = true
				out = append(out, l)
			}
		}
	}
	return out
}

// Resolve asks each browser in turn: a session that left the LAN may still
// be reached through the relay.
func (m Merged) Resolve(id string) (transport.AddrInfo, error) {
	var first error
	for _, b := range m {
		a, err := b.Resolve(id)
		if err == nil {
			return a, nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = fmt.Errorf("the game %q is not listed", id)
	}
	return transport.AddrInfo{}, first
}

// DefaultDirectoryEvery is how often a RelayDirectory lists the directory.
const DefaultDirectoryEvery = 3 * time.Second

// RelayDirectory is the Browser over a relay's session directory (a
// rendezvous point; each host found there is asked what it hosts). It lists
// the directory on a goroutine of its own (Start) and Sessions returns the
// last list, so the window never waits for the relay or the hosts. A
// listing's ID is its host's peer ID, as on the LAN; the host is dialled
// through the relay's circuit as well as at the addresses of its signed
// peer record.
type RelayDirectory struct {
	h           *transport.Host
	relay       transport.AddrInfo
	lister      *relay.DirectoryLister
	gameVersion string
	every       time.Duration
	log         *slog.Logger

	mu      sync.Mutex
	entries []relay.DirectoryEntry
}

// NewRelayDirectory returns the browser of the directory of the relay at point, listed
// from h, keeping sessions of gameVersion only ("" keeps all); every 0 means
// DefaultDirectoryEvery.
func NewRelayDirectory(h *transport.Host, point transport.AddrInfo, gameVersion string, every time.Duration, log *slog.Logger) *RelayDirectory {
	if every <= 0 {
		every = DefaultDirectoryEvery
	}
	if log == nil {
		log = slog.Default()
	}
	return &RelayDirectory{h: h, relay: point, lister: &relay.DirectoryLister{Host: h, Relay: point},
		gameVersion: gameVersion, every: every, log: log}
}

// Start lists the directory now and then every period until ctx ends.
func (d *RelayDirectory) Start(ctx context.Context) {
	go func() {
		failing := false
		for ctx.Err() == nil {
			err := d.Refresh(ctx)
			switch {
			case err != nil && !failing && ctx.Err() == nil:
				d.log.Warn("cannot list the relay's directory", "err", err)
				failing = true
			case err == nil && failing:
				d.log.Info("the relay's directory answers again")
				failing = false
			}
			select {
			case <-ctx.Done():
			case <-time.After(d.every):
			}
		}
	}()
}

// Refresh lists the directory once (within 15 s at most: hosts that do not
// answer are given 3 s each, 8 at a time); on an error the last list stays.
func (d *RelayDirectory) Refresh(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	list, err := d.lister.List(ctx)
	if err != nil {
		return err
	}
	list = slices.DeleteFunc(list, func(e relay.DirectoryEntry) bool {
		return e.Host == d.h.ID() || e.State == discovery.AnnLooking ||
			(d.gameVersion != "" && e.GameVersion != d.gameVersion)
	})
	d.mu.Lock()
	d.entries = list
	d.mu.Unlock()
	return nil
}

// Sessions returns the directory's sessions as last listed.
func (d *RelayDirectory) Sessions() []client.Listing {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]client.Listing, 0, len(d.entries))
	for _, e := range d.entries {
		state := session.StateLobby
		if e.State == discovery.AnnPlaying {
			state = session.StatePlaying
		}
		out = append(out, client.Listing{ID: e.Host.String(), Name: e.Name, Host: announcedHost(&e.Announcement), Players: e.Players, Max: e.MaxPlayers,
			State: state, Locked: e.Password, Source: client.SourceRelay})
	}
	return out
}

// Resolve returns how to dial the host of a listed session: through the
// relay's circuit (the host holds a reservation there to be listed), then
// at the addresses it registered.
func (d *RelayDirectory) Resolve(id string) (transport.AddrInfo, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, e := range d.entries {
		if e.Host.String() == id {
			return CircuitAddrInfo(d.relay, e.AddrInfo()), nil
		}
	}
	return transport.AddrInfo{}, errors.New("that game is no longer in the relay's directory")
}

// CircuitAddrInfo adds to host's addresses, first, the circuit through
// relay: <relay addr>/p2p/<relay>/p2p-circuit.
func CircuitAddrInfo(relay, host transport.AddrInfo) transport.AddrInfo {
	out := transport.AddrInfo{ID: host.ID}
	if len(relay.Addrs) > 0 {
		out.Addrs = append(out.Addrs, relay.Addrs[0].Encapsulate(ma.StringCast("/p2p/"+relay.ID.String()+"/p2p-circuit")))
	}
	for _, a := range host.Addrs {
		if !slices.ContainsFunc(out.Addrs, a.Equal) {
			out.Addrs = append(out.Addrs, a)
		}
	}
	return out
}

// RelayOptions put a relay into a client's Options.
type RelayOptions struct {
	// Relay holds this host's reservation; the host must have been built
	// with its HostOptions.
	Relay *transport.RelayClient
	// Every is how often the directory is listed (default DefaultDirectoryEvery).
	Every time.Duration
	// NoDirectory: do not list the directory (a headless peer browses nothing).
	NoDirectory bool
	// OnCode, when set, is told the short code of a lobby this client
	// hosts, once it hosts it (friends on the same relay join with it).
	OnCode func(codes.Code)
}

// UseRelay makes opt's client use a relay until ctx ends: it holds the
// reservation, lists the relay's directory next to opt.Browser's sessions,
// keeps every lobby this client hosts in the directory, and offers the
// invite code of a hosted lobby in the client's status. Call it after
// opt.Host and opt.Browser are set and before New.
func UseRelay(ctx context.Context, opt *Options, ro RelayOptions) {
	rc, h := ro.Relay, opt.Host
	log := opt.Logger
	if log == nil {
		log = slog.Default()
	}
	rc.Start(ctx, h)
	if !ro.NoDirectory {
		dir := NewRelayDirectory(h, rc.Relay(), opt.GameVersion, ro.Every, log)
		dir.Start(ctx)
		if opt.Browser != nil {
			opt.Browser = Merged{opt.Browser, dir}
		} else {
			opt.Browser = dir
		}
	}
	var short atomic.Pointer[string] // the short code of the lobby hosted now
	prev := opt.OnSession
	opt.OnSession = func(ctx context.Context, p *Peer) {
		if prev != nil {
			prev(ctx, p)
		}
		stop := relay.RegisterLobby(ctx, h, announced{p, false}, rc.Relay(), log)
		context.AfterFunc(ctx, stop)
		registered := make(chan struct{})
		code, stopCode := relay.RegisterCode(ctx, h, announced{p, false}, rc.Relay(), log, func() { close(registered) })
		context.AfterFunc(ctx, stopCode)
		go func() {
			select { // offered once it resolves
			case <-registered:
			case <-ctx.Done():
				return
			}
			s := code.String()
			short.Store(&s)
			context.AfterFunc(ctx, func() { short.CompareAndSwap(&s, nil) })
			if ro.OnCode != nil {
				ro.OnCode(code)
			}
		}()
	}
	opt.Invite = func() string { return inviteCode(rc, h, log) }
	opt.ShortInvite = func() string {
		if s := short.Load(); s != nil {
			return *s
		}
		return ""
	}
	// A short code is looked up in the relay's rendezvous; a long one holds
	// its addresses.
	long := opt.ResolveCode
	opt.ResolveCode = func(ctx context.Context, code string) (transport.AddrInfo, error) {
		if !codeform.IsShort(code) && long != nil {
			return long(ctx, code)
		}
		c, err := codes.ParseCode(code)
		if err != nil {
			return transport.AddrInfo{}, err
		}
		return relay.CodeResolver{Relay: rc.Relay(), Code: c}.Resolve(ctx, h)
	}
}

// inviteCode is the code of this host on the relay once it holds a
// reservation there; "" before.
func inviteCode(rc *transport.RelayClient, h *transport.Host, log *slog.Logger) string {
	select {
	case <-rc.Ready():
	default:
		return ""
	}
	inv := codes.RelayInvite(rc, h)
	code, err := inv.Encode()
	if err != nil {
		log.Error("no invite code", "err", err)
		return ""
	}
	return code
}
