package main

import (
	"context"
	"flag"
	"time"

	"hostfall/app"
	"hostfall/cli"
	"hostfall/p2p/relay"
)

func runRelay(ctx context.Context, args []string) error {
	var r app.Relay
	fs := flag.NewFlagSet("relay", flag.ContinueOnError)
	fs.Var((*cli.Strings)(&r.Listen), "listen", "multiaddr to listen on (repeatable), e.g. /ip4/0.0.0.0/tcp/4001 (default: TCP and QUIC on every interface, ports chosen by the system)")
	allow := fs.String("allow", "", "comma-separated peer IDs: only they may be reached through the relay and list sessions in its directory (default: everyone)")
	fs.StringVar(&r.Identity, "identity", "", "identity key file; the relay's peer ID, in every invite code, comes from it (default: relay.key in the user's config dir)")
	fs.DurationVar(&r.TTL, "ttl", relay.DefaultDirTTL, "the longest registration the directory grants: a host that stops renewing leaves within it")
	fs.BoolVar(&r.JSON, "status-json", false, "print one JSON object a line on stdout")
	cli.AddVerbose(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	var err error
	if r.Allow, err = relay.ParsePeerIDs(*allow); err != nil {
		return cli.Usagef("--allow: %v", err)
	}
	if r.TTL < time.Second {
		return cli.Usagef("--ttl must be at least 1s")
	}
	return app.RunRelay(ctx, r)
}
