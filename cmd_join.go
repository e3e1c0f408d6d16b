package main

import (
	"context"
	"flag"

	"hostfall/app"
	"hostfall/cli"
	"hostfall/p2p/discovery"
	"hostfall/p2p/relay"
	"hostfall/p2p/transport"
)

func runJoin(ctx context.Context, args []string) error {
	var jf joinFlags
	fs := flag.NewFlagSet("join", flag.ContinueOnError)
	jf.Add(fs)
	fs.StringVar(&jf.addr, "addr", "", "the host's multiaddr, ending in /p2p/<peer ID>")
	fs.StringVar(&jf.session, "session", "", "the name of a session on the LAN (found with mDNS), or with --relay in the relay's directory")
	fs.StringVar(&jf.invite, "invite", "", "an invite code the host printed: short (K7Q2-9XPM, found on the internet; implies --internet) or long (HF1-…)")
	fs.BoolVar(&jf.rejoin, "rejoin", false, "take your slot back in the game this identity was playing when its process stopped (the data dir keeps a record of it)")
	if err := jf.Parse(fs, args); err != nil {
		return err
	}
	if jf.rejoin && jf.addr+jf.session+jf.invite == "" {
		return app.Rejoin(ctx, jf.HostJoin)
	}
	res, err := jf.resolver()
	if err != nil {
		return err
	}
	return app.Join(ctx, jf.HostJoin, res)
}

type joinFlags struct {
	cli.HostJoinFlags
	addr    string
	session string
	invite  string
	rejoin  bool
}

// resolver says how join finds the host. The ways to name a session are
// alternatives: each adds a flag and a case here.
func (jf *joinFlags) resolver() (transport.Resolver, error) {
	given := 0
	for _, s := range []string{jf.addr, jf.session, jf.invite} {
		if s != "" {
			given++
		}
	}
	if given > 1 || jf.rejoin {
		return nil, cli.Usagef("--addr, --session, --invite and --rejoin are alternatives; give one")
	}
	switch {
	case jf.addr != "":
		return transport.AddrResolver(jf.addr), nil
	case jf.session != "" && jf.Relay != "":
		ai, err := transport.ParseAddr(jf.Relay)
		if err != nil {
			return nil, cli.Usagef("--relay: %v", err)
		}
		return relay.DirectoryResolver{Relay: ai, Name: jf.session}, nil
	case jf.session != "":
		return discovery.SessionResolver{Name: jf.session}, nil
	case jf.invite != "":
		return jf.InviteResolver(jf.invite)
	}
	return nil, cli.Usagef("say which session to join with --session NAME (a LAN session; `hostfall list` shows them), --invite CODE (the host prints it) or --addr MULTIADDR")
}
