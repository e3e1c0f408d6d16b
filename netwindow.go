package main

import (
	"context"
	"flag"
	"log/slog"
	"os"

	"hostfall/netclient"
	"hostfall/p2p"
)

// netWindowFlags are the network flags of the commands that open the window
// on a network session (play, browse).
type netWindowFlags struct {
	identity string
	listen   listFlag
	offline  bool
}

func (nf *netWindowFlags) add(fs *flag.FlagSet, offline string) {
	fs.StringVar(&nf.identity, "identity", "", "identity key file (default: $"+p2p.IdentityEnv+" or the user's config dir)")
	fs.Var(&nf.listen, "listen", "multiaddr to listen on (repeatable; default: TCP and QUIC on every interface)")
	fs.BoolVar(&nf.offline, "offline", false, offline)
}

// The three places LAN discovery and the relay plug into the window's
// client; until they land they list nothing, announce nothing and refuse
// invite codes in a sentence.

// lanBrowser is where the lobby browser's sessions come from (mDNS, the
// relay's directory); stop ends the browsing.
func lanBrowser(context.Context, *p2p.Host, *slog.Logger) (b netclient.Browser, stop func()) {
	return &netclient.Static{}, func() {}
}

// lanAnnounce announces the session p is in on the LAN while ctx lasts,
// whenever p hosts it (from the start, or after a migration).
func lanAnnounce(ctx context.Context, p *p2p.Peer, log *slog.Logger) {}

// inviteResolver finds the host an invite code names; nil refuses codes.
func inviteResolver(*p2p.Host) netclient.CodeResolver { return nil }

// startNetClient starts this machine's libp2p host and the window's network
// client on it (tweak, if set, adjusts its options); stop leaves the session and closes the host.
func startNetClient(ctx context.Context, nf netWindowFlags, tweak func(*netclient.Options)) (c *netclient.Client, stop func(), err error) {
	// The window is the player's interface: logs stay quiet (warnings on
	// stderr, go-libp2p's own only when they are errors).
	p2p.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	h, err := p2p.NewHost(ctx, p2p.Options{IdentityPath: nf.identity, Listen: nf.listen, Logger: log})
	if err != nil {
		return nil, nil, err
	}
	browser, stopBrowser := lanBrowser(ctx, h, log)
	opt := netclient.Options{Host: h, Browser: browser, ResolveCode: inviteResolver(h), GameVersion: gameVersion,
		ReplayDir: replayDir(), ReportDir: reportDir(), SaveDir: saveDir(), Logger: log,
		OnSession: func(ctx context.Context, p *p2p.Peer) { lanAnnounce(ctx, p, log) }}
	if tweak != nil {
		tweak(&opt)
	}
	c, err = netclient.New(opt)
	if err != nil {
		stopBrowser()
		h.Close()
		return nil, nil, err
	}
	return c, func() {
		c.Close()
		stopBrowser()
		h.Close()
	}, nil
}
