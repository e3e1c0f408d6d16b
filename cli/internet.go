package cli

import (
	"flag"
	"fmt"
	"strings"

	"hostfall/p2p"
)

// AddInternet adds the flags of internet play: --internet, and the
// --bootstrap and --static-relays lists, which imply it. *cfg stays nil
// unless one of them is given.
func AddInternet(fs *flag.FlagSet, cfg **p2p.InternetConfig) {
	on := func() *p2p.InternetConfig {
		if *cfg == nil {
			*cfg = &p2p.InternetConfig{}
		}
		return *cfg
	}
	fs.BoolFunc("internet", "play over the internet with no server of your own: publish or find short invite codes on the public libp2p network (its DHT), reach peers through public relays, go direct by hole punching", func(s string) error {
		if s != "true" {
			return fmt.Errorf("--internet takes no value")
		}
		on()
		return nil
	})
	fs.Func("bootstrap", "DHT peers to start from, comma-separated multiaddrs ending in /p2p/<peer ID> (implies --internet; default: the public libp2p bootstrap list)", func(s string) error {
		ais, err := addrList(s)
		on().Bootstrap = append(on().Bootstrap, ais...)
		return err
	})
	fs.Func("static-relays", "use only these circuit relays, comma-separated multiaddrs ending in /p2p/<peer ID> (implies --internet; default: relays found on the DHT)", func(s string) error {
		ais, err := addrList(s)
		on().Relays = append(on().Relays, ais...)
		return err
	})
}

// addrList parses comma-separated peer multiaddrs.
func addrList(s string) ([]p2p.AddrInfo, error) {
	var out []p2p.AddrInfo
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		ai, err := p2p.ParseAddr(a)
		if err != nil {
			return nil, err
		}
		out = append(out, ai)
	}
	return out, nil
}

// InviteResolver reads an --invite code. A short one is found in the
// rendezvous of --relay when given, else on the internet, so it turns
// internet play on. With a long one (HF1-…), unless
// --relay names another relay, this peer also holds a reservation on the
// code's relay, so the other players can reach it too.
func (p *Peer) InviteResolver(code string) (p2p.Resolver, error) {
	if p2p.IsShortCode(code) {
		c, err := p2p.ParseCode(code)
		if err != nil {
			return nil, Usagef("--invite: %v", err)
		}
		if p.Relay != "" { // a game hosted through this relay of one's own: its rendezvous has the code
			relay, err := p2p.ParseAddr(p.Relay)
			if err != nil {
				return nil, Usagef("--relay: %v", err)
			}
			return p2p.RelayCodeResolver{Relay: relay, Code: c}, nil
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
