package relay

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"hostfall/internal/testwait"
	"hostfall/p2p/codes"
	"hostfall/p2p/internal/p2ptest"
	"hostfall/p2p/rendezvous"
	"hostfall/p2p/transport"
)

// A game hosted through a relay of one's own is found by its short code in
// the relay's rendezvous: an impostor registered under the same code is
// passed over (its salt does not make the code), an unknown code answers
// "no game with that code", and the code stops resolving when the game ends.
func TestShortCodeThroughARelay(t *testing.T) {
	relay, _ := newTestRelay(t, Options{})
	ri := relay.AddrInfo()
	host, joiner, impostor := p2ptest.NewHost(t), p2ptest.NewHost(t), p2ptest.NewHost(t)
	lobby := newFakeHosting(host, "alpha", 1)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	code, stop := RegisterCode(ctx, host, lobby, ri, p2ptest.Log(), nil)
	defer stop()

	// The impostor registers first, under the same code's namespace.
	if _, err := rendezvous.Register(ctx, impostor.LibP2P(), ri, codeNamespace(code), time.Minute, nil); err != nil {
		t.Fatal(err)
	}
	var got transport.AddrInfo
	testwait.For(t, "the code resolved", 10*time.Second, func() bool {
		ai, err := CodeResolver{Relay: ri, Code: code}.Resolve(ctx, joiner)
		got = ai
		return err == nil
	})
	if got.ID != host.ID() {
		t.Fatalf("the code %s resolved to %s, not the host %s", code, got.ID, host.ID())
	}

	other := codes.CodeFor(freshPeer(t), []byte("salt"))
	if _, err := (CodeResolver{Relay: ri, Code: other}).Resolve(ctx, joiner); !errors.Is(err, codes.ErrNoGame) || !strings.Contains(err.Error(), "check the code") {
		t.Errorf("an unknown code: %v, want no game with a hint", err)
	}

	lobby.stop()
	testwait.For(t, "the ended game's code gone", 15*time.Second, func() bool {
		ai, err := CodeResolver{Relay: ri, Code: code}.Resolve(ctx, joiner)
		return errors.Is(err, codes.ErrNoGame) && ai.ID == ""
	})
}
