package codes

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	ma "github.com/multiformats/go-multiaddr"

	"hostfall/p2p/internal/p2ptest"
)

// A host that crashed is at none of its relays: each answers
// NO_RESERVATION at once, and hostGone says the game has ended. A host
// that is there is dialled, and the connection kept.
func TestHostGoneAtItsRelays(t *testing.T) {
	t.Parallel()
	r := p2ptest.NewLimitedRelay(t, &relay.RelayLimit{Duration: time.Minute, Data: 1 << 20})
	host, rc := p2ptest.NewNATHost(t, r, 0, libp2p.NoListenAddrs, libp2p.EnableRelay())
	joiner, _ := p2ptest.NewNATHost(t, r, 0, libp2p.NoListenAddrs, libp2p.EnableRelay())
	in := NewInternet(InternetConfig{Bootstrap: []peer.AddrInfo{r.AddrInfo()}, Logger: p2ptest.Log()})
	in.h = joiner
	inv := RelayInvite(rc, host)
	ai := inv.AddrInfo()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	began := time.Now()
	if in.hostGone(ctx, ai) {
		t.Fatal("a host at its relay counted as gone")
	}
	t.Logf("a host at its relay: dialled in %v", time.Since(began).Round(time.Millisecond))
	if c := joiner.LibP2P().Network().Connectedness(host.ID()); c != network.Limited && c != network.Connected {
		t.Error("the dial to a host that is there was not kept")
	}
	_ = joiner.LibP2P().Network().ClosePeer(host.ID())
	host.Close()
	began = time.Now()
	for !in.hostGone(ctx, ai) {
		if ctx.Err() != nil {
			t.Fatal("a closed host never counted as gone")
		}
		time.Sleep(100 * time.Millisecond) // the relay notices the closed connection
	}
	t.Logf("a closed host: gone after %v", time.Since(began).Round(time.Millisecond))
}

func TestNoReservation(t *testing.T) {
	circ := ma.StringCast("/ip4/11.0.0.1/tcp/4001/p2p/12D3KooWJWoaqZhDaoEFshF7Rh1bpY9ohihFhzcW6d69Lr2NASuq/p2p-circuit")
	direct := ma.StringCast("/ip4/11.0.0.2/tcp/4001")
	noRsvp := errors.New("error opening relay circuit: NO_RESERVATION (204)")
	for _, tt := range []struct {
		name string
		err  error
		want bool
	}{
		{"every relay says no reservation", &swarm.DialError{DialErrors: []swarm.TransportError{{Address: circ, Cause: noRsvp}, {Address: direct, Cause: context.DeadlineExceeded}}}, true},
		{"wrapped", fmt.Errorf("join: %w", &swarm.DialError{DialErrors: []swarm.TransportError{{Address: circ, Cause: noRsvp}}}), true},
		{"a relay timed out", &swarm.DialError{DialErrors: []swarm.TransportError{{Address: circ, Cause: noRsvp}, {Address: circ, Cause: context.DeadlineExceeded}}}, false},
		{"no relay address", &swarm.DialError{DialErrors: []swarm.TransportError{{Address: direct, Cause: noRsvp}}}, false},
		{"not a dial error", noRsvp, false},
		{"a relay without a cause", &swarm.DialError{DialErrors: []swarm.TransportError{{Address: circ}}}, false},
	} {
		if got := noReservation(tt.err); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
