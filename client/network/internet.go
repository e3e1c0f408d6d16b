package network

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/p2p/codes"
	"hostfall/p2p/transport"
)

// useInternet puts internet play into opt: a hosted lobby gets a short
// code, published through the DHT while the session lasts and shown
// (Options.Invite) once it is out. With ip.always every hosted lobby is
// published; otherwise only those created with client.CreateOptions.Internet.
func (wi Wiring) useInternet(ip *inetPlay, opt *Options, log *slog.Logger) {
	in := ip.in
	in.OnPath(func(p peer.ID, k transport.PathKind) {
		ip.onPath(p, k)
		if wi.OnPath != nil {
			wi.OnPath(p, k)
		}
		if k == transport.PathRelayed {
			time.AfterFunc(stuckRelayed, func() { warnRelayed(in, p, wi.OnProgress, ip.progress, log) })
		}
	})
	var shown atomic.Pointer[string]
	ip.publish = func(ctx context.Context, p *Peer) {
		shown.Store(nil)
		if !awaitHosting(ctx, p) {
			return
		}
		code, published, err := in.Publish(untilOver(ctx, p))
		if err != nil {
			log.Error("no invite code", "err", err)
			ip.say("your game could not be published: "+err.Error(), true)
			return
		}
		select {
		case <-ctx.Done():
		case <-published:
			s := code.String()
			shown.Store(&s)
			if wi.OnInvite != nil {
				wi.OnInvite(s, "")
			}
		}
	}
	if ip.always {
		prev := opt.OnSession
		opt.OnSession = func(ctx context.Context, p *Peer) {
			if prev != nil {
				prev(ctx, p)
			}
			go ip.publish(ctx, p)
		}
	}
	opt.Invite = func() string {
		if s := shown.Load(); s != nil {
			return *s
		}
		return ""
	}
}

// stuckRelayed is how long a relayed connection may wait for hole punching
// (which succeeds within a second when it does) before the player is told:
// well within transport.PunchWindow, after which no limited circuit to the peer
// is renewed or opened.
const stuckRelayed = 15 * time.Second

// warnRelayed tells the player when p is still reached only through a
// relay: a public relay connects players but does not carry games (its
// circuit ends after 2 minutes or 128 KiB and is not renewed past
// transport.PunchWindow, see p2p/transport/circuit.go), so the game needs another path.
func warnRelayed(in *codes.Internet, p peer.ID, progress, screens func(codes.Progress), log *slog.Logger) {
	if in.Paths()[p] != transport.PathRelayed {
		return
	}
	log.Warn("no direct path to this peer: hole punching failed, and public relays only introduce players (their circuit ends within minutes and is not renewed); play through a relay of your own (hostfall relay, then --relay), or forward a port to this machine", "peer", p)
	for _, f := range []func(codes.Progress){progress, screens} {
		if f != nil {
			f(codes.Progress{Step: "relayed-only", Peer: p.String()})
		}
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
