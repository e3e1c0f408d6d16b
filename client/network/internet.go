package network

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"hostfall/p2p"
)

// useInternet puts internet play into opt: every lobby this client hosts
// gets a short code, published through the DHT while the session lasts
// and shown (Options.Invite) once it is out.
func (su Setup) useInternet(in *p2p.Internet, opt *Options, log *slog.Logger) {
	if su.OnPath != nil {
		in.OnPath(su.OnPath)
	}
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
			code, published, err := in.Publish(ctx)
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
