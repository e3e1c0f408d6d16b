package network

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/client"
	"hostfall/p2p/codes"
	"hostfall/p2p/discovery"
	"hostfall/p2p/transport"
)

// Wiring is what Start builds around a Client: this machine's libp2p host,
// the LAN (mDNS browsing and announcing), and a relay when one is named.
type Wiring struct {
	IdentityPath string   // "" means $HOSTFALL_IDENTITY or the user's config dir
	Listen       []string // multiaddrs; none means every interface
	// Relay is a Hostfall relay's multiaddr ("" for none): the host is built
	// to be reachable through it (reservation, hole punching), a hosted
	// lobby is kept in its directory, and invite codes name it.
	Relay string
	// Browse lists the LAN's sessions (and the relay's directory) for the
	// lobby browser; a headless peer browses nothing.
	Browse bool
	// Auto announces hosted lobbies as `--auto` lobbies, which other --auto
	// peers join without a name.
	Auto bool
	// AwaitRelay: before dialing a host, a joiner waits (8 s at most) for
	// its relay reservation, so hole punching can take the connection direct.
	AwaitRelay bool
	// Internet, when set, puts this peer on the public libp2p network (DHT,
	// AutoRelay, hole punching): a hosted lobby gets a short invite code,
	// and short codes resolve. Nil: nothing of it starts (a LAN game never
	// touches the internet). It and Relay are alternatives.
	Internet *codes.InternetConfig
	// InternetWhenAsked, with Internet and Relay unset, builds the host
	// ready for internet play but leaves it off until the player asks: a
	// game created with client.CreateOptions.Internet, or a short code to
	// join (the window). Nothing touches the internet before that.
	InternetWhenAsked *codes.InternetConfig
	// OnInvite is told the invite code once this peer hosts and holds the
	// relay reservation (with Internet: once the short code is published);
	// OnPath how each peer is reached (relayed, direct); OnProgress the
	// steps of internet play.
	OnInvite func(code, relay string)
	// OnRelayCode is told the short code of a lobby hosted through a relay
	// of one's own: friends who use the same relay join with it.
	OnRelayCode func(code, relay string)
	OnPath      func(peer.ID, transport.PathKind)
	OnProgress  func(codes.Progress)
}

// ErrBadRelay wraps a relay address that does not parse: a command line to
// correct.
var ErrBadRelay = errors.New("--relay")

// relayReadyWait bounds how long a joiner with a relay waits for its
// reservation and hole punching before it dials the host anyway.
const relayReadyWait = 8 * time.Second

// Start builds the host and what Wiring asks for around a new Client
// (opt.Host, Browser, ResolveCode and OnSession are filled in). Close stops
// it all.
func Start(ctx context.Context, wi Wiring, opt Options) (*Client, error) {
	log := opt.Logger
	if log == nil {
		log = slog.Default()
	}
	// The host and what runs around it live until Close, not until ctx
	// ends: a peer stopped by a signal still says goodbye to its game
	// (Close leaves, waits for the Bye to be read, then stops the host).
	startCtx := ctx
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	var rc *transport.RelayClient
	var in *codes.Internet
	var ip *inetPlay
	hopt := transport.Options{}
	inet := wi.Internet
	if inet == nil && wi.Relay == "" {
		inet = wi.InternetWhenAsked
	}
	switch {
	case wi.Relay != "" && wi.Internet != nil:
		cancel()
		return nil, fmt.Errorf("%w and --internet are alternatives for now: give one (a relay of your own, or the public network)", ErrBadRelay)
	case inet != nil:
		ip = &inetPlay{ctx: ctx, always: wi.Internet != nil, log: log}
		cfg := *inet
		cfg.Logger, cfg.Progress = log, func(p codes.Progress) {
			ip.progress(p)
			if wi.OnProgress != nil {
				wi.OnProgress(p)
			}
		}
		in = codes.NewInternet(cfg)
		ip.in = in
		hopt = in.HostOptions()
		transport.TrustOneObserver()
	case wi.Relay != "":
		var err error
		if rc, err = transport.NewRelayClient(wi.Relay, log); err != nil {
			cancel()
			return nil, fmt.Errorf("%w: %v", ErrBadRelay, err)
		}
		hopt = rc.HostOptions()
		transport.TrustOneObserver() // before this process's first host starts
	}
	hopt.IdentityPath, hopt.Listen, hopt.Logger = wi.IdentityPath, wi.Listen, log
	h, err := transport.NewHost(ctx, hopt)
	if err != nil {
		cancel()
		return nil, err
	}
	if ip != nil {
		ip.h = h
		if ip.always {
			if err := ip.ensure(startCtx); err != nil {
				h.Close()
				cancel()
				return nil, err
			}
		}
	}
	stops := []func(){func() { h.Close() }, cancel} // stopped last to first
	if in != nil {
		// Run first: the session has ended by then; let its code's last word out.
		stops = append(stops, func() { in.Wait(6 * time.Second) })
	}
	opt.Host = h
	opt.ResolveCode = func(ctx context.Context, code string) (transport.AddrInfo, error) {
		r, err := codes.ResolveAnyCode(code)
		if err != nil {
			return transport.AddrInfo{}, err
		}
		return r.Resolve(ctx, h)
	}
	if wi.Browse {
		mb := discovery.Browse(ctx, discovery.BrowseOptions{Logger: log})
		opt.Browser = LAN{B: mb, GameVersion: opt.GameVersion}
		stops = append(stops, mb.Close)
	} else {
		opt.LANBrowser = func(ctx context.Context) Browser { // only while a rejoin looks for its game
			return LAN{B: discovery.Browse(ctx, discovery.BrowseOptions{Logger: log}), GameVersion: opt.GameVersion}
		}
	}
	prev := opt.OnSession
	opt.OnSession = func(ctx context.Context, p *Peer) {
		if prev != nil {
			prev(ctx, p)
		}
		stop := discovery.AnnounceLobby(ctx, announced{p, wi.Auto}, discovery.AdvertiseOptions{Logger: log})
		context.AfterFunc(ctx, stop)
	}
	if rc != nil {
		wi.useRelay(ctx, rc, &opt)
	}
	if ip != nil {
		wi.useInternet(ip, &opt, log)
	}
	c, err := New(opt)
	if err != nil {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
		return nil, err
	}
	c.stops, c.inet = stops, ip
	if rc != nil && wi.AwaitRelay {
		c.relayReady = rc.Ready()
	}
	return c, nil
}

