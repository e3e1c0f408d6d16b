package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"hostfall/client/network"
	"hostfall/p2p"
	"hostfall/render"
)

// netWindowFlags are the network flags of the commands that open the window
// on a network session (play, browse).
type netWindowFlags struct {
	identity string
	listen   listFlag
	offline  bool
	relay    string // relaywindow.go
}

func (nf *netWindowFlags) add(fs *flag.FlagSet, offline string) {
	fs.StringVar(&nf.identity, "identity", "", "identity key file (default: $"+p2p.IdentityEnv+" or the user's config dir)")
	fs.Var(&nf.listen, "listen", "multiaddr to listen on (repeatable; default: TCP and QUIC on every interface)")
	fs.BoolVar(&nf.offline, "offline", false, offline)
	fs.StringVar(&nf.relay, "relay", "", "a Hostfall relay's multiaddr (ending in /p2p/<relay ID>): list its directory, be reachable through it, offer invite codes")
}

// lanBrowser lists the sessions mDNS sees on the LAN for the lobby
// browser; stop ends the browsing.
func lanBrowser(ctx context.Context, _ *p2p.Host, log *slog.Logger) (b network.Browser, stop func()) {
	mb := p2p.Browse(ctx, p2p.BrowseOptions{Logger: log})
	return network.LAN{B: mb, GameVersion: gameVersion}, mb.Close
}

// lanAnnounce announces the session p is in on the LAN while ctx lasts,
// whenever p hosts it (from the start, or after a migration).
func lanAnnounce(ctx context.Context, p *network.Peer, log *slog.Logger) {
	stop := p2p.AnnounceLobby(ctx, p.P2P(), p, false, p2p.AdvertiseOptions{Logger: log})
	context.AfterFunc(ctx, stop)
}

// inviteResolver finds the host an invite code names.
func inviteResolver(h *p2p.Host) network.CodeResolver {
	return func(ctx context.Context, code string) (p2p.AddrInfo, error) {
		return p2p.InviteResolver(code).Resolve(ctx, h)
	}
}

// startNetClient starts this machine's libp2p host and the window's network
// client on it (tweak, if set, adjusts its options); stop leaves the session and closes the host.
func startNetClient(ctx context.Context, nf netWindowFlags, tweak func(*network.Options)) (c *network.Client, stop func(), err error) {
	// The window is the player's interface: logs stay quiet (warnings on
	// stderr, go-libp2p's own only when they are errors).
	p2p.RouteLibp2pLogs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	relay, err := newWindowRelay(ctx, nf.relay, log)
	if err != nil {
		return nil, nil, err
	}
	h, err := p2p.NewHost(ctx, relay.hostOptions(p2p.Options{IdentityPath: nf.identity, Listen: nf.listen, Logger: log}))
	if err != nil {
		relay.stop()
		return nil, nil, err
	}
	browser, stopBrowser := lanBrowser(ctx, h, log)
	opt := network.Options{Host: h, Browser: browser, ResolveCode: inviteResolver(h), GameVersion: gameVersion,
		ReplayDir: replayDir(), ReportDir: reportDir(), SaveDir: saveDir(), Logger: log, WaitScreen: true,
		OnSession: func(ctx context.Context, p *network.Peer) { lanAnnounce(ctx, p, log) }}
	relay.use(&opt)
	if tweak != nil {
		tweak(&opt)
	}
	c, err = network.New(opt)
	if err != nil {
		stopBrowser()
		relay.stop()
		h.Close()
		return nil, nil, err
	}
	return c, func() {
		c.Close()
		stopBrowser()
		relay.stop()
		h.Close()
	}, nil
}

// windowPeer is host or join without --headless: the window on the network
// client, printing the same status lines as a headless peer.
type windowPeer struct {
	nf *netFlags
	// tweak adjusts the client's options; onEvent sees the peer's events
	// after their status lines (on the client's pump: quick, no waiting).
	tweak   func(*network.Options)
	onEvent func(p *network.Peer, ev network.Event)
	// begin creates or joins the session once the client is up.
	begin func(c *network.Client) error
}

// run opens the window and plays until the player closes it (with
// --exit-at-end: until the game ended and the others had its last turns).
func (wp windowPeer) run(ctx context.Context) error {
	if wp.nf.auto {
		return fmt.Errorf("%w: --auto goes with --headless; the window's lobby browser lists the LAN's sessions", errUsage)
	}
	if err := render.CheckDisplay(); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	nf := wp.nf
	ps := &peerStatus{line: &statusLine{json: nf.json, out: os.Stdout, human: os.Stderr, stamp: true}}
	c, stop, err := startNetClient(ctx, netWindowFlags{identity: nf.identity, listen: nf.listen, relay: nf.relay}, func(o *network.Options) {
		o.OnEvent = func(p *network.Peer, ev network.Event) {
			if ps.event(p, ev) && nf.exitAtEnd {
				time.AfterFunc(endLinger, cancel)
			}
			if wp.onEvent != nil {
				wp.onEvent(p, ev)
			}
		}
		o.OnReplay = ps.replay
		if wp.tweak != nil {
			wp.tweak(o)
		}
	})
	if err != nil {
		return err
	}
	defer stop()
	emitListening(ps.line, c.Addr())
	if err := wp.begin(c); err != nil {
		return err
	}
	w := nf.window
	w.name = nf.player
	return openWindow(ctx, c, w)
}

// emitListening says where this peer listens (what `join --addr` takes).
func emitListening(s *statusLine, ai p2p.AddrInfo) {
	var addrs []string
	for _, a := range ai.Addrs {
		addrs = append(addrs, a.String())
	}
	text := fmt.Sprintf("peer %s listening on:\n  %s", ai.ID, strings.Join(addrs, "\n  "))
	s.emit("listening", text, kv("peer", ai.ID.String()), kv("addrs", addrs))
}
