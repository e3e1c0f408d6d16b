package network

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"hostfall/client"
	"hostfall/p2p/codes"
	"hostfall/p2p/transport"
)

// inetPlay is a client's internet play: its codes.Internet, on the public
// network from the start (--internet) or only once the player asks for it
// (the window: an "Internet game" created, a short code typed), and how far
// it got, in the player's words, for the screens.
type inetPlay struct {
	in      *codes.Internet
	h       *transport.Host
	ctx     context.Context // Start's: the DHT lives as long as the client
	always  bool            // --internet: every hosted lobby is published
	log     *slog.Logger
	publish func(ctx context.Context, p *Peer) // publishes p's lobby until ctx ends

	mu       sync.Mutex // guards the fields below
	on       bool       // Internet.Start succeeded
	starting chan struct{}
	startErr error
	text     string
	failed   bool
}

// ErrInternetDown wraps a failure to join the public libp2p network.
var ErrInternetDown = errors.New("could not reach the public libp2p network")

// internetJoinWait bounds a join by short code: joining the public network
// (15 s at most), the lookup (codes.FindTimeout) and the dial through a relay.
const internetJoinWait = 60 * time.Second

// ensure puts this peer on the public network unless it is already there;
// concurrent callers wait for the one start, and a failed start is tried
// again at the next call.
func (ip *inetPlay) ensure(ctx context.Context) error {
	for {
		ip.mu.Lock()
		if ip.on {
			ip.mu.Unlock()
			return nil
		}
		if ch := ip.starting; ch != nil {
			ip.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				return ctx.Err()
			}
			ip.mu.Lock()
			err := ip.startErr
			ip.mu.Unlock()
			if err != nil {
				return err
			}
			continue
		}
		ch := make(chan struct{})
		ip.starting = ch
		ip.mu.Unlock()
		ip.say("joining the internet's libp2p network…", false)
		err := ip.in.Start(ip.ctx, ip.h)
		ip.mu.Lock()
		ip.on, ip.starting, ip.startErr = err == nil, nil, err
		ip.mu.Unlock()
		close(ch)
		if err != nil {
			ip.log.Warn("internet play did not start", "err", err)
			err = fmt.Errorf("%w: check this machine's internet connection, or start Hostfall with --bootstrap naming DHT peers that answer (or play through a relay of your own with --relay)", ErrInternetDown)
			ip.say(capitalize(err.Error())+".", true)
			return err
		}
		ip.say("on the internet", false)
		return nil
	}
}

// say sets the sentence the screens show.
func (ip *inetPlay) say(text string, failed bool) {
	ip.mu.Lock()
	ip.text, ip.failed = capitalize(text), failed
	ip.mu.Unlock()
}

// status is what the screens show of internet play.
func (ip *inetPlay) status() client.InternetStatus {
	if ip == nil {
		return client.InternetStatus{}
	}
	ip.mu.Lock()
	defer ip.mu.Unlock()
	return client.InternetStatus{Available: true, Always: ip.always, On: ip.on, Text: ip.text, Failed: ip.failed}
}

// progress turns a step of internet play into the screens' sentence.
func (ip *inetPlay) progress(p codes.Progress) {
	if text, failed := ProgressText(p); text != "" {
		ip.say(text, failed)
	}
}

// ProgressText says a step of internet play in a player's words; failed
// marks a sentence that says what went wrong and what to try.
func ProgressText(p codes.Progress) (text string, failed bool) {
	switch p.Step {
	case "publishing":
		return fmt.Sprintf("publishing your game… (%s)", plural(p.Relays, "relay", "relays")), false
	case "published":
		return fmt.Sprintf("your game is on the internet (%s): friends type its code %s into their game list", plural(p.Relays, "relay", "relays"), p.Code), false
	case "finding":
		return fmt.Sprintf("finding %s…", p.Code), false
	case "found":
		if p.Relays == 0 {
			return fmt.Sprintf("found %s: connecting", p.Code), false
		}
		return fmt.Sprintf("found %s: connecting through a relay", p.Code), false
	case "relayed-only":
		return "no direct path to the other player was found: public relays only introduce players, they do not carry games, so this connection ends within a couple of minutes; to play, use a relay of your own (one of you runs hostfall relay on a machine both can reach, and you both start with --relay), or forward a port to this machine; in a game of three or more, a player who reaches you both relays for you by itself", true
	}
	return "", false
}

// onPath tells the screens how a peer of the game is reached.
func (ip *inetPlay) onPath(p peer.ID, k transport.PathKind) {
	if k == transport.PathDirect {
		ip.say("direct — the game no longer goes through a relay", false)
		return
	}
	ip.say(ip.relayedText(p), false)
}

// relayedText says how a relayed peer is carried: a public relay only
// while hole punching tries, a relay without limits (a player's of the
// game, or the players' own) for as long as the game needs.
func (ip *inetPlay) relayedText(p peer.ID) string {
	if ip.h != nil && ip.h.CarriedBy(p) != "" {
		return "connected through a relay that carries games (another player's of this game, or your own) — trying to go direct"
	}
	return "connected through a relay — trying to go direct"
}

// joined says how this joiner reached host, once it is in the game.
func (ip *inetPlay) joined(host peer.ID) {
	if ip.in.Paths()[host] == transport.PathRelayed {
		ip.say(ip.relayedText(host), false)
		return
	}
	ip.say("connected directly to the host", false)
}

// path is how peer id is reached, for the network panel, and the relay
// without limits that carries it, if one does (a player's of the game).
func (ip *inetPlay) path(id string) (client.Path, string) {
	if ip == nil {
		return client.PathUnknown, ""
	}
	p, err := peer.Decode(id)
	if err != nil {
		return client.PathUnknown, ""
	}
	switch ip.in.Paths()[p] {
	case transport.PathRelayed:
		return client.PathRelayed, ip.h.CarriedBy(p).String()
	case transport.PathDirect:
		return client.PathDirect, ""
	}
	return client.PathUnknown, ""
}

// unreachableHint follows the refusal of an internet join that found the
// code's host but could not reach it.
const unreachableHint = "The host's network may block the way in: the host can forward a port to their machine, or you both play through a relay of your own (hostfall relay, then --relay)."

// findError is what a joiner reads when a short code finds no host.
func findError(err error) error {
	if errors.Is(err, codes.ErrNoGame) {
		return errors.New("no game with that code: check it with the host (8 letters and digits like K7Q2-9XPM; case and dashes do not matter) — a code stops working when its game ends")
	}
	return err
}
