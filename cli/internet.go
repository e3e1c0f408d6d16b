package cli

import (
	"flag"
	"strings"

	"hostfall/p2p"
)

// Internet is the flags of internet play: --internet and what it uses.
type Internet struct {
	On        bool
	bootstrap string
	relays    string
}

// Add adds the flags to fs.
func (n *Internet) Add(fs *flag.FlagSet) {
	fs.BoolVar(&n.On, "internet", false, "play over the internet with no server of your own: publish or find short invite codes on the public libp2p network (its DHT), reach peers through public relays, go direct by hole punching")
	fs.StringVar(&n.bootstrap, "bootstrap", "", "with --internet: DHT peers to start from, comma-separated multiaddrs ending in /p2p/<peer ID> (default: the public libp2p bootstrap list)")
	fs.StringVar(&n.relays, "static-relays", "", "with --internet: use only these circuit relays, comma-separated multiaddrs (default: relays found on the DHT)")
}

// Config is the internet play the flags ask for; nil without --internet.
func (n *Internet) Config() (*p2p.InternetConfig, error) {
	if !n.On {
		if n.bootstrap != "" || n.relays != "" {
			return nil, Usagef("--bootstrap and --static-relays go with --internet")
		}
		return nil, nil
	}
	boot, err := addrList("--bootstrap", n.bootstrap)
	if err != nil {
		return nil, err
	}
	relays, err := addrList("--static-relays", n.relays)
	if err != nil {
		return nil, err
	}
	return &p2p.InternetConfig{Bootstrap: boot, Relays: relays}, nil
}

// addrList parses comma-separated peer multiaddrs.
func addrList(flag, s string) ([]p2p.AddrInfo, error) {
	var out []p2p.AddrInfo
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		ai, err := p2p.ParseAddr(a)
		if err != nil {
			return nil, Usagef("%s: %v", flag, err)
		}
		out = append(out, ai)
	}
	return out, nil
}

// InviteResolver reads an --invite code. A short one is found on the
// internet, so it turns internet play on. With a long one (HF1-…), unless
// --relay names another relay, this peer also holds a reservation on the
// code's relay, so the other players can reach it too.
func (p *Peer) InviteResolver(code string) (p2p.Resolver, error) {
	if p2p.IsShortCode(code) {
		c, err := p2p.ParseCode(code)
		if err != nil {
			return nil, Usagef("--invite: %v", err)
		}
		if p.Relay != "" {
			return nil, Usagef("a short code is found on the internet, not through --relay: drop --relay, or ask the host for the long HF1-… code")
		}
		if p.Internet == nil {
			p.Internet = &p2p.InternetConfig{}
		}
		return p2p.CodeResolver(c), nil
	}
	inv, err := p2p.DecodeInvite(code)
	if err != nil {
		return nil, Usagef("--invite: %v", err)
	}
	if p.Relay == "" && inv.Relay != nil && p.Internet == nil {
		p.Relay = inv.Relay.String()
	}
	return p2p.InviteResolver(code), nil
}
