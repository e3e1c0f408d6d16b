package main

import (
	"context"
	"flag"
	"fmt"

	"hostfall/client"
	"hostfall/p2p"
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
	np, err := startNetPeer(ctx, &jf.netFlags, nil)
	if err != nil {
		return err
	}
	if err := np.c.JoinVia(res, client.JoinOptions{PlayerName: jf.player, Password: jf.password}); err != nil {
		np.c.Close()
		return err
	}
	return np.run(ctx)
}

// inviteResolver decodes --invite; unless --relay names another relay, this
// peer also holds a reservation on the invite's relay, so the other players
// can reach it too.
func (jf *joinFlags) inviteResolver() (p2p.Resolver, error) {
	inv, err := p2p.DecodeInvite(jf.invite)
	if err != nil {
		return nil, fmt.Errorf("%w: --invite: %v", errUsage, err)
	}
	if jf.relay == "" && inv.Relay != nil {
		jf.relay = inv.Relay.String()
	}
	return p2p.InviteResolver(jf.invite), nil
}
