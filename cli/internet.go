package cli

import (
	"flag"
	"fmt"
	"strings"

	"hostfall/internal/codeform"
	"hostfall/p2p/codes"
	"hostfall/p2p/relay"
	"hostfall/p2p/transport"
)

// AddInternet adds the flags of internet play: --internet, and the
// --bootstrap and --static-relays lists, which imply it. *cfg stays nil
// unless one of them is given.
func AddInternet(fs *flag.FlagSet, cfg **codes.InternetConfig) {
	on := func() *codes.InternetConfig {
		if *cfg == nil {
			*cfg = &codes.InternetConfig{}
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
func addrList(s string) ([]transport.AddrInfo, error) {
	var out []transport.AddrInfo
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		ai, err := transport.ParseAddr(a)
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
func (p *HostJoinFlags) InviteResolver(code string) (transport.Resolver, error) {
	if codeform.IsShort(code) {
		c, err := codes.ParseCode(code)
		if err != nil {
			return nil, Usagef("--invite: %v", err)
		}
		if p.Relay != "" { // a game hosted through this relay of one's own: its rendezvous has the code
			point, err := transport.ParseAddr(p.Relay)
			if err != nil {
				return nil, Usagef("--relay: %v", err)
			}
			return relay.CodeResolver{Relay: point, Code: c}, nil
		}
		if p.Internet == nil {
			p.Internet = &codes.InternetConfig{}
		}
		return codes.CodeResolver(c), nil
	}
	inv, err := codes.DecodeInvite(code)
	if err != nil {
		return nil, Usagef("--invite: %v", err)
	}
	if p.Relay == "" && inv.Relay != nil && p.Internet == nil {
		p.Relay = inv.Relay.String()
	}
	return codes.InviteResolver(code), nil
}
