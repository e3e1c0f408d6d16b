package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"hostfall/client/network"
	"hostfall/p2p"
)

// windowRelay is the relay of a window started with --relay (browse, play):
// the host is built to be reachable through it (reservation, hole
// punching), the lobby browser lists its directory beside the LAN, a lobby
// the window hosts is registered there and shows its invite code. A nil
// windowRelay (no --relay) changes nothing.
type windowRelay struct {
	rc     *p2p.RelayClient
	log    *slog.Logger
	ctx    context.Context
	cancel context.CancelFunc
}

// newWindowRelay prepares the relay at addr; "" gives nil.
func newWindowRelay(ctx context.Context, addr string, log *slog.Logger) (*windowRelay, error) {
	if addr == "" {
		return nil, nil
	}
	rc, err := p2p.NewRelayClient(addr, log)
	if err != nil {
		return nil, fmt.Errorf("%w: --relay: %v", errUsage, err)
	}
	p2p.TrustOneObserver() // before the window's host, the process's first, starts
	ctx, cancel := context.WithCancel(ctx)
	return &windowRelay{rc: rc, log: log, ctx: ctx, cancel: cancel}, nil
}

// hostOptions adds the relay client's options to o.
func (w *windowRelay) hostOptions(o p2p.Options) p2p.Options {
	if w == nil {
		return o
	}
	ro := w.rc.HostOptions()
	o.HolePunching = o.HolePunching || ro.HolePunching
	o.Libp2p = append(o.Libp2p, ro.Libp2p...)
	return o
}

// use puts the relay into the client's options (opt.Host and opt.Browser set).
func (w *windowRelay) use(opt *network.Options) {
	if w == nil {
		return
	}
	network.UseRelay(w.ctx, opt, network.RelayOptions{Relay: w.rc})
	onSession := opt.OnSession
	opt.OnSession = func(ctx context.Context, p *network.Peer) {
		onSession(ctx, p)
		go w.printInvite(ctx, p, opt.Invite)
	}
}

// printInvite prints the invite code on the terminal once the window hosts
// a lobby and holds the reservation: easier to copy than from the window.
func (w *windowRelay) printInvite(ctx context.Context, p *network.Peer, invite func() string) {
	for t := time.NewTicker(500 * time.Millisecond); ; {
		if st := p.Status(); st.IsHost && st.Joined {
			if code := invite(); code != "" {
				fmt.Fprintf(os.Stdout, "Friends join your game with the invite code %s\n", code)
				t.Stop()
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// stop ends the relay work (reservation, directory listing).
func (w *windowRelay) stop() {
	if w != nil {
		w.cancel()
	}
}
