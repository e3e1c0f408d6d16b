package network

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/p2p"
)

// useInternet puts internet play into opt: every lobby this client hosts
// gets a short code, published through the DHT while the session lasts
// and shown (Options.Invite) once it is out.
func (su Setup) useInternet(in *p2p.Internet, opt *Options, log *slog.Logger) {
	in.OnPath(func(p peer.ID, k p2p.PathKind) {
		if su.OnPath != nil {
			su.OnPath(p, k)
		}
		if k == p2p.PathRelayed {
			time.AfterFunc(stuckRelayed, func() { warnRelayed(in, p, su.OnProgress, log) })
		}
	})
	var shown atomic.Pointer[string]
	prev := opt.OnSession
	opt.OnSession = func(ctx context.Context, p *Peer) {
		if prev != nil {
			prev(ctx, p)
		}
		shown.Store(nil)
		go func() {
			if !awaitHosting(ctx, p) {
				return
			}
			code, published, err := in.Publish(untilOver(ctx, p))
			if err != nil {
				log.Error("no invite code", "err", err)
				return
			}
			select {
			case <-ctx.Done():
			case <-published:
				s := code.String()
				shown.Store(&s)
				if su.OnInvite != nil {
					su.OnInvite(s, "")
				}
			}
		}()
	}
	opt.Invite = func() string {
		if s := shown.Load(); s != nil {
			return *s
		}
		return ""
	}
}

// stuckRelayed is how long a relayed connection may wait for hole punching
// (which succeeds within a second when it does) before the player is told.
const stuckRelayed = 15 * time.Second

// warnRelayed tells the player when p is still reached only through a
// relay: public relays end a connection after 2 minutes or 128 KiB.
func warnRelayed(in *p2p.Internet, p peer.ID, progress func(p2p.Progress), log *slog.Logger) {
	if in.Paths()[p] != p2p.PathRelayed {
		return
	}
	log.Warn("hole punching did not go direct; a public relay ends the connection after 2 minutes: use a relay of your own (--relay), or forward a port to this machine", "peer", p)
	if progress != nil {
		progress(p2p.Progress{Step: "relayed-only", Peer: p.String()})
	}
}

// untilOver is ctx, ended too when p's game is over: the code's last word
// then goes out while the peer lingers for the others.
func untilOver(ctx context.Context, p *Peer) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		defer cancel()
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for !p.Status().Over {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return ctx
}

// awaitHosting waits until p hosts the lobby it created; false if ctx ends
// first or p joined another's.
func awaitHosting(ctx context.Context, p *Peer) bool {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		if st := p.Status(); st.Joined {
			return st.IsHost
		}
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
}
