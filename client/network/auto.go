package network

import (
	"context"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/p2p/discovery"
	"hostfall/p2p/transport"
	"hostfall/session"
)

// --auto: peers started with no session name advertise that they are
// looking (state "looking"), browse, and apply session.ElectHost to what
// they see. Every peer sees the same announcements, so all pick the same
// host without talking: an --auto lobby already running wins (late arrivals
// join it), else the smallest peer ID among those looking hosts one.

// autoSettle is how long a peer looks before it decides to host: longer
// than discovery takes (< 1 s), so peers started together see each other.
const autoSettle = 1500 * time.Millisecond

// AutoOptions tune FindAuto. GameVersion is required: peers of another
// version are not counted.
type AutoOptions struct {
	GameVersion string
	Settle      time.Duration // default autoSettle
	Advertise   discovery.AdvertiseOptions
	Browse      discovery.BrowseOptions
}

// AutoChoice is what FindAuto decided: host a lobby (Host), or join the
// lobby Target hosts.
type AutoChoice struct {
	Host   bool
	Target peer.AddrInfo
}

// FindAuto announces h as looking for an --auto game and returns once the
// peers on the LAN agree on a host: this peer (after the settle time) or
// another whose lobby is up. The announcement ends when it returns.
func FindAuto(ctx context.Context, h *transport.Host, opt AutoOptions) (AutoChoice, error) {
	if opt.Settle <= 0 {
		opt.Settle = autoSettle
	}
	ad, err := discovery.Advertise(discovery.Announcement{
		Protocol: session.ProtocolVersion, GameVersion: opt.GameVersion, State: discovery.AnnLooking, Auto: true,
		Host: h.ID(), Addrs: h.LibP2P().Addrs(),
	}, opt.Advertise)
	if err != nil {
		return AutoChoice{}, fmt.Errorf("cannot look for an --auto game on the LAN: %w", err)
	}
	defer ad.Close()
	b := discovery.Browse(ctx, opt.Browse)
	defer b.Close()
	settled := time.After(opt.Settle)
	done := false
	for {
		if c, ok := electAuto(b.Sessions(), h.ID(), opt.GameVersion, done); ok {
			return c, nil
		}
		select {
		case <-ctx.Done():
			return AutoChoice{}, fmt.Errorf("no --auto game came together on the LAN: %w", ctx.Err())
		case <-settled:
			done = true
		case <-b.Changed():
		}
	}
}

// electAuto applies session.ElectHost to the --auto peers of seen plus self.
// It decides when the winner hosts a lobby already (join it), or when self
// wins and the settle time is over (host); otherwise it waits (false).
func electAuto(seen []discovery.Seen, self peer.ID, gameVersion string, settled bool) (AutoChoice, bool) {
	cands := []session.Announce{{Peer: session.PeerID(self.String())}}
	lobbies := map[session.PeerID]discovery.Seen{}
	for _, s := range seen {
		if !s.Auto || s.Host == self || s.Protocol != session.ProtocolVersion || s.GameVersion != gameVersion {
			continue
		}
		id := session.PeerID(s.Host.String())
		switch {
		case s.State == discovery.AnnLooking:
			cands = append(cands, session.Announce{Peer: id})
		case s.Joinable(session.ProtocolVersion, gameVersion):
			cands = append(cands, session.Announce{Peer: id, Hosting: true, Players: uint32(s.Players)})
			lobbies[id] = s
		}
	}
	win := session.ElectHost(cands)
	if s, ok := lobbies[win]; ok {
		return AutoChoice{Target: s.DialInfo()}, true
	}
	if win == cands[0].Peer && settled {
		return AutoChoice{Host: true}, true
	}
	return AutoChoice{}, false
}
