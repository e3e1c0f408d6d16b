package main

import (
	"context"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/p2p"
)

// hostOptions are the libp2p host's options: identity and listen addresses,
// and with --relay what a peer behind NAT needs (relay circuit, hole punching).
func (g *netGame) hostOptions() (p2p.Options, error) {
	nf := g.nf
	opt := p2p.Options{}
	if nf.relay != "" {
		rc, err := p2p.NewRelayClient(nf.relay, g.log)
		if err != nil {
			return opt, fmt.Errorf("%w: --relay: %v", errUsage, err)
		}
		g.relay = rc
		opt = rc.HostOptions()
		p2p.TrustOneObserver() // no host runs yet in this process
	}
	opt.IdentityPath, opt.Listen, opt.Logger = nf.identity, nf.listen, g.log
	return opt, nil
}

// announceOnLAN advertises the session with mDNS whenever this peer hosts
// it (from the start, or after a migration) until the game is closed. With
// --relay it also holds the reservation, keeps the session in the relay's
// directory while hosting, and reports how each peer is reached.
func (g *netGame) announceOnLAN() {
	nf := g.nf
	ctx, cancel := context.WithCancel(context.Background())
	stops := []func(){p2p.AnnounceLobby(ctx, g.host, g.peer, nf.auto, p2p.AdvertiseOptions{Logger: g.log})}
	if rc := g.relay; rc != nil {
		rc.OnPath(func(p peer.ID, k p2p.PathKind) {
			g.status.emit("path", fmt.Sprintf("%s is reached %s", p, k), kv("peer", p.String()), kv("path", k.String()))
		})
		rc.Start(ctx, g.host)
		stops = append(stops, p2p.RegisterLobby(ctx, g.host, g.peer, rc.Relay(), g.log))
	}
	g.unlan = func() {
		for _, stop := range stops {
			stop()
		}
		cancel()
	}
}

// offerInvite prints the invite code once the relay reservation is held
// (host --relay): a friend joins with `hostfall join --invite CODE`.
func (g *netGame) offerInvite(ctx context.Context) {
	rc := g.relay
	if rc == nil {
		return
	}
	go func() {
		select {
		case <-ctx.Done():
			return
		case <-rc.Ready():
		}
		inv := rc.Invite(g.host)
		code, err := inv.Encode()
		if err != nil {
			g.log.Error("no invite code", "err", err)
			return
		}
		g.status.emit("invite", "friends join with: hostfall join --headless --invite "+code,
			kv("code", code), kv("relay", rc.RelayAddr().String()))
	}()
}

// relayReadyWait bounds how long a joiner with a relay waits for its
// reservation and hole punching before it dials the host anyway.
const relayReadyWait = 8 * time.Second

// awaitRelay waits, before a joiner dials the host, until its relay client
// is Ready: hole punching runs once, when the relayed connection is made,
// and only if this peer's DCUtR service is up by then; a joiner that dials
// at once never goes direct. Without --relay it returns at once.
func (g *netGame) awaitRelay(ctx context.Context) {
	rc := g.relay
	if rc == nil {
		return
	}
	began := time.Now()
	select {
	case <-rc.Ready():
		g.log.Debug("relay ready; joining", "after", time.Since(began))
	case <-time.After(relayReadyWait):
		g.log.Warn("no relay reservation yet; joining anyway (this connection will not go direct)", "waited", relayReadyWait)
	case <-ctx.Done():
	}
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

// meetAuto finds the other --auto peers on the LAN and agrees with them on
// a host. It reports whether this peer hosts; when another does, it joins
// that lobby and plays the game to its end here.
func (g *netGame) meetAuto(ctx context.Context) (bool, error) {
	actx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := p2p.FindAuto(actx, g.host, p2p.AutoOptions{GameVersion: gameVersion, Advertise: p2p.AdvertiseOptions{Logger: g.log}})
	if err != nil {
		g.close()
		return false, err
	}
	if c.Host {
		g.status.emit("auto", "no --auto lobby on the LAN: this peer hosts one", kv("role", "host"), kv("host", g.host.ID().String()))
		return true, nil
	}
	g.status.emit("auto", "joining the --auto lobby of "+c.Target.ID.String(), kv("role", "join"), kv("host", c.Target.ID.String()))
	return false, g.joinAndRun(ctx, c.Target)
}

// autoSessionName names the lobby an --auto peer hosts after its player.
func autoSessionName(player string) string {
	return player + "'s game"
}
