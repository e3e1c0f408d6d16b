package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"time"

	"hostfall/netclient"
	"hostfall/p2p"
	"hostfall/render/client"
	"hostfall/session"
)

func init() {
	register(command{
		name:    "join",
		summary: "join a network game in the window (--addr MULTIADDR; --headless: a bot plays instead)",
		run:     runJoin,
	})
}

type joinFlags struct {
	netFlags
	addr string
}

// resolver says how join finds the host. The ways to name a session are
// alternatives: each adds a flag and a case here (--addr; mDNS --session
// and --invite come with discovery and the relay).
func (jf *joinFlags) resolver() (p2p.Resolver, error) {
	switch {
	case jf.addr != "":
		return p2p.AddrResolver(jf.addr), nil
	}
	return nil, fmt.Errorf("%w: say which session to join with --addr MULTIADDR (the host prints its addresses)", errUsage)
}

func runJoin(ctx context.Context, args []string) error {
	var jf joinFlags
	fs := flag.NewFlagSet("join", flag.ContinueOnError)
	jf.register(fs)
	fs.StringVar(&jf.addr, "addr", "", "the host's multiaddr, ending in /p2p/<peer ID>")
	if err := parseNet(fs, &jf.netFlags, args); err != nil {
		return err
	}
	res, err := jf.resolver()
	if err != nil {
		return err
	}
	if !jf.headless {
		return joinWindow(ctx, &jf.netFlags, res)
	}
	g, err := newNetGame(ctx, &jf.netFlags, 0)
	if err != nil {
		return err
	}
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	target, err := res.Resolve(rctx, g.host)
	if err == nil {
		err = joinWithRetry(rctx, g.peer, target)
	}
	if err != nil {
		g.close()
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("could not join within 30 s: %w", err)
		}
		return err
	}
	return g.run(ctx)
}

// joinWindow joins in the window: the player is in the lobby, ready, and
// plays once the host starts.
func joinWindow(ctx context.Context, nf *netFlags, res p2p.Resolver) error {
	return windowPeer{nf: nf,
		begin: func(c *netclient.Client) error {
			return c.JoinVia(res, client.JoinOptions{PlayerName: nf.player, Password: nf.password})
		},
		onEvent: func(p *p2p.Peer, ev p2p.Event) {
			if ev.Kind == p2p.EvJoined {
				if err := p.EditSlot(session.SlotEdit{Name: nf.player, Ready: true}); err != nil {
					slog.Warn("cannot say ready", "err", err)
				}
			}
		},
	}.run(ctx)
}

// joinWithRetry dials the host until it answers (a host started a moment
// later is fine) or ctx ends.
func joinWithRetry(ctx context.Context, p *p2p.Peer, target p2p.AddrInfo) error {
	var err error
	for delay := 100 * time.Millisecond; ; delay = min(2*delay, 2*time.Second) {
		if err = p.Join(ctx, target); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(delay):
		}
	}
}
