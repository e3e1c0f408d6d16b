package discovery

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/p2p/beacon"
	"hostfall/p2p/transport"
)

// AnnounceEvery is how often AnnounceLobby looks at the peer's lobby.
const AnnounceEvery = 100 * time.Millisecond

// Hosting is what announcing a session needs of the peer that runs it:
// the peer decides what its session is announced as; discovery carries it.
type Hosting interface {
	// Announce returns what to announce of the session and whether this
	// peer hosts it now (joined, not left, and the game not over).
	Announce() (Announcement, bool)
}

// AnnounceLobby advertises p's session on the LAN whenever p hosts it — at
// the start, or later after a host migration — with mDNS and with beacons
// (p2p/beacon), and keeps the announcement current (players, lobby or
// playing). It withdraws when p stops hosting, the game ends, or ctx is
// done; the returned stop does the same and waits.
func AnnounceLobby(ctx context.Context, p Hosting, opt AdvertiseOptions) (stop func()) {
	log := cmp.Or(opt.Logger, slog.Default())
	var ad *Advertiser
	var bc *beacon.Announcer
	var last []string
	warned := false // a machine with no multicast interface fails every try: say it once
	announce := func(_ context.Context, a Announcement) {
		txt := a.TXT()
		if bc == nil {
			var err error
			if bc, err = beacon.Announce(txt, beacon.Config{Interfaces: opt.Interfaces, Logger: log}); err != nil {
				log.Debug("beacon: cannot announce", "err", err)
			}
		}
		switch {
		case ad == nil:
			var err error
			switch ad, err = Advertise(a, opt); {
			case err == nil:
				warned = false
				log.Debug("mdns: session advertised", "name", a.Name)
			case warned:
				log.Debug("mdns: advertising failed again", "err", err)
			case bc == nil:
				log.Warn("the session cannot be advertised on the LAN (players can still join by invite code or address); trying again quietly", "err", err)
				warned = true
			default:
				log.Info("the session is announced by broadcast only: mDNS cannot advertise it; trying again quietly", "err", err)
				warned = true
			}
		case ad != nil && !slices.Equal(txt, last):
			_ = ad.Update(a)
		}
		if bc != nil && !slices.Equal(txt, last) {
			_ = bc.Update(txt)
		}
		last = txt
	}
	withdraw := func() {
		if ad != nil {
			_ = ad.Close()
			ad = nil
			log.Debug("mdns: session withdrawn")
		}
		if bc != nil {
			_ = bc.Close()
			bc = nil
		}
		last = nil
	}
	return WhileHosting(ctx, p, AnnounceEvery, announce, withdraw)
}

// WhileHosting calls on with p's announcement every period while p hosts its
// session (from the start, or after a migration), and off whenever it does
// not: not yet, no longer, the game is over, or stop was called. Both run
// on one goroutine; stop waits for it.
func WhileHosting(ctx context.Context, p Hosting, period time.Duration, on func(context.Context, Announcement), off func()) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer off()
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			if a, ok := p.Announce(); ok {
				on(ctx, a)
			} else {
				off()
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// SessionResolver finds a LAN session by name with mDNS and beacons (join
// --session).
type SessionResolver struct {
	Name   string
	Browse BrowseOptions
}

// Resolve browses until a host announces the session, and returns its peer
// ID and addresses. Several hosts with one name: a lobby before a game in
// progress, then the one seen first.
func (r SessionResolver) Resolve(ctx context.Context, _ *transport.Host) (peer.AddrInfo, error) {
	b := Browse(ctx, r.Browse)
	defer b.Close()
	for {
		if s, ok := PickSession(b.Sessions(), r.Name); ok {
			return s.DialInfo(), nil
		}
		select {
		case <-ctx.Done():
			var names []string
			for _, s := range b.Sessions() {
				if s.State != AnnLooking {
					names = append(names, fmt.Sprintf("%q", s.Name))
				}
			}
			seen := "no session at all"
			if len(names) > 0 {
				seen = "only " + strings.Join(names, ", ")
			}
			return peer.AddrInfo{}, fmt.Errorf("no session named %q on the LAN (mDNS and broadcast find %s): %w", r.Name, seen, ctx.Err())
		case <-b.Changed():
		}
	}
}

// PickSession chooses among the sessions named name (exactly, or else
// ignoring case).
func PickSession(all []Seen, name string) (Seen, bool) {
	var exact, folded []Seen
	for _, s := range all {
		switch {
		case s.State == AnnLooking:
		case s.Name == name:
			exact = append(exact, s)
		case strings.EqualFold(s.Name, name):
			folded = append(folded, s)
		}
	}
	cands := exact
	if len(cands) == 0 {
		cands = folded
	}
	if len(cands) == 0 {
		return Seen{}, false
	}
	slices.SortStableFunc(cands, func(x, y Seen) int {
		if (x.State == AnnLobby) != (y.State == AnnLobby) {
			if x.State == AnnLobby {
				return -1
			}
			return 1
		}
		return x.First.Compare(y.First)
	})
	return cands[0], true
}
