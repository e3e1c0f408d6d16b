package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"time"

	"hostfall/client"
	"hostfall/client/network"
	"hostfall/p2p"
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
	addr    string
	session string
	invite  string
}

// resolver says how join finds the host. The ways to name a session are
// alternatives: each adds a flag and a case here (--addr; mDNS --session
// and --invite come with discovery and the relay).
func (jf *joinFlags) resolver() (p2p.Resolver, error) {
	given := 0
	for _, s := range []string{jf.addr, jf.session, jf.invite} {
		if s != "" {
			given++
		}
	}
	if given > 1 {
		return nil, fmt.Errorf("%w: --addr, --session and --invite are alternatives; give one", errUsage)
	}
	switch {
	case jf.addr != "":
		return p2p.AddrResolver(jf.addr), nil
	case jf.session != "" && jf.relay != "":
		ai, err := p2p.ParseAddr(jf.relay)
		if err != nil {
			return nil, fmt.Errorf("%w: --relay: %v", errUsage, err)
		}
		return p2p.DirectoryResolver{Relay: ai, Name: jf.session}, nil
	case jf.session != "":
		return p2p.SessionResolver{Name: jf.session}, nil
	case jf.invite != "":
		return jf.inviteResolver()
	}
	return nil, fmt.Errorf("%w: say which session to join with --session NAME (a LAN session; `hostfall list` shows them), --invite CODE (the host prints it) or --addr MULTIADDR", errUsage)
}

func runJoin(ctx context.Context, args []string) error {
	var jf joinFlags
	fs := flag.NewFlagSet("join", flag.ContinueOnError)
	jf.register(fs)
	fs.StringVar(&jf.addr, "addr", "", "the host's multiaddr, ending in /p2p/<peer ID>")
	fs.StringVar(&jf.session, "session", "", "the name of a session on the LAN (found with mDNS), or with --relay in the relay's directory")
	fs.StringVar(&jf.invite, "invite", "", "an invite code (HF1-…) a host behind NAT printed")
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
	rctx, cancel := context.WithTimeout(ctx, joinTimeout)
	defer cancel()
	began := time.Now()
	g.awaitRelay(rctx)
	target, err := res.Resolve(rctx, g.host)
	if err != nil {
		g.close()
		return joinError(err)
	}
	g.status.emit("found", "found the host "+target.ID.String(), kv("host", target.ID.String()), kv("ms", time.Since(began).Milliseconds()))
	return g.joinAndRun(ctx, target)
}

// joinTimeout bounds finding and joining the host.
const joinTimeout = 30 * time.Second

// joinAndRun joins target's session and plays until the game ends.
func (g *netGame) joinAndRun(ctx context.Context, target p2p.AddrInfo) error {
	rctx, cancel := context.WithTimeout(ctx, joinTimeout)
	defer cancel()
	if err := joinWithRetry(rctx, g.peer, target); err != nil {
		g.close()
		return joinError(err)
	}
	return g.run(ctx)
}

// joinWindow joins in the window: the player is in the lobby, ready, and
// plays once the host starts.
func joinWindow(ctx context.Context, nf *netFlags, res p2p.Resolver) error {
	return windowPeer{nf: nf,
		begin: func(c *network.Client) error {
			return c.JoinVia(res, client.JoinOptions{PlayerName: nf.player, Password: nf.password})
		},
		onEvent: func(p *network.Peer, ev network.Event) {
			if ev.Kind == network.EvJoined {
				if err := p.EditSlot(session.SlotEdit{Name: nf.player, Ready: true}); err != nil {
					slog.Warn("cannot say ready", "err", err)
				}
			}
		},
	}.run(ctx)
}

func joinError(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("could not join within %v: %w", joinTimeout, err)
	}
	return err
}

// joinWithRetry dials the host until it answers (a host started a moment
// later is fine) or ctx ends.
func joinWithRetry(ctx context.Context, p *network.Peer, target p2p.AddrInfo) error {
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