// useRelay puts the relay into opt: reservation, directory, invite codes.
func (wi Wiring) useRelay(ctx context.Context, rc *transport.RelayClient, opt *Options) {
	if wi.OnPath != nil {
		rc.OnPath(wi.OnPath)
	}
	ro := RelayOptions{Relay: rc, NoDirectory: !wi.Browse}
	if wi.OnRelayCode != nil {
		ro.OnCode = func(c codes.Code) { wi.OnRelayCode(c.String(), rc.RelayAddr().String()) }
	}
	UseRelay(ctx, opt, ro)
	if wi.OnInvite == nil {
		return
	}
	invite, prev := opt.Invite, opt.OnSession
	opt.OnSession = func(ctx context.Context, p *Peer) {
		prev(ctx, p)
		go offerInvite(ctx, p, invite, func(code string) { wi.OnInvite(code, rc.RelayAddr().String()) })
	}
}

// offerInvite tells the invite code once p hosts and the reservation is held.
func offerInvite(ctx context.Context, p *Peer, invite func() string, tell func(string)) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		if st := p.Status(); st.IsHost && st.Joined {
			if code := invite(); code != "" {
				tell(code)
				return
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// awaitRelay waits, before a joiner dials, for the relay reservation (see
// Wiring.AwaitRelay); without one it returns at once.
func (c *Client) awaitRelay(ctx context.Context) {
	if c.relayReady == nil {
		return
	}
	began := time.Now()
	select {
	case <-c.relayReady:
		c.log.Debug("relay ready; joining", "after", time.Since(began))
	case <-time.After(relayReadyWait):
		c.log.Warn("no relay reservation yet; joining anyway (this connection will not go direct)", "waited", relayReadyWait)
	case <-ctx.Done():
	}
}

// MeetAuto finds the other `--auto` peers on the LAN (30 s at most) and
// agrees with them on a host. It reports whether this peer is to host;
// when another is, it has already asked to join that peer's lobby, as o's
// player. tell, when set, hears the outcome first.
func (c *Client) MeetAuto(ctx context.Context, o client.JoinOptions, tell func(host bool, target peer.ID)) (bool, error) {
	actx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	h := c.opt.Host
	m, err := FindAuto(actx, h, AutoOptions{GameVersion: c.opt.GameVersion, Advertise: discovery.AdvertiseOptions{Logger: c.log}})
	if err != nil {
		return false, err
	}
	target := m.Target.ID
	if m.Host {
		target = h.ID()
	}
	if tell != nil {
		tell(m.Host, target)
	}
	if m.Host {
		return true, nil
	}
	return false, c.JoinVia(transport.Known(m.Target), o)
}
