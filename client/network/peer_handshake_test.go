package network

import (
	"context"
	"strings"
	"testing"
	"time"

	"hostfall/internal/testwait"
	"hostfall/session"
)

// The join handshake over real hosts: a right password joins, a wrong one
// and another game version are refused with a sentence that says why, and
// the refused peers never take a slot.
func TestHandshakeOverLoopback(t *testing.T) {
	t.Parallel() // real-time game on loopback, mostly idle
	host := startPeer(t, "host", testPeerOptions("host"))
	if err := host.Host(session.Settings{Name: "locked", MapSeed: 7, MapSize: 64, MaxPlayers: 4, Password: "swordfish"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, password, version string
		refusal                 string // "" joins
	}{
		{"right password", "swordfish", testVersion, ""},
		{"wrong password", "guess", testVersion, "password"},
		{"other game version", "swordfish", "9.9.9", "version"},
	} {
		outer := t // the peers live until the lobby is counted below
		t.Run(tc.name, func(t *testing.T) {
			opt := testPeerOptions(tc.name)
			opt.Password, opt.GameVersion = tc.password, tc.version
			p := startPeer(outer, tc.name, opt)
			// 30 s: a bound for a hang, not a speed (under -race beside
			// two CPU hogs an answer took over 10 s once).
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			if err := p.Join(ctx, host.host.AddrInfo()); err != nil {
				t.Fatal(err)
			}
			testwait.For(t, "an answer", 30*time.Second, func() bool {
				_, refused := p.find(EvRefused)
				return refused || p.Status().Joined
			})
			ev, refused := p.find(EvRefused)
			switch {
			case tc.refusal == "" && refused:
				t.Fatalf("refused: %s", ev.Text)
			case tc.refusal != "" && !refused:
				t.Fatal("joined")
			case refused && !strings.Contains(strings.ToLower(ev.Text), tc.refusal):
				t.Fatalf("refusal %q does not mention %s", ev.Text, tc.refusal)
			}
			if refused {
				t.Logf("refused: %s", ev.Text)
			}
		})
	}
	humans := 0
	for _, s := range host.Lobby().Slots {
		if s.Kind == session.SlotHuman {
			humans++
		}
	}
	if humans != 2 {
		t.Errorf("the lobby has %d players, want the host and the one with the password", humans)
	}
}
